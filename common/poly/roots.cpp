#include "poly/roots.hpp"

#include <stdexcept>
#include <string>

namespace cuzk::poly {
namespace {

/* t = (r - 1) >> s, the odd part of r - 1 */
template <class C>
constexpr typename C::fr_params::limbs_t odd_part() {
  auto t = C::fr_params::modulus;
  t[0] -= 1;  // r is odd, no borrow
  constexpr unsigned s = C::fr_params::two_adicity;
  static_assert(s > 0 && s < 64);
  for (std::size_t i = 0; i < t.size(); ++i) t[i] = (t[i] >> s) | (i + 1 < t.size() ? t[i + 1] << (64 - s) : 0);
  return t;
}

/* ffjavascript's nqr: the first of 2, 3, 4, ... with Legendre symbol -1 */
template <class C>
std::uint64_t smallest_non_residue() {
  std::uint64_t x = 2;
  while (ff::fr<C>::from_u64(x).legendre() != -1) ++x;
  return x;
}

}  // namespace

template <class C>
ff::fr<C> root_base(root_family f) {
  using F = ff::fr<C>;
  if (f == root_family::bellman) return F::from_montgomery(C::fr_params::generator);
  static const std::uint64_t nqr = smallest_non_residue<C>();
  return F::from_u64(nqr);
}

template <class C>
ff::fr<C> two_adic_root(root_family f) {
  using F = ff::fr<C>;
  if (f == root_family::bellman) return F::from_montgomery(C::fr_params::root_of_unity);
  static const F snarkjs = root_base<C>(root_family::snarkjs).pow(odd_part<C>());
  return snarkjs;
}

template <class C>
ff::fr<C> primitive_root(unsigned log_order, root_family f) {
  constexpr unsigned s = max_log_size_of<C>;
  if (log_order > s)
    throw std::invalid_argument("Fr of " + std::string(curves::name(C::id)) + " has no root of unity of order 2^" +
                                std::to_string(log_order) + " (its two-adicity is " + std::to_string(s) + ")");
  ff::fr<C> w = two_adic_root<C>(f);
  for (unsigned i = log_order; i < s; ++i) w = w.sqr();  // w^(2^(s-k))
  return w;
}

#define CUZK_POLY_ROOTS(C)                          \
  template ff::fr<C> root_base<C>(root_family);     \
  template ff::fr<C> two_adic_root<C>(root_family); \
  template ff::fr<C> primitive_root<C>(unsigned, root_family);
CUZK_POLY_ROOTS(curves::bls12_381)
CUZK_POLY_ROOTS(curves::bn254)
#undef CUZK_POLY_ROOTS

}  // namespace cuzk::poly
