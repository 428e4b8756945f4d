#include "groth16/prover.hpp"

#include <chrono>
#include <random>
#include <stdexcept>
#include <string>

#include "curves/dispatch.hpp"
#include "ec/scalar_mul.hpp"
#include "msm/split.hpp"

namespace cuzk::groth16 {

namespace {

using clock = std::chrono::steady_clock;
double since(clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); }

template <class C>
void check_sizes(const basic_proving_key<C>& pk, std::size_t z, std::size_t a, std::size_t b, std::size_t c) {
  if (z != pk.n_vars)
    throw std::invalid_argument("prove: witness has " + std::to_string(z) + " values, the key expects " +
                                std::to_string(pk.n_vars));
  if (a != pk.domain_size || b != pk.domain_size || c != pk.domain_size)
    throw std::invalid_argument("prove: a, b, c must have domain_size = " + std::to_string(pk.domain_size) +
                                " entries");
  const std::size_t priv = std::size_t(pk.n_public) + 1;
  if (pk.a_count() != pk.n_vars || pk.b1_count() != pk.n_vars || pk.b2_count() != pk.n_vars || priv > pk.n_vars ||
      pk.c_count() != pk.n_vars - priv)
    throw std::invalid_argument("prove: the key's A, B or C query does not match its " + std::to_string(pk.n_vars) +
                                " variables");
}

}  // namespace

template <class C>
basic_blinding<C> basic_blinding<C>::random() {
  std::random_device rd;
  std::seed_seq seq{rd(), rd(), rd(), rd(), rd(), rd(), rd(), rd()};
  std::mt19937_64 rng(seq);
  return {ff::fr<C>::random(rng), ff::fr<C>::random(rng)};
}

template <class C>
std::optional<basic_blinding<C>> basic_blinding<C>::parse(std::string_view text) {
  const auto comma = text.find(',');
  if (comma == std::string_view::npos) return std::nullopt;
  auto r = ff::fr<C>::from_decimal(text.substr(0, comma));
  auto s = ff::fr<C>::from_decimal(text.substr(comma + 1));
  if (!r || !s) return std::nullopt;
  return basic_blinding{*r, *s};
}

template <class C>
basic_proof<C> prove(basic_engine<C>& e, const basic_prove_input<C>& in, prove_timings* t) {
  const auto& pk = in.pk;
  check_sizes(pk, in.z.size(), in.a.size(), in.b.size(), in.c.size());
  phase_boundary(in.stop);
  const auto t0 = clock::now();
  prove_timings tm;
  tm.origin = t0;
  tm.origin_unix_ns = static_cast<std::uint64_t>(
      std::chrono::duration_cast<std::chrono::nanoseconds>(std::chrono::system_clock::now().time_since_epoch())
          .count());
  const basic_h_plan<C> plan = basic_h_plan<C>::for_key(pk);
  if (plan.h_len != pk.h_count()) throw std::invalid_argument("prove: H query size does not match the domain");

  /* z's zeros, ones and the rest, once for A, B_G1, B_G2 and C */
  const auto ts = clock::now();
  const msm::scalar_split split = e.splits_on_device() ? msm::scalar_split{} : msm::split_scalars<C>(in.z);
  tm.split = since(ts);
  if (!e.splits_on_device()) tm.add_span(phase::split, ts, clock::now());

  const basic_engine_input<C> ein{in, plan, split_view::of(split), split_view::of(split, pk.n_public + 1)};
  const basic_msm_sums<C> s = e.compute(ein, tm);
  if (!s.h_top.is_zero())
    throw std::invalid_argument("prove: the witness does not satisfy the constraints (Z does not divide AB − C)");

  const auto tb = clock::now();
  const basic_blinding<C> bl = in.rs ? *in.rs : basic_blinding<C>::random();
  const auto delta1 = ec::g1_jacobian<C>::from_affine(pk.delta1);
  ec::g1_jacobian<C> pa = s.a + pk.alpha1 + ec::mul(delta1, bl.r);    /* π_A */
  ec::g2_jacobian<C> pb = s.b2 + pk.beta2 + ec::mul(pk.delta2, bl.s); /* π_B */
  ec::g1_jacobian<C> b1 = s.b1 + pk.beta1 + ec::mul(delta1, bl.s);    /* B in G1 */
  ec::g1_jacobian<C> pc = s.c + s.h + ec::mul(pa, bl.s) + ec::mul(b1, bl.r) - ec::mul(delta1, bl.r * bl.s); /* π_C */
  const basic_proof<C> p{pa.to_affine(), pb.to_affine(), pc.to_affine()};
  tm.assemble = since(tb);
  tm.add_span(phase::assemble, tb, clock::now());

  tm.total = since(t0);
  if (t) *t = tm;
  return p;
}

template <class C>
basic_proof<C> prove(const basic_proving_key<C>& pk, std::span<const ff::fr<C>> z, std::span<const ff::fr<C>> a,
                     std::span<const ff::fr<C>> b, std::span<const ff::fr<C>> c,
                     const std::type_identity_t<std::optional<basic_blinding<C>>>& rs, prove_timings* t) {
  const auto e = make_cpu_engine<C>();
  return prove(*e, pk, z, a, b, c, rs, t);
}

#define CUZK_GROTH16_PROVER(C)                                                                                       \
  template struct basic_blinding<C>;                                                                                 \
  template basic_proof<C> prove(basic_engine<C>&, const basic_prove_input<C>&, prove_timings*);                      \
  template basic_proof<C> prove(const basic_proving_key<C>&, std::span<const ff::fr<C>>, std::span<const ff::fr<C>>, \
                                std::span<const ff::fr<C>>, std::span<const ff::fr<C>>,                              \
                                const std::type_identity_t<std::optional<basic_blinding<C>>>&, prove_timings*);
CUZK_CURVES(CUZK_GROTH16_PROVER)

}  // namespace cuzk::groth16
