#include "groth16/prover.hpp"

#include <chrono>
#include <random>
#include <stdexcept>

#include <tbb/parallel_for.h>
#include <tbb/parallel_invoke.h>

#include "ec/scalar_mul.hpp"
#include "msm/msm.hpp"
#include "poly/domain.hpp"
#include "poly/quotient.hpp"

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

void fill_public_rows(std::uint64_t n_constraints, std::uint32_t n_public, std::span<const fr_t> z,
                      std::span<fr_t> a, std::span<fr_t> b, std::span<fr_t> c) {
  if (n_constraints + n_public + 1 > a.size())
    throw std::invalid_argument("prove: the domain has no room for the public-input rows");
  for (std::size_t i = n_constraints; i < a.size(); ++i) {
    std::size_t s = i - n_constraints;
    a[i] = s <= n_public ? z[s] : fr_t::zero();
    b[i] = fr_t::zero();
    c[i] = fr_t::zero();
  }
}

void evaluate_from_coefs(const proving_key& pk, std::span<const fr_t> z, std::span<fr_t> a, std::span<fr_t> b,
                         std::span<fr_t> c) {
  check_sizes(pk, z, a.size(), b.size(), c.size());
  std::fill(a.begin(), a.end(), fr_t::zero());
  std::fill(b.begin(), b.end(), fr_t::zero());
  for (const auto& k : pk.coefs) {
    if (k.constraint >= pk.domain_size || k.signal >= pk.n_vars || k.matrix > 1)
      throw std::invalid_argument("prove: key coefficient out of range");
    (k.matrix == 0 ? a : b)[k.constraint] += k.value * z[k.signal];
  }
  tbb::parallel_for(std::size_t{0}, c.size(), [&](std::size_t i) { c[i] = a[i] * b[i]; });
}

proof prove(const proving_key& pk, std::span<const fr_t> z, std::span<fr_t> a, std::span<fr_t> b,
            std::span<fr_t> c, const std::optional<blinding>& rs, prove_timings* timings) {
  check_sizes(pk, z, a.size(), b.size(), c.size());
  const auto t0 = clock::now();
  prove_timings tm;

  /* H: a <- (a·b − c) on the odd coset, or the coefficients of (a·b − c)/Z */
  const poly::domain& d = poly::domain::cached(pk.log_domain(), poly::root_family::snarkjs);
  poly::compute_h(d, a, b, c,
                  pk.h == h_form::odd_coset ? poly::h_convention::odd_coset : poly::h_convention::coefficients);
  std::span<const fr_t> h = a;
  if (pk.h == h_form::coefficient) {
    if (!a[pk.domain_size - 1].is_zero())
      throw std::invalid_argument("prove: the witness does not satisfy the constraints (Z does not divide AB − C)");
    h = h.first(pk.domain_size - 1);
  }
  if (h.size() != pk.h_query.size()) throw std::invalid_argument("prove: H query size does not match the domain");
  tm.h = since(t0);

  const std::size_t priv = pk.n_public + 1;
  ec::g1_jacobian_t A, B1, C, H;
  ec::g2_jacobian_t B2;
  const auto t1 = clock::now();
  tbb::parallel_invoke(
      [&] { B2 = msm::msm_g2(pk.b2, z); },
      [&] {
        const auto tg1 = clock::now();
        A = msm::msm_g1(pk.a, z);
        B1 = msm::msm_g1(pk.b1, z);
        C = msm::msm_g1(pk.c, z.subspan(priv));
        H = msm::msm_g1(pk.h_query, h);
        tm.msm_g1 = since(tg1);
      });
  tm.msm_g2 = since(t1);

  const blinding bl = rs ? *rs : blinding::random();
  const auto delta1 = ec::g1_jacobian_t::from_affine(pk.delta1);
  ec::g1_jacobian_t pa = A + pk.alpha1 + ec::mul(delta1, bl.r);                              /* π_A */
  ec::g2_jacobian_t pb = B2 + pk.beta2 + ec::mul(pk.delta2, bl.s);                          /* π_B */
  ec::g1_jacobian_t b1 = B1 + pk.beta1 + ec::mul(delta1, bl.s);                             /* B in G1 */
  ec::g1_jacobian_t pc = C + H + ec::mul(pa, bl.s) + ec::mul(b1, bl.r) - ec::mul(delta1, bl.r * bl.s);  /* π_C */

  tm.total = since(t0);
  if (timings) *timings = tm;
  return {pa.to_affine(), pb.to_affine(), pc.to_affine()};
}

}  // namespace cuzk::groth16
