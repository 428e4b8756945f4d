// The CPU engine (DESIGN §5): H by the multithreaded NTTs of poly/ on scratch
// copies of a, b, c (kept across proofs), or in a, b, c themselves when the
// caller gives them up (abc_consumed: b's and c's pages are released once H
// is known), the MSMs by Pippenger with oneTBB, the G2 one concurrently with
// the four in G1, over the key's decoded points or its bytes in place (a key
// read without decoding, ec::packed_affine). A, B and C consume the
// orchestrator's split of z; H's scalars are full width and skip the split.
#include <algorithm>
#include <chrono>
#include <cstdint>
#include <stdexcept>
#include <type_traits>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include "curves/dispatch.hpp"
#include "groth16/engine.hpp"
#include "msm/msm.hpp"
#include "poly/domain.hpp"
#include "poly/threads.hpp"
#include "util/host_memory.hpp"

namespace cuzk::groth16 {

namespace {

using clock = std::chrono::steady_clock;
double since(clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); }

/* One proof at a time: the scratch vectors are the engine's. */
template <class C>
class cpu_engine final : public basic_engine<C> {
  using fr = ff::fr<C>;

 public:
  explicit cpu_engine(int threads) : threads_(threads) {}
  std::string_view name() const override { return "cpu"; }

  basic_msm_sums<C> compute(const basic_engine_input<C>& in, prove_timings& tm) override {
    const basic_proving_key<C>& pk = in.pk;
    if (pk.points_decoded())
      return poly::with_threads(threads_, [&] {
        return run(in, tm, bases<ec::g1_affine<C>, ec::g2_affine<C>>{pk.a, pk.b1, pk.b2, pk.c, pk.h_query});
      });
    using g1p = ec::packed_affine<ff::fp<C>>;
    using g2p = ec::packed_affine<ff::fp2<C>>;
    static_assert(sizeof(g1p) == basic_proving_key<C>::g1_bytes && sizeof(g2p) == basic_proving_key<C>::g2_bytes);
    const mapped_bases& m = pk.mapped;
    if (m.source && (m.source->released(m.a) || m.source->released(m.b1) || m.source->released(m.b2) ||
                     m.source->released(m.c) || m.source->released(m.h)))
      throw std::invalid_argument(
          "the key's points are no longer in memory (only in its file): the CPU engine reads "
          "them in place");
    const bases<g1p, g2p> b{in_place<g1p>(m.a), in_place<g1p>(m.b1), in_place<g2p>(m.b2), in_place<g1p>(m.c),
                            in_place<g1p>(m.h)};
    return poly::with_threads(threads_, [&] { return run(in, tm, b, &m); });
  }

 private:
  template <class G1, class G2>
  struct bases {
    std::span<const G1> a, b1;
    std::span<const G2> b2;
    std::span<const G1> c, h;
  };

  /* a section of the key's bytes as the packed points it holds (ec::packed_affine: bytes, any alignment) */
  template <class P>
  static std::span<const P> in_place(std::span<const std::uint8_t> bytes) {
    if (bytes.size() % sizeof(P) != 0)
      throw std::invalid_argument("a point section of the key is not a whole number of points");
    return {reinterpret_cast<const P*>(bytes.data()), bytes.size() / sizeof(P)};
  }

  /* the split's MSM over decoded points or over the key's bytes in place */
  template <class P>
  static auto msm_of(std::span<const P> bases, const split_view& v) {
    using G = std::conditional_t<std::is_same_v<typename P::field_t, ff::fp<C>>, ec::g1_group<C>, ec::g2_group<C>>;
    if constexpr (std::is_same_v<P, ec::affine_point<typename P::field_t>>)
      return msm::group_msm<G>::msm(bases, v.ones, v.others, v.other_scalars, v.first);
    else
      return msm::group_msm<G>::msm_packed(bases, v.ones, v.others, v.other_scalars, v.first);
  }

  void copy_in(const basic_engine_input<C>& in) {
    for (auto* v : {&a_, &b_, &c_}) v->resize(in.a.size());
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, in.a.size(), 1 << 14), [&](const auto& r) {
      std::copy(in.a.begin() + r.begin(), in.a.begin() + r.end(), a_.begin() + r.begin());
      std::copy(in.b.begin() + r.begin(), in.b.begin() + r.end(), b_.begin() + r.begin());
      std::copy(in.c.begin() + r.begin(), in.c.begin() + r.end(), c_.begin() + r.begin());
    });
  }

  /* reclaim: where the bases lie in the key's mapping, which gets each section back once its MSM is done */
  template <class G1, class G2>
  basic_msm_sums<C> run(const basic_engine_input<C>& in, prove_timings& tm, const bases<G1, G2>& pk,
                        const mapped_bases* reclaim = nullptr) {
    auto done = [&](auto section) {
      if (reclaim) reclaim->reclaim({reinterpret_cast<const std::uint8_t*>(section.data()), section.size_bytes()});
    };
    const basic_h_plan<C>& plan = in.plan;
    basic_msm_sums<C> out;

    /* a_ <- (a·b − c) on ζH, or the coefficients of (a·b − c)/Z (poly/quotient.hpp) */
    const auto t0 = clock::now();
    std::span<fr> a(a_), b(b_), c(c_);
    if (in.abc_consumed) {  // the caller's own buffers, given up to the proof
      a = {const_cast<fr*>(in.a.data()), in.a.size()};
      b = {const_cast<fr*>(in.b.data()), in.b.size()};
      c = {const_cast<fr*>(in.c.data()), in.c.size()};
    } else {
      copy_in(in);
      a = a_, b = b_, c = c_;
    }
    poly::compute_h(poly::basic_domain<C>::cached(plan.log_n, plan.family), a, b, c, plan.convention);
    out.h_top = plan.convention == poly::h_convention::coefficients ? a.back() : fr::zero();
    if (in.abc_consumed) {  // b and c are spent: their pages go back before the MSMs touch the key's
      util::release_pages(b.data(), b.size_bytes());
      util::release_pages(c.data(), c.size_bytes());
    }
    const std::span<const fr> h = std::span<const fr>(a).first(plan.h_len);
    tm.ntt = since(t0);
    phase_boundary(in.stop);

    clock::time_point at_a, at_b1, at_l, at_b2, at_h;  // each MSM's start, for its span
    auto g1 = [&](std::span<const G1> bases, const split_view& v, double& secs, clock::time_point& at) {
      phase_boundary(in.stop);
      const auto t = at = clock::now();
      auto sum = msm_of(bases, v);
      secs = since(t);
      return sum;
    };
    const auto t1 = clock::now();
    tbb::parallel_invoke(
        [&] {
          const auto t = at_b2 = clock::now();
          const split_view& v = in.z_split;
          out.b2 = msm_of(pk.b2, v);
          tm.msm_b_g2 = since(t);
          done(pk.b2);
        },
        [&] {
          out.a = g1(pk.a, in.z_split, tm.msm_a, at_a);
          done(pk.a);
          out.b1 = g1(pk.b1, in.z_split, tm.msm_b_g1, at_b1);
          done(pk.b1);
          out.c = g1(pk.c, in.c_split, tm.msm_l, at_l);
          done(pk.c);
          phase_boundary(in.stop);
          const auto t = at_h = clock::now();
          if constexpr (std::is_same_v<G1, ec::g1_affine<C>>)
            out.h = msm::g1_msm<C>::msm(pk.h, h, {.split = false});
          else
            out.h = msm::g1_msm<C>::msm_packed(pk.h, h, {.split = false});
          tm.msm_h = since(t);
          done(pk.h);
        });
    tm.msm = since(t1);
    /* the spans, from this thread (parallel_invoke's branches only timed) */
    auto put = [&](phase p, clock::time_point at, double secs) {
      const double s = std::chrono::duration<double>(at - tm.origin).count();
      tm.add_span(p, s, s + secs, p);
    };
    put(phase::ntt, t0, tm.ntt);
    put(phase::msm_a, at_a, tm.msm_a);
    put(phase::msm_b_g1, at_b1, tm.msm_b_g1);
    put(phase::msm_l, at_l, tm.msm_l);
    put(phase::msm_b_g2, at_b2, tm.msm_b_g2);
    put(phase::msm_h, at_h, tm.msm_h);
    return out;
  }

  int threads_;
  std::vector<fr> a_, b_, c_;
};

}  // namespace

template <class C>
std::unique_ptr<basic_engine<C>> make_cpu_engine(int threads) {
  return std::make_unique<cpu_engine<C>>(threads);
}

#define CUZK_CPU_ENGINE(C) template std::unique_ptr<basic_engine<C>> make_cpu_engine(int);
CUZK_CURVES(CUZK_CPU_ENGINE)

}  // namespace cuzk::groth16
