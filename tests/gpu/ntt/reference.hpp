// What the device NTTs must reproduce, from common/poly: the four transforms
// in natural order, bit-reversal, and poly::compute_h's output as canonical
// scalars in the order cuda::ntt::compute_h writes them, over the Fr of a
// curve C.
#pragma once

#include <cstdint>
#include <random>
#include <vector>

#include "curves_under_test.hpp"
#include "ec/config.hpp"
#include "ff/fr.hpp"
#include "poly/domain.hpp"
#include "poly/ntt.hpp"
#include "poly/quotient.hpp"

namespace cuzk::cuda::ntt::test {

enum class kind { forward, inverse, coset_forward, coset_inverse };
inline const char* name(kind k) {
  switch (k) {
    case kind::forward:
      return "forward";
    case kind::inverse:
      return "inverse";
    case kind::coset_forward:
      return "coset_forward";
    case kind::coset_inverse:
      return "coset_inverse";
  }
  return "?";
}

template <class C>
std::vector<ff::fr<C>> random_vector(std::mt19937_64& g, std::size_t n) {
  std::vector<ff::fr<C>> v(n);
  for (auto& x : v) x = ff::fr<C>::random(g);
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
template <class C>
ff::fr<C> coset_shift(std::mt19937_64& g) {
  return ff::fr<C>::random(g);
}

template <class C>
std::vector<ff::fr<C>> expected(kind k, const poly::basic_domain<C>& d, std::vector<ff::fr<C>> a, const ff::fr<C>& g) {
  switch (k) {
    case kind::forward:
      poly::ntt(d, std::span(a));
      break;
    case kind::inverse:
      poly::intt(d, std::span(a));
      break;
    case kind::coset_forward:
      poly::coset_ntt(d, std::span(a), g);
      break;
    case kind::coset_inverse:
      poly::coset_intt(d, std::span(a), g);
      break;
  }
  return a;
}

/* poly::compute_h's result as the scalars the device writes: canonical limbs;
   coefficients in bit-reversed order */
template <class C>
std::vector<ec::scalar_limbs_t> expected_h(const poly::basic_domain<C>& d, std::vector<ff::fr<C>> a,
                                           std::vector<ff::fr<C>> b, std::vector<ff::fr<C>> c,
                                           poly::h_convention conv) {
  poly::compute_h(d, std::span(a), std::span(b), std::span(c), conv);
  if (conv == poly::h_convention::coefficients) a = bit_reversed(a, d.log_size());
  std::vector<ec::scalar_limbs_t> out(a.size());
  for (std::size_t i = 0; i < a.size(); ++i) out[i] = a[i].to_canonical();
  return out;
}

/* the shift and Z^-1 of poly::compute_h */
template <class C>
ff::fr<C> h_shift(const poly::basic_domain<C>& d, poly::h_convention conv) {
  return conv == poly::h_convention::coefficients ? poly::basic_domain<C>::coset_generator() : d.odd_coset_shift();
}
template <class C>
ff::fr<C> h_z_inv(const poly::basic_domain<C>& d, poly::h_convention conv) {
  return d.vanishing_on_coset(h_shift(d, conv)).inverse();
}

}  // namespace cuzk::cuda::ntt::test
