#include "cuda/engine/engine.hpp"

#include <chrono>
#include <future>
#include <optional>
#include <stdexcept>
#include <vector>

#include "cuda/engine/bit_reverse.hpp"
#include "cuda/engine/device_key.hpp"
#include "cuda/engine/proof_gate.hpp"
#include "cuda/engine/split.hpp"
#include "cuda/device.hpp"
#include "cuda/error.hpp"
#include "cuda/memory.hpp"
#include "cuda/msm/msm.hpp"
#include "cuda/ntt/ntt.hpp"

namespace cuzk::cuda {

namespace {

using scalar_t = ec::scalar_limbs_t;
using clock = std::chrono::steady_clock;

double since(clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); }

/* A buffer that grows to the largest proof seen and is reused after that. */
template <class T>
void ensure(device_buffer<T>& b, std::size_t n, const char* what) {
  if (b.size() < n) {
    b = device_buffer<T>();
    b = device_buffer<T>(n, what);
  }
}

/* Where one MSM's split lies on the device: ones summed, others through Pippenger. */
struct device_split {
  const std::uint32_t* ones;
  std::size_t n_ones;
  const std::uint32_t* others;
  const scalar_t* k;
  std::size_t n_others;
  std::uint32_t first;
};

int select(int device) {
  if (device < 0 || device_count() <= device)
    throw std::invalid_argument("cuda engine: no CUDA device " + std::to_string(device));
  CUZK_CUDA_OK(cudaSetDevice(device));
  return device;
}

/* One proving worker's streams and buffers for curve C, shared by its lanes: the proof that owns the worker
   (proof_gate) runs on them; the next one may copy its inputs into abc and z once `consumed` has fired. */
template <class C>
struct worker_state {
  using fr_t = ff::fr<C>;
  explicit worker_state(int d) : device(select(d)) {}
  int device;   // selected before the streams are made on it
  stream s[8];  // 0: NTTs, H; 1: z's split, A; 2: B1; 3: C; 4: B2; 5: key uploads; 6: z, a, b, c copies;
                // 7: never used, so an event recorded on it fires at once (a clock: the spans' anchor)
  device_buffer<fr_t> abc, scratch, z;
  device_buffer<scalar_t> h;
  device_buffer<std::uint32_t> bitrev;
  device_splitter splitter;
  unsigned bitrev_log = ~0u;
  event consumed;  // on stream 0 after the owner's NTTs (its split has ended on the host): a, b, c and z are free
};

/* The four copies of one proof (z, a, b, c) on the copy stream, an event after each. */
struct input_copies {
  event anchor;  // fired at `at` (the idle clock stream): events to host time
  std::chrono::steady_clock::time_point at;
  event copy0, z_in, abc_in[3];
};

template <class C>
class cuda_engine final : public basic_engine<C> {
  using fr_t = ff::fr<C>;
  using proving_key = groth16::basic_proving_key<C>;
  using msm_sums = groth16::basic_msm_sums<C>;

 public:
  cuda_engine(std::shared_ptr<device_context> ctx, bool overlap, std::shared_ptr<worker_state<C>> w,
              std::shared_ptr<proof_gate> gate)
      : ctx_(std::move(ctx)),
        w_(std::move(w)),
        gate_(std::move(gate)),
        device_(w_->device),
        overlap_(overlap),
        s_(w_->s) {}

  std::string_view name() const override { return "cuda"; }
  bool splits_on_device() const override { return true; }
  void use_key(std::string key_id) override { key_id_ = std::move(key_id); }
  bool streamed() const override { return streamed_; }

  /* A proof stopped at a phase boundary (or failing) leaves nothing running on the streams: the next one
     reuses their buffers. A staged proof that never ran leaves its copies queued: the copy stream orders
     them before the next proof's, and no kernel reads them. */
  msm_sums compute(const groth16::basic_engine_input<C>& in, groth16::prove_timings& tm) override {
    CUZK_CUDA_OK(cudaSetDevice(device_));
    groth16::phase_boundary(in.stop);
    const auto t_enter = clock::now();
    proof_gate::ticket tk = gate_->enter(w_.get(), true, [&] { groth16::phase_boundary(in.stop); });
    try {
      return run(in, tm, tk, t_enter);
    } catch (...) {
      if (!tk.staged())
        for (auto& s : w_->s) (void)cudaStreamSynchronize(s);
      throw;
    }
  }

 private:
  /* z, a, b and c to the device in that order on the copy stream (6), behind `after` when given */
  void copy_inputs(const groth16::basic_engine_input<C>& in, input_copies& cp, const event* after) {
    const std::size_t n = in.pk.domain_size;
    cp.anchor.record(s_[7]);
    cp.at = clock::now();
    if (after) CUZK_CUDA_OK(cudaStreamWaitEvent(s_[6], *after, 0));
    cp.copy0.record(s_[6]);
    CUZK_CUDA_OK(cudaMemcpyAsync(w_->z.data(), in.z.data(), in.z.size() * sizeof(fr_t), cudaMemcpyHostToDevice, s_[6]));
    cp.z_in.record(s_[6]);
    for (int v = 0; v < 3; ++v) {
      const std::span<const fr_t> src = v == 0 ? in.a : v == 1 ? in.b : in.c;
      CUZK_CUDA_OK(
          cudaMemcpyAsync(w_->abc.data() + v * n, src.data(), n * sizeof(fr_t), cudaMemcpyHostToDevice, s_[6]));
      cp.abc_in[v].record(s_[6]);
    }
  }

  msm_sums run(const groth16::basic_engine_input<C>& in, groth16::prove_timings& tm, proof_gate::ticket& tk,
               clock::time_point t_enter) {
    auto& w = *w_;
    const proving_key& pk = in.pk;
    const std::size_t n = pk.domain_size;
    const std::size_t nz = std::max<std::size_t>(in.z.size(), 1);
    const auto& plan = in.plan;

    /* staged: the inputs go to the device behind the owner's last reads of its own (its MSMs run meanwhile),
       when they fit the buffers as they are; then this proof waits for the owner to end */
    input_copies cp;
    bool copied = false;
    if (tk.staged()) {
      if (w.abc.size() >= 3 * n && w.z.size() >= nz) {
        copy_inputs(in, cp, &w.consumed);
        copied = true;
      }
      tk.run([&] { groth16::phase_boundary(in.stop); });
    }
    tm.wait = since(t_enter);
    event go;  // this proof owns the worker: the previous owner's kernels have ended
    go.record(s_[0]);
    groth16::phase_boundary(in.stop);

    /* the key's bases: resident (shared with this device's other workers) or streamed below */
    ctx_->register_mapped(pk);
    const std::shared_ptr<const basic_device_key<C>> key = ctx_->resident(key_id_, pk, s_[5]);
    streamed_ = !key;
    if (streamed_) ctx_->note_streamed();

    /* z, a, b and c (unless staged) each consumed as it arrives: z's split and the MSMs of A, B and L follow
       on streams 1-4, each input's NTTs on stream 0 (H's MSM after them), so a's transforms run while b and c
       are copied */
    ensure(w.scratch, 2 * n, "NTT scratch");
    ensure(w.h, n, "H scalars");
    if (!copied) {
      ensure(w.abc, 3 * n, "a, b, c");
      ensure(w.z, nz, "the witness");
      copy_inputs(in, cp, nullptr);
    }
    event ntt_end;
    CUZK_CUDA_OK(cudaStreamWaitEvent(s_[1], cp.z_in, 0));

    const ntt::basic_h_params<C> hp{plan.convention, plan.log_n, plan.family, plan.shift, plan.z_inv};
    const ntt::order h_order = ntt::compute_h(w.abc.data(), w.abc.data() + n, w.abc.data() + 2 * n, w.h.data(),
                                              w.scratch.data(), hp, s_[0], {cp.abc_in[0], cp.abc_in[1], cp.abc_in[2]});
    ntt_end.record(s_[0]);
    w.consumed.record(s_[0]);
    if (h_order == ntt::order::bit_reversed && w.bitrev_log != plan.log_n) {
      ensure(w.bitrev, n, "bit-reversed H indices");
      bit_reversed_indices(w.bitrev.data(), n, plan.log_n, s_[0]);
      w.bitrev_log = plan.log_n;
    }
    /* the 0/1 split of z on the device, beside the NTTs; once it has ended (on the host) and the NTTs are
       queued before `consumed`, the worker's next proof may copy its inputs over these */
    const auto ts = clock::now();
    const device_splitter::result zr = w.splitter.template split<C>(w.z.data(), in.z.size(), s_[1]);
    tm.split = since(ts);
    tm.add_span(groth16::phase::split, ts, clock::now());
    tk.inputs_consumed();
    /* once stream 0's NTTs are done: H's top coefficient (coefficient form), the copy and NTT times */
    msm_sums out;
    out.h_top = fr_t::zero();
    auto ntts_done = [&] {
      s_[0].sync();
      groth16::phase_boundary(in.stop);
      /* seconds after the proof's origin, from the clock stream's anchor */
      const double c0 = std::chrono::duration<double>(cp.at - tm.origin).count();
      const auto at = [&](const event& e) { return c0 + event::ms(cp.anchor, e) / 1e3; };
      /* h2d: the four copies, back to back; ntt: from a's arrival (or this proof's turn, when staged) to the
         last transform (b's and c's copies inside it where they are the slower) */
      const double h0 = at(cp.copy0), h1 = at(cp.abc_in[2]);
      const double n0 = std::max(at(cp.abc_in[0]), at(go)), n1 = at(ntt_end);
      tm.h2d = h1 - h0;
      tm.ntt = n1 - n0;
      tm.add_span(groth16::phase::h2d, h0, h1, groth16::phase::h2d);
      tm.add_span(groth16::phase::ntt, n0, n1, groth16::phase::ntt);
      if (plan.convention == poly::h_convention::coefficients) {
        /* coefficient n − 1 sits at position n − 1 in either order */
        scalar_t top;
        CUZK_CUDA_OK(cudaMemcpy(&top, w.h.data() + (n - 1), sizeof top, cudaMemcpyDeviceToHost));
        out.h_top = fr_t::from_canonical_unchecked(top);
      }
    };

    /* the C query takes z[n_public + 1 ..]: a suffix of each increasing index list */
    const std::uint32_t first = pk.n_public + 1;
    std::size_t ones_before = 0, others_before = 0;
    for (std::uint32_t i = 0; i < first && i < in.z.size(); ++i) {
      ones_before += in.z[i].is_one();
      others_before += !in.z[i].is_one() && !in.z[i].is_zero();
    }
    const device_split z_dev{zr.ones, zr.n_ones, zr.others, zr.k, zr.n_others, 0};
    const device_split c_dev{zr.ones + ones_before, zr.n_ones - ones_before,     zr.others + others_before,
                             zr.k + others_before,  zr.n_others - others_before, first};
    const std::uint32_t* h_idx = h_order == ntt::order::bit_reversed ? w.bitrev.data() : nullptr;

    const auto t0 = clock::now();
    if (key) {
      resident_msms(*key, z_dev, c_dev, h_idx, plan.h_len, ntts_done, out, tm, in.stop);
    } else {
      ntts_done();
      streamed_msms(pk, z_dev, c_dev, h_idx, plan.h_len, out, tm, in.stop);
    }
    tm.msm = since(t0);

    /* the proof's kernels ran from z's arrival, or from its turn when staged (its split; a's NTTs start later
       on the same copy stream) to the last MSM's end (each MSM blocks) */
    event end;
    end.record(s_[0]);
    end.sync();
    ctx_->note_busy(copied && event::ms(go, cp.z_in) < 0 ? go : cp.z_in, end);
    return out;
  }

  /* an MSM's span and its batch addition's (on the MSM's row), from its start and its host-timed durations */
  static void msm_spans(groth16::prove_timings& tm, groth16::phase p, clock::time_point at, double t_msm,
                        double t_batch) {
    const double s = std::chrono::duration<double>(at - tm.origin).count();
    tm.add_span(p, s, s + t_msm, p);
    if (t_batch > 0) tm.add_span(groth16::phase::batch_add, s, s + t_batch, p);
  }

  template <class Bases>
  static auto split_msm(const Bases& b, const device_split& d, cudaStream_t st, double& t_msm, double& t_batch,
                        const std::atomic<bool>* stop) {
    groth16::phase_boundary(stop);
    const auto t = clock::now();
    auto ones = msm::sum(b, d.ones, d.first, d.n_ones, st);
    t_batch = since(t);
    auto rest = msm::pippenger(b, msm::scalars{d.k, d.others, d.first, d.n_others}, st);
    t_msm = since(t);
    return ones + rest;
  }

  /* five MSMs over resident bases: one after another, or (overlap_msms) each on its own stream and host
     thread; those of A, B and L as soon as z is split, beside the NTTs, and H's after ntts_done() */
  template <class Done>
  void resident_msms(const basic_device_key<C>& key, const device_split& z_dev, const device_split& c_dev,
                     const std::uint32_t* h_idx, std::size_t h_len, Done&& ntts_done, msm_sums& out,
                     groth16::prove_timings& tm, const std::atomic<bool>* stop) {
    double batch[4] = {0, 0, 0, 0};
    clock::time_point at[5];  // each stream's MSM start (streams 1-4), for the spans added below on this thread
    const auto policy = overlap_ ? std::launch::async : std::launch::deferred;
    auto job = [&](int si, const auto& bases, const device_split& d, double& t_msm, double& t_batch) {
      return std::async(policy, [&, si] {
        CUZK_CUDA_OK(cudaSetDevice(device_));
        at[si] = clock::now();
        return split_msm(bases, d, s_[si], t_msm, t_batch, stop);
      });
    };
    auto fa = job(1, key.a, z_dev, tm.msm_a, batch[0]);
    auto fb1 = job(2, key.b1, z_dev, tm.msm_b_g1, batch[1]);
    auto fl = job(3, key.c, c_dev, tm.msm_l, batch[2]);
    auto fb2 = job(4, key.b2, z_dev, tm.msm_b_g2, batch[3]);
    if (!overlap_) out.a = fa.get(), out.b1 = fb1.get(), out.c = fl.get(), out.b2 = fb2.get();
    ntts_done();
    {
      groth16::phase_boundary(stop);
      const auto t = clock::now();
      out.h = msm::pippenger(key.h, msm::scalars{w_->h.data(), h_idx, 0, h_len}, s_[0]);
      tm.msm_h = since(t);
      tm.add_span(groth16::phase::msm_h, t, clock::now());
    }
    if (overlap_) out.a = fa.get(), out.b1 = fb1.get(), out.c = fl.get(), out.b2 = fb2.get();
    tm.batch_add = batch[0] + batch[1] + batch[2] + batch[3];
    msm_spans(tm, groth16::phase::msm_a, at[1], tm.msm_a, batch[0]);
    msm_spans(tm, groth16::phase::msm_b_g1, at[2], tm.msm_b_g1, batch[1]);
    msm_spans(tm, groth16::phase::msm_l, at[3], tm.msm_l, batch[2]);
    msm_spans(tm, groth16::phase::msm_b_g2, at[4], tm.msm_b_g2, batch[3]);
  }

  /* A key too large to stay resident: its queries one at a time, double
     buffered: the next query's bases copy (stream 5) while this one's MSM
     runs, so at most two queries' bases are on the device. */
  void streamed_msms(const proving_key& pk, const device_split& z_dev, const device_split& c_dev,
                     const std::uint32_t* h_idx, std::size_t h_len, msm_sums& out, groth16::prove_timings& tm,
                     const std::atomic<bool>* stop) {
    const auto& m = pk.mapped;
    double batch[4] = {0, 0, 0, 0};
    std::optional<msm::basic_g1_bases<C>> cur, next;
    std::optional<msm::basic_g2_bases<C>> b2;
    auto advance = [&] {
      s_[5].sync();
      cur = std::move(next);
      next.reset();
    };
    next.emplace(upload_bases(m.h, pk.h_query, s_[5]));
    advance();
    next.emplace(upload_bases(m.a, pk.a, s_[5]));
    {
      groth16::phase_boundary(stop);
      const auto t = clock::now();
      out.h = msm::pippenger(*cur, msm::scalars{w_->h.data(), h_idx, 0, h_len}, s_[0]);
      tm.msm_h = since(t);
      tm.add_span(groth16::phase::msm_h, t, clock::now());
    }
    clock::time_point at[4];  // each MSM's start, for its span
    advance();
    next.emplace(upload_bases(m.b1, pk.b1, s_[5]));
    at[0] = clock::now();
    out.a = split_msm(*cur, z_dev, s_[0], tm.msm_a, batch[0], stop);
    advance();
    next.emplace(upload_bases(m.c, pk.c, s_[5]));
    at[1] = clock::now();
    out.b1 = split_msm(*cur, z_dev, s_[0], tm.msm_b_g1, batch[1], stop);
    advance();
    b2.emplace(upload_bases(m.b2, pk.b2, s_[5]));
    at[2] = clock::now();
    out.c = split_msm(*cur, c_dev, s_[0], tm.msm_l, batch[2], stop);
    cur.reset();
    s_[5].sync();
    at[3] = clock::now();
    out.b2 = split_msm(*b2, z_dev, s_[0], tm.msm_b_g2, batch[3], stop);
    tm.batch_add = batch[0] + batch[1] + batch[2] + batch[3];
    msm_spans(tm, groth16::phase::msm_a, at[0], tm.msm_a, batch[0]);
    msm_spans(tm, groth16::phase::msm_b_g1, at[1], tm.msm_b_g1, batch[1]);
    msm_spans(tm, groth16::phase::msm_l, at[2], tm.msm_l, batch[2]);
    msm_spans(tm, groth16::phase::msm_b_g2, at[3], tm.msm_b_g2, batch[3]);
  }

  std::shared_ptr<device_context> ctx_;
  std::shared_ptr<worker_state<C>> w_;  // the worker's, shared by its lanes of this curve
  std::shared_ptr<proof_gate> gate_;    // the worker's, shared by all its lanes
  int device_;
  bool overlap_;
  std::string key_id_;
  bool streamed_ = false;
  stream (&s_)[8];  // the worker's streams (worker_state::s)
};

}  // namespace

template <class C>
std::unique_ptr<basic_engine<C>> make_engine(const engine_options& opt) {
  context_options co;
  co.device = opt.device;
  co.workers = 1;
  co.msm_copies = opt.msm_copies;
  return make_engine<C>(std::make_shared<device_context>(co, std::make_shared<host_registry>()), opt.overlap_msms);
}

template <class C>
std::unique_ptr<basic_engine<C>> make_engine(std::shared_ptr<device_context> ctx, bool overlap_msms) {
  auto w = std::make_shared<worker_state<C>>(ctx->device());
  return std::make_unique<cuda_engine<C>>(std::move(ctx), overlap_msms, std::move(w), std::make_shared<proof_gate>());
}

namespace {

template <class C>
void add_lanes(lanes_of<C>& v, const std::shared_ptr<device_context>& ctx, unsigned lanes, bool overlap_msms,
               const std::shared_ptr<proof_gate>& gate) {
  auto w = std::make_shared<worker_state<C>>(ctx->device());
  for (unsigned i = 0; i < std::max(1u, lanes); ++i)
    v.push_back(std::make_unique<cuda_engine<C>>(ctx, overlap_msms, w, gate));
}

}  // namespace

worker_lanes make_worker(std::shared_ptr<device_context> ctx, unsigned lanes, bool overlap_msms) {
  auto gate = std::make_shared<proof_gate>();
  worker_lanes out;
  std::apply([&](auto&... per_curve) { (add_lanes(per_curve, ctx, lanes, overlap_msms, gate), ...); }, out);
  return out;
}

#define CUZK_CUDA_ENGINE_INSTANCES(C)                                           \
  template std::unique_ptr<basic_engine<C>> make_engine(const engine_options&); \
  template std::unique_ptr<basic_engine<C>> make_engine(std::shared_ptr<device_context>, bool);
CUZK_CURVES(CUZK_CUDA_ENGINE_INSTANCES)

}  // namespace cuzk::cuda
