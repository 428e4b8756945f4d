#include "groth16/prover.hpp"

#include <chrono>
#include <random>
#include <stdexcept>
#include <string>

#include "ec/scalar_mul.hpp"
#include "msm/split.hpp"

namespace cuzk::groth16 {

namespace {

using clock = std::chrono::steady_clock;
double since(clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); }

void check_sizes(const proving_key& pk, std::span<const fr_t> z, std::size_t a, std::size_t b, std::size_t c) {
  if (z.size() != pk.n_vars)
    throw std::invalid_argument("prove: witness has " + std::to_string(z.size()) + " values, the key expects " +
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

blinding blinding::random() {
  std::random_device rd;
  std::seed_seq seq{rd(), rd(), rd(), rd(), rd(), rd(), rd(), rd()};
  std::mt19937_64 rng(seq);
  return {fr_t::random(rng), fr_t::random(rng)};
}

std::optional<blinding> blinding::parse(std::string_view text) {
  const auto comma = text.find(',');
  if (comma == std::string_view::npos) return std::nullopt;
  auto r = fr_t::from_decimal(text.substr(0, comma));
  auto s = fr_t::from_decimal(text.substr(comma + 1));
  if (!r || !s) return std::nullopt;
  return blinding{*r, *s};
}

proof prove(engine& e, const proving_key& pk, std::span<const fr_t> z, std::span<const fr_t> a,
            std::span<const fr_t> b, std::span<const fr_t> c, const std::optional<blinding>& rs, prove_timings* t) {
  check_sizes(pk, z, a.size(), b.size(), c.size());
  const auto t0 = clock::now();
  prove_timings tm;
  const h_plan plan = h_plan::for_key(pk);
  if (plan.h_len != pk.h_count()) throw std::invalid_argument("prove: H query size does not match the domain");

  /* z's zeros, ones and the rest, once for A, B_G1, B_G2 and C */
  const auto ts = clock::now();
  const msm::scalar_split split = e.splits_on_device() ? msm::scalar_split{} : msm::split_scalars(z);
  tm.split = since(ts);

  const prove_input in{pk, z, a, b, c, plan, split_view::of(split), split_view::of(split, pk.n_public + 1)};
  const msm_sums s = e.compute(in, tm);
  if (!s.h_top.is_zero())
    throw std::invalid_argument("prove: the witness does not satisfy the constraints (Z does not divide AB − C)");

  const auto tb = clock::now();
  const blinding bl = rs ? *rs : blinding::random();
  const auto delta1 = ec::g1_jacobian_t::from_affine(pk.delta1);
  ec::g1_jacobian_t pa = s.a + pk.alpha1 + ec::mul(delta1, bl.r);                                      /* π_A */
  ec::g2_jacobian_t pb = s.b2 + pk.beta2 + ec::mul(pk.delta2, bl.s);                                  /* π_B */
  ec::g1_jacobian_t b1 = s.b1 + pk.beta1 + ec::mul(delta1, bl.s);                                     /* B in G1 */
  ec::g1_jacobian_t pc = s.c + s.h + ec::mul(pa, bl.s) + ec::mul(b1, bl.r) - ec::mul(delta1, bl.r * bl.s);  /* π_C */
  const proof p{pa.to_affine(), pb.to_affine(), pc.to_affine()};
  tm.assemble = since(tb);

  tm.total = since(t0);
  if (t) *t = tm;
  return p;
}

proof prove(const proving_key& pk, std::span<const fr_t> z, std::span<const fr_t> a, std::span<const fr_t> b,
            std::span<const fr_t> c, const std::optional<blinding>& rs, prove_timings* t) {
  const auto e = make_cpu_engine();
  return prove(*e, pk, z, a, b, c, rs, t);
}

}  // namespace cuzk::groth16
