#include "groth16/setup.hpp"

#include <random>
#include <stdexcept>

#include <tbb/parallel_for.h>

#include "curves/dispatch.hpp"
#include "ec/batch_affine.hpp"
#include "ec/scalar_mul.hpp"
#include "poly/domain.hpp"

namespace cuzk::groth16 {

namespace {

template <class F, class Rng>
F uniform_nonzero(Rng& rng) {
  for (;;)
    if (F v = F::random(rng); !v.is_zero()) return v;
}

template <class C, class Rng>
basic_toxic_waste<C> draw(Rng& rng) {
  basic_toxic_waste<C> t;
  for (ff::fr<C>* f : {&t.tau, &t.alpha, &t.beta, &t.gamma, &t.delta}) *f = uniform_nonzero<ff::fr<C>>(rng);
  return t;
}

/* ω^j for j < n, in parallel chunks */
template <class F>
std::vector<F> powers(const F& w, std::size_t n) {
  std::vector<F> out(n);
  constexpr std::size_t chunk = 4096;
  tbb::parallel_for(std::size_t{0}, (n + chunk - 1) / chunk, [&](std::size_t c) {
    std::size_t lo = c * chunk, hi = std::min(n, lo + chunk);
    F p = w.pow(std::uint64_t(lo));
    for (std::size_t j = lo; j < hi; ++j, p *= w) out[j] = p;
  });
  return out;
}

template <class C>
void accumulate(const r1cs::basic_sparse_rows<C>& rows, std::span<const ff::fr<C>> lagrange,
                std::vector<ff::fr<C>>& out) {
  for (std::uint64_t i = 0; i < rows.rows(); ++i)
    for (const auto& t : rows.row(i)) out[t.wire] += t.coeff * lagrange[i];
}

}  // namespace

template <class F>
std::vector<F> lagrange_at(const F& tau, const F& g, const F& w, std::uint64_t m, std::uint64_t first,
                           std::size_t count) {
  std::vector<F> x = powers(w, count);
  const F gw = g * w.pow(first);
  std::vector<F> den(count);
  tbb::parallel_for(std::size_t{0}, count, [&](std::size_t j) {
    x[j] *= gw;
    den[j] = tau - x[j];
    if (den[j].is_zero()) throw std::runtime_error("setup: tau is a root of unity; draw again");
  });
  ec::batch_inverse<F>(den);
  F scale = (tau.pow(m) - F::one()) * F::from_u64(m).inverse(); /* (τ^m − 1) / m */
  tbb::parallel_for(std::size_t{0}, count, [&](std::size_t j) { den[j] *= x[j] * scale; });
  return den;
}

template <class C>
std::vector<ff::fr<C>> h_query_scalars(const basic_toxic_waste<C>& t, h_form h, std::uint32_t log_n) {
  using fr_t = ff::fr<C>;
  const auto& d = poly::basic_domain<C>::cached(log_n, poly::root_family::snarkjs);
  const std::uint64_t n = 1ull << log_n;
  const fr_t delta_inv = t.delta.inverse();
  std::vector<fr_t> h_s;
  if (h == h_form::odd_coset) {
    /* H_j = L^{2n}_{2j+1}(τ) / δ over the 2n-th roots: points ζ ω^j, ζ = ω_2n */
    h_s = lagrange_at(t.tau, d.odd_coset_shift(), d.omega(), 2 * n, 0, n);
    tbb::parallel_for(std::size_t{0}, h_s.size(), [&](std::size_t j) { h_s[j] *= delta_inv; });
  } else {
    /* H_i = τ^i Z(τ) / δ, i < n − 1, Z(τ) = τ^n − 1 */
    h_s = powers(t.tau, n - 1);
    fr_t z = (t.tau.pow(n) - fr_t::one()) * delta_inv;
    tbb::parallel_for(std::size_t{0}, h_s.size(), [&](std::size_t j) { h_s[j] *= z; });
  }
  return h_s;
}

template <class C>
basic_toxic_waste<C> basic_toxic_waste<C>::from_seed(std::string_view seed) {
  std::seed_seq seq(seed.begin(), seed.end());
  std::mt19937_64 rng(seq);
  return draw<C>(rng);
}

template <class C>
basic_toxic_waste<C> basic_toxic_waste<C>::random() {
  std::random_device rd;
  std::seed_seq seq{rd(), rd(), rd(), rd(), rd(), rd(), rd(), rd()};
  std::mt19937_64 rng(seq);
  return draw<C>(rng);
}

std::uint32_t domain_size_for(std::uint64_t n_constraints, std::uint32_t n_public) {
  std::uint64_t rows = n_constraints + n_public + 1, n = 2;
  while (n < rows) n <<= 1;
  if (n > (1ull << 28)) throw std::runtime_error("setup: circuit needs a domain above 2^28");
  return (std::uint32_t)n;
}

template <class C>
void set_fixed_points(const basic_toxic_waste<C>& t, basic_fixed_base_engine<C>& e, basic_proving_key<C>& pk) {
  const ff::fr<C> s1[] = {t.alpha, t.beta, t.delta}, s2[] = {t.beta, t.gamma, t.delta};
  std::vector<ec::g1_affine<C>> p1(3);
  std::vector<ec::g2_affine<C>> p2(3);
  e.mul_many_g1(ec::g1_group<C>::generator(), s1, p1);
  e.mul_many_g2(ec::g2_group<C>::generator(), s2, p2);
  pk.alpha1 = p1[0];
  pk.beta1 = p1[1];
  pk.delta1 = p1[2];
  pk.beta2 = p2[0];
  pk.gamma2 = p2[1];
  pk.delta2 = p2[2];
}

template <class C>
basic_proving_key<C> setup(const r1cs::basic_matrices<C>& m, const std::type_identity_t<basic_toxic_waste<C>>& t,
                           h_form h, const progress_fn& progress,
                           std::type_identity_t<basic_fixed_base_engine<C>>* fb) {
  using fr_t = ff::fr<C>;
  auto step = [&](std::string_view what, std::uint64_t done, std::uint64_t total) {
    if (progress) progress(what, done, total);
  };
  const std::uint64_t nc = m.n_constraints();
  basic_proving_key<C> pk;
  pk.n_vars = m.n_wires;
  pk.n_public = m.n_public;
  pk.domain_size = domain_size_for(nc, m.n_public);
  pk.h = h;
  const std::uint32_t n = pk.domain_size;
  const auto& d = poly::basic_domain<C>::cached(pk.log_domain(), poly::root_family::snarkjs);

  step("lagrange basis at tau", 0, 1);
  std::vector<fr_t> lag = lagrange_at(t.tau, fr_t::one(), d.omega(), n, 0, n);

  /* u_i(τ) = Σ_rows A[row][i] L_row(τ), and v, w; rows n_c + s carry A[s] = 1 */
  std::vector<fr_t> u(m.n_wires), v(m.n_wires), w(m.n_wires);
  accumulate<C>(m.a, lag, u);
  accumulate<C>(m.b, lag, v);
  accumulate<C>(m.c, lag, w);
  for (std::uint32_t s = 0; s <= m.n_public; ++s) u[s] += lag[nc + s];

  pk.coefs.reserve(m.a.n_terms() + m.b.n_terms() + m.n_public + 1);
  for (std::uint64_t i = 0; i < nc; ++i) {
    for (const auto& term : m.a.row(i)) pk.coefs.push_back({0, (std::uint32_t)i, term.wire, term.coeff});
    for (const auto& term : m.b.row(i)) pk.coefs.push_back({1, (std::uint32_t)i, term.wire, term.coeff});
  }
  for (std::uint32_t s = 0; s <= m.n_public; ++s) pk.coefs.push_back({0, (std::uint32_t)(nc + s), s, fr_t::one()});

  /* (β u_i + α v_i + w_i) / γ for public i, / δ for the rest */
  const fr_t gamma_inv = t.gamma.inverse(), delta_inv = t.delta.inverse();
  std::vector<fr_t> ic_s(m.n_public + 1), c_s(m.n_wires - m.n_public - 1);
  tbb::parallel_for(std::uint32_t{0}, m.n_wires, [&](std::uint32_t i) {
    fr_t k = t.beta * u[i] + t.alpha * v[i] + w[i];
    if (i <= m.n_public)
      ic_s[i] = k * gamma_inv;
    else
      c_s[i - m.n_public - 1] = k * delta_inv;
  });

  const std::vector<fr_t> h_s = h_query_scalars(t, h, pk.log_domain());

  basic_cpu_fixed_base_engine<C> cpu;
  basic_fixed_base_engine<C>& e = fb ? *fb : cpu;
  const auto& g1 = ec::g1_group<C>::generator();
  const auto& g2 = ec::g2_group<C>::generator();
  auto many1 = [&](std::span<const fr_t> k) {
    std::vector<ec::g1_affine<C>> out(k.size());
    e.mul_many_g1(g1, k, out);
    return out;
  };
  auto many2 = [&](std::span<const fr_t> k) {
    std::vector<ec::g2_affine<C>> out(k.size());
    e.mul_many_g2(g2, k, out);
    return out;
  };
  step("alpha, beta, gamma, delta", 0, 1);
  set_fixed_points(t, e, pk);

  step("A query (G1)", 0, 5);
  pk.a = many1(u);
  step("B query (G1)", 1, 5);
  pk.b1 = many1(v);
  step("B query (G2)", 2, 5);
  pk.b2 = many2(v);
  step("IC and C queries (G1)", 3, 5);
  pk.ic = many1(ic_s);
  pk.c = many1(c_s);
  step("H query (G1)", 4, 5);
  pk.h_query = many1(h_s);
  step("done", 5, 5);
  return pk;
}

#define CUZK_GROTH16_SETUP(C)                                                                                      \
  template struct basic_toxic_waste<C>;                                                                            \
  template std::vector<ff::fr<C>> lagrange_at(const ff::fr<C>&, const ff::fr<C>&, const ff::fr<C>&, std::uint64_t, \
                                              std::uint64_t, std::size_t);                                         \
  template std::vector<ff::fr<C>> h_query_scalars(const basic_toxic_waste<C>&, h_form, std::uint32_t);             \
  template void set_fixed_points(const basic_toxic_waste<C>&, basic_fixed_base_engine<C>&, basic_proving_key<C>&); \
  template basic_proving_key<C> setup(const r1cs::basic_matrices<C>&, const basic_toxic_waste<C>&, h_form,         \
                                      const progress_fn&, basic_fixed_base_engine<C>*);
CUZK_CURVES(CUZK_GROTH16_SETUP)

}  // namespace cuzk::groth16
