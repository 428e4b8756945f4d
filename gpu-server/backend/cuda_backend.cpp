#include "backend/cuda_backend.hpp"
#include "backend/cuda_lanes.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <tuple>
#include <variant>
#include <vector>

#include "cuda/device.hpp"
#include "cuda/engine/engine.hpp"
#include "cuda/error.hpp"
#include "cuda/host_register.hpp"
#include "poly/threads.hpp"
#include "sizing/key_dims_of.hpp"

namespace cuzk::server {

namespace {

using clock = std::chrono::steady_clock;

double since(clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); }
double gib(std::size_t bytes) { return double(bytes) / double(1ULL << 30); }

/* groth16::prove on CUDA engines: per GPU (a device_context: resident keys
   under a budget, busy time) workers_per_gpu workers, each with its own
   streams and buffers, so that one copies its slot's a, b, c and z (from
   the registered pool, at pinned speed) while another's kernels run. A GPU
   with one worker (a key that leaves room for no second one's buffers)
   gives it two lanes (cuda::make_worker): the next proof's copy runs while
   the current one's MSMs do, into the same buffers. A prove() call takes a
   free lane, any GPU, an idle worker's first; the server calls it from
   concurrency() threads. CUZK_CUDA_PREFETCH=0 gives every worker one lane,
   =1 two (to measure the difference). */
class cuda_backend final : public prover_backend {
 public:
  cuda_backend(const backend_options& opt, fault_plan faults)
      : threads_(opt.threads),
        register_(opt.register_pool),
        faults_(faults),
        registry_(std::make_shared<cuda::host_registry>()) {
    std::vector<int> gpus = opt.gpus;
    if (gpus.empty())
      for (int d = 0; d < cuda::device_count(); ++d) gpus.push_back(d);
    for (int d : gpus) {
      try {
        cuda::context_options co;
        co.device = d;
        co.reserve = opt.device_reserve;
        co.budget = opt.device_budget;
        co.msm_copies = opt.msm_copies;
        co.workers = std::max(1u, opt.workers_per_gpu);
        co.sharers = unsigned(std::count(gpus.begin(), gpus.end(), d));
        auto ctx = std::make_shared<cuda::device_context>(co, registry_);
        const unsigned lanes = lanes_for(co.workers);
        const auto i = cuda::info(d);
        spdlog::info(
            "GPU {}: CUDA device {}: {}, {} SMs, {:.1f} GiB ({:.1f} GiB free), compute capability {}.{}; "
            "{} workers ({} lanes each: {}), budget {:.1f} GiB, reserve {:.1f} GiB, MSM copies {}",
            gpus_.size(), d, i.name, i.sms, gib(i.total_mem), gib(i.free_mem), i.cc_major, i.cc_minor, co.workers,
            lanes, lanes > 1 ? "the next proof's inputs copied during the MSMs" : "one proof a worker at a time",
            gib(ctx->budget()), gib(co.reserve),
            co.msm_copies < 0 ? std::string("as fit") : std::to_string(co.msm_copies));
        for (unsigned w = 0; w < co.workers; ++w) {
          auto engines = cuda::make_worker(ctx, lanes);
          for (unsigned l = 0; l < lanes; ++l) lanes_.emplace_back(engines, l, int(gpus_.size()), workers_);
          ++workers_;
        }
        gpus_.push_back({ctx});
      } catch (const std::exception& e) {
        throw std::runtime_error("cannot use CUDA device " + std::to_string(d) + ": " + e.what());
      }
    }
    if (lanes_.empty()) throw std::runtime_error("no CUDA device to prove on");
  }

  ~cuda_backend() override {
    if (lost_) {  // the context is unusable: every call would fail; the process's end frees it all
      for (auto& w : lanes_) std::apply([](auto&... c) { ((void)c.engine.release(), ...); }, w.per_curve);
      for (auto& g : gpus_) (void)new std::shared_ptr<cuda::device_context>(std::move(g.ctx));
      (void)new std::shared_ptr<cuda::host_registry>(std::move(registry_));
      return;
    }
    lanes_.clear();
    gpus_.clear();
    registry_.reset();  // unregisters the pool and the keys' mapped bases
  }

  std::string_view name() const override { return "cuda"; }
  unsigned concurrency() const override { return unsigned(lanes_.size()); }
  bool reads_mapped_bases() const override { return true; }

  void attach_pool(std::span<const std::span<std::uint8_t>> chunks) override {
    if (!register_) {
      spdlog::info("--no-register: the pool is not registered with CUDA; a, b, c and z go through heap memory");
      return;
    }
    CUZK_CUDA_OK(cudaSetDevice(gpus_.front().ctx->device()));
    std::size_t total = 0, n = 0;
    const auto t0 = clock::now();
    for (std::size_t i = 0; i < chunks.size();
         ++i) {  // the registry that holds the keys' mapped bases holds the pool too
      const auto& c = chunks[i];
      if (c.empty()) continue;
      try {
        (void)registry_->add(c, nullptr, false);
      } catch (const std::exception& e) {
        throw std::runtime_error("cannot register the pool's payload with CUDA (chunk " + std::to_string(i + 1) +
                                 " of " + std::to_string(chunks.size()) + ", " + std::to_string(c.size()) +
                                 " bytes): " + e.what() + "; start with --no-register to prove without it");
      }
      ++n;
      total += c.size();
    }
    const double s = since(t0);
    spdlog::info("registered the pool's payload with CUDA: {} chunk(s), {:.2f} GiB in {:.3f} s ({:.3f} s/GiB)", n,
                 gib(total), s, total ? s / gib(total) : 0.0);
  }

  /* Streamed for every proof: say why, and how many workers a GPU may run for
     it to stay resident (its bases and every worker's buffers within the budget). */
  template <class C>
  static void not_resident(std::string_view key_id, const groth16::basic_proving_key<C>& pk, std::size_t g,
                           const cuda::device_context& ctx) {
    const std::size_t bases = cuda::basic_device_key<C>::footprint(pk), work = cuda::working_bytes<C>(pk);
    const unsigned fit = sizing::workers_that_fit(sizing::dims_of(pk), ctx.budget());
    if (fit >= 1 && fit < ctx.workers())
      spdlog::warn(
          "key {}: its bases and MSM workspace ({:.3f} GiB) and {} workers' buffers ({:.3f} GiB each) exceed "
          "GPU {}'s {:.3f} GiB budget, so it is streamed for every proof; with --workers-per-gpu {} it would "
          "stay resident",
          key_id, gib(bases), ctx.workers(), gib(work), g, gib(ctx.budget()), fit);
    else
      spdlog::info(
          "key {}: too large to stay resident on GPU {} within its {:.3f} GiB budget (bases and MSM workspace "
          "{:.3f} GiB, buffers {:.3f} GiB a worker); its bases will be streamed for each proof",
          key_id, g, gib(ctx.budget()), gib(bases), gib(work));
  }

  bool attach_key(std::string_view key_id, const job::any_key& key) override {
    bool everywhere = false;
    key.visit([&](const auto& pk) { everywhere = attach(key_id, pk); });
    return everywhere;
  }

  void forget_host_copy(const job::any_key& key) override {
    key.visit([&](const auto& pk) {
      CUZK_CUDA_OK(cudaSetDevice(gpus_.front().ctx->device()));
      gpus_.front().ctx->forget_mapped(pk.mapped);  // one registry holds every GPU's registrations
    });
  }

  bool would_stay_resident(const sizing::key_dims& k) const override {
    return std::all_of(gpus_.begin(), gpus_.end(), [&](const gpu& g) { return g.ctx->could_hold(k); });
  }

  /* true: resident on every GPU */
  template <class C>
  bool attach(std::string_view key_id, const groth16::basic_proving_key<C>& pk) {
    const auto& m = pk.mapped;
    const std::size_t region = m.a.size() + m.b1.size() + m.b2.size() + m.c.size() + m.h.size();
    bool everywhere = true;
    for (std::size_t g = 0; g < gpus_.size(); ++g) {
      auto& ctx = *gpus_[g].ctx;
      try {
        CUZK_CUDA_OK(cudaSetDevice(ctx.device()));
        const auto t0 = clock::now();
        const bool registered = g == 0 && ctx.register_mapped(pk);
        if (registered)
          spdlog::info("key {}: registered its SRS region's bases with CUDA, {:.2f} GiB in {:.3f} s ({:.3f} s/GiB)",
                       key_id, gib(region), since(t0), region ? since(t0) / gib(region) : 0.0);
        const auto t1 = clock::now();
        cuda::stream s;
        const bool from_file = cuda::points_released(m);
        if (const auto dk = ctx.resident(key_id, pk, s)) {
          spdlog::info(
              "key {}: resident on GPU {} ({:.2f} GiB of bases{}, {:.2f} GiB of shifted copies: {}) in {:.3f} s",
              key_id, g, gib(cuda::basic_device_key<C>::bases_bytes(pk)), from_file ? " read from its file" : "",
              gib(dk->shifted_bytes()), dk->shifts().describe(), since(t1));
        } else {
          everywhere = false;
          not_resident(key_id, pk, g, ctx);
        }
      } catch (const cuda::error& e) {
        everywhere = false;
        spdlog::warn("key {}: not made resident on GPU {}: {}", key_id, g, e.what());
        if (e.sticky()) throw device_fault("CUDA device " + std::to_string(ctx.device()) + ": " + e.what(), true);
      }
    }
    return everywhere;
  }

 private:
  any_output prove_any(any_input in) override {
    return std::visit([&](auto* p) -> any_output { return run(*p); }, in);
  }

  template <class C>
  basic_prove_output<C> run(const basic_prove_input<C>& in) {
    using fr = ff::fr<C>;
    lane_lease w(*this);
    auto& wk = lanes_[w.index];
    auto& gpu = gpus_[wk.gpu];
    const int device = gpu.ctx->device();
    auto& engine = *wk.template of<C>().engine;
    basic_prove_output<C> out;
    out.gpu = wk.gpu;
    out.worker = int(std::count_if(lanes_.begin(), lanes_.begin() + std::ptrdiff_t(w.index),
                                   [&](const lane& x) { return x.gpu == wk.gpu; }));
    try {
      fault_plan::kind f;
      {
        std::lock_guard lk(mu_);
        f = faults_.next();
      }
      switch (f) {
        case fault_plan::kind::transient:
          throw cuda::error(cudaErrorLaunchOutOfResources, "injected transient CUDA error (CUZK_CUDA_FAULT)");
        case fault_plan::kind::sticky:
          throw cuda::error(cudaErrorIllegalAddress, "injected sticky CUDA error (CUZK_CUDA_FAULT)");
        case fault_plan::kind::none:
          break;
      }
      std::span<const fr> a = in.a, b = in.b, c = in.c, z = in.z;
      if (!register_) {  // the old way: the bytes are in pageable heap memory when the engine copies them
        const auto t = clock::now();
        const std::size_t n = in.a.size();
        auto& heap = wk.template of<C>().heap;
        heap.resize(3 * n + in.z.size());
        std::memcpy(heap.data(), in.a.data(), in.a.size_bytes());
        std::memcpy(heap.data() + n, in.b.data(), in.b.size_bytes());
        std::memcpy(heap.data() + 2 * n, in.c.data(), in.c.size_bytes());
        std::memcpy(heap.data() + 3 * n, in.z.data(), in.z.size_bytes());
        a = {heap.data(), n};
        b = {heap.data() + n, n};
        c = {heap.data() + 2 * n, n};
        z = {heap.data() + 3 * n, in.z.size()};
        out.stage = since(t);
      }
      engine.use_key(std::string(in.key_id));
      out.proof = poly::with_threads(
          threads_, [&] { return groth16::prove(engine, in.pk, z, a, b, c, in.rs, &out.timings, in.stop); });
      out.streamed = engine.streamed();
      ++gpu.proofs;
    } catch (const cuda::out_of_memory& e) {  // not the device's fault, and a retry would not fit either
      ++gpu.faults;
      throw std::runtime_error("GPU " + std::to_string(wk.gpu) + " (CUDA device " + std::to_string(device) +
                               "): the proof does not fit its memory: " + e.what());
    } catch (const cuda::error& e) {
      ++gpu.faults;
      bool sticky = e.sticky();
      if (!sticky) {  // the device idle again before the retry, and no sticky error hiding behind this one
        const cudaError_t s = cudaDeviceSynchronize();
        sticky = s != cudaSuccess && cuda::error::is_sticky(s);
        if (!sticky) (void)cudaGetLastError();
      }
      if (sticky) lost_ = true;
      throw device_fault("GPU " + std::to_string(wk.gpu) + " (CUDA device " + std::to_string(device) + "): " + e.what(),
                         sticky);
    }
    return out;
  }

 public:
  std::vector<gpu_status> gpus() const override {
    std::vector<gpu_status> v;
    for (const auto& g : gpus_) {
      const auto st = g.ctx->status();
      gpu_status s;
      s.device = st.device;
      s.name = st.name;
      s.workers = st.workers;
      s.busy_ratio = st.busy_ratio;
      s.busy_seconds = st.busy_seconds;
      s.mem_total = st.mem_total;
      s.mem_free = st.mem_free;
      s.budget = st.budget;
      s.resident_keys = st.resident_keys;
      s.resident_shifts = st.resident_shifts;
      s.resident_key_bytes.assign(st.resident_key_bytes.begin(), st.resident_key_bytes.end());
      s.resident_bytes = st.resident_bytes;
      s.shifted_bytes = st.shifted_bytes;
      s.proofs = g.proofs.load();
      s.faults = g.faults.load();
      v.push_back(std::move(s));
    }
    return v;
  }

 private:
  struct gpu {
    std::shared_ptr<cuda::device_context> ctx;
    std::atomic<std::uint64_t> proofs{0}, faults{0};
    gpu(std::shared_ptr<cuda::device_context> c) : ctx(std::move(c)) {}
    gpu(gpu&& o) noexcept : ctx(std::move(o.ctx)), proofs(o.proofs.load()), faults(o.faults.load()) {}
  };
  /* A lane's engine for curve C, and its --no-register staging */
  template <class C>
  struct on_curve {
    std::unique_ptr<cuda::basic_engine<C>> engine;
    std::vector<ff::fr<C>> heap;
    void take(cuda::worker_lanes& from, unsigned l) { engine = std::move(std::get<cuda::lanes_of<C>>(from)[l]); }
  };
  /* One lane of a worker: an engine per curve on the same GPU context (they share its resident keys); the
     lanes of a worker share its buffers (cuda::make_worker). */
  struct lane {
    lane(cuda::worker_lanes& engines, unsigned l, int g, unsigned w) : gpu(g), worker(w) {
      std::apply([&](auto&... c) { (c.take(engines, l), ...); }, per_curve);
    }
    curves::all::tuple<on_curve> per_curve;
    int gpu;
    unsigned worker;  // lanes of one worker have the same
    bool busy = false;
    template <class C>
    on_curve<C>& of() {
      return std::get<on_curve<C>>(per_curve);
    }
  };
  /* Lanes a worker gets: two where a GPU has one worker (the next proof's copy during the current one's
     MSMs), else one (another worker's proof hides the copy); CUZK_CUDA_PREFETCH=0 or 1 says instead. */
  static unsigned lanes_for(unsigned workers) {
    if (const char* v = std::getenv("CUZK_CUDA_PREFETCH"); v && *v) return std::strcmp(v, "0") == 0 ? 1 : 2;
    return workers == 1 ? 2 : 1;
  }

  /* A free lane for one proof (cuda_lanes::pick). */
  struct lane_lease {
    cuda_backend& b;
    std::size_t index;
    explicit lane_lease(cuda_backend& be) : b(be) {
      std::unique_lock lk(b.mu_);
      b.cv_.wait(lk,
                 [&] { return std::any_of(b.lanes_.begin(), b.lanes_.end(), [](const lane& w) { return !w.busy; }); });
      std::vector<cuda_lanes::lane_state> st;
      for (const auto& l : b.lanes_) st.push_back({l.gpu, l.worker, l.busy});
      index = cuda_lanes::pick(st, b.next_);
      b.next_ = (index + 1) % b.lanes_.size();
      b.lanes_[index].busy = true;
    }
    ~lane_lease() {
      {
        std::lock_guard lk(b.mu_);
        b.lanes_[index].busy = false;
      }
      b.cv_.notify_one();
    }
  };

  int threads_;
  bool register_;
  fault_plan faults_;
  std::atomic<bool> lost_{false};
  std::shared_ptr<cuda::host_registry> registry_;
  std::vector<gpu> gpus_;
  std::vector<lane> lanes_;  // each worker's lanes, one after another
  unsigned workers_ = 0;
  std::mutex mu_;
  std::condition_variable cv_;
  std::size_t next_ = 0;  // where the next lane search starts (under mu_)
};

}  // namespace

int cuda_device_count() noexcept { return cuda::device_count(); }

std::unique_ptr<prover_backend> make_cuda_backend(const backend_options& opt, fault_plan faults) {
  return std::make_unique<cuda_backend>(opt, faults);
}

}  // namespace cuzk::server
