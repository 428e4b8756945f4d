#include "poly/roots.hpp"

#include <stdexcept>
#include <string>

namespace cuzk::poly {
namespace {

/* t = (r - 1) >> 32, the odd part of r - 1 */
constexpr ff::fr_params::limbs_t odd_part() {
  auto t = ff::fr_params::modulus;
  t[0] -= 1;  // r is odd, no borrow
  constexpr unsigned s = ff::fr_params::two_adicity;
  for (std::size_t i = 0; i < t.size(); ++i)
    t[i] = (t[i] >> s) | (i + 1 < t.size() ? t[i + 1] << (64 - s) : 0);
  return t;
}

}  // namespace

fr_t root_base(root_family f) { return fr_t::from_u64(f == root_family::bellman ? 7 : 5); }

fr_t two_adic_root(root_family f) {
  if (f == root_family::bellman) return fr_t::from_montgomery(ff::fr_params::root_of_unity);
  static const fr_t snarkjs = root_base(root_family::snarkjs).pow(odd_part());
  return snarkjs;
}

fr_t primitive_root(unsigned log_order, root_family f) {
  if (log_order > max_log_size) throw std::invalid_argument("Fr has no root of unity of order 2^" + std::to_string(log_order));
  fr_t w = two_adic_root(f);
  for (unsigned i = log_order; i < max_log_size; ++i) w = w.sqr();  // w^(2^(32-k))
  return w;
}

}  // namespace cuzk::poly
