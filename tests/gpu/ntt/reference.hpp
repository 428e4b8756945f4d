// What the device NTTs must reproduce, from common/poly: the four transforms
// in natural order, bit-reversal, and poly::compute_h's output as canonical
// scalars in the order cuda::ntt::compute_h writes them.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "ec/config.hpp"
#include "ff/fr.hpp"
#include "poly/domain.hpp"
#include "poly/ntt.hpp"
#include "poly/quotient.hpp"

namespace cuzk::cuda::ntt::test {

using ff::fr_t;

enum class kind { forward, inverse, coset_forward, coset_inverse };
inline const char* name(kind k) {
  switch (k) {
    case kind::forward: return "forward";
    case kind::inverse: return "inverse";
    case kind::coset_forward: return "coset_forward";
    case kind::coset_inverse: return "coset_inverse";
  }
  return "?";
}

inline std::vector<fr_t> random_vector(std::mt19937_64& g, std::size_t n) {
  std::vector<fr_t> v(n);
  for (auto& x : v) x = fr_t::random(g);
  return v;
}

inline std::size_t reverse_index(std::size_t i, unsigned log_n) {
  std::size_t r = 0;
  for (unsigned b = 0; b < log_n; ++b) r |= ((i >> b) & 1) << (log_n - 1 - b);
  return r;
}

template <class T>
std::vector<T> bit_reversed(const std::vector<T>& v, unsigned log_n) {
  std::vector<T> r(v.size());
  for (std::size_t i = 0; i < v.size(); ++i) r[reverse_index(i, log_n)] = v[i];
  return r;
}

/* a random coset shift for the coset transforms: not in H */
inline fr_t coset_shift(std::mt19937_64& g) { return fr_t::random(g); }

inline std::vector<fr_t> expected(kind k, const poly::domain& d, std::vector<fr_t> a, const fr_t& g) {
  switch (k) {
    case kind::forward: poly::ntt(d, a); break;
    case kind::inverse: poly::intt(d, a); break;
    case kind::coset_forward: poly::coset_ntt(d, a, g); break;
    case kind::coset_inverse: poly::coset_intt(d, a, g); break;
  }
  return a;
}

/* poly::compute_h's result as the scalars the device writes: canonical limbs;
   coefficients in bit-reversed order */
inline std::vector<ec::scalar_limbs_t> expected_h(const poly::domain& d, std::vector<fr_t> a, std::vector<fr_t> b,
                                                  std::vector<fr_t> c, poly::h_convention conv) {
  poly::compute_h(d, a, b, c, conv);
  if (conv == poly::h_convention::coefficients) a = bit_reversed(a, d.log_size());
  std::vector<ec::scalar_limbs_t> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = a[i].to_canonical();
  return out;
}

/* the shift and Z^-1 of poly::compute_h */
inline fr_t h_shift(const poly::domain& d, poly::h_convention conv) {
  return conv == poly::h_convention::coefficients ? poly::domain::coset_generator() : d.odd_coset_shift();
}
inline fr_t h_z_inv(const poly::domain& d, poly::h_convention conv) {
  return d.vanishing_on_coset(h_shift(d, conv)).inverse();
}

}  // namespace cuzk::cuda::ntt::test
