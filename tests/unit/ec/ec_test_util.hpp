// Random scalars and points for the ec tests, and the typed-test traits that
// let one test body run over G1 and G2.
#pragma once

#include <cstdint>
#include <random>
#include <string>
#include <vector>

#include "ec/config.hpp"
#include "ec/scalar_mul.hpp"
#include "ec/subgroup.hpp"

namespace cuzk::ec::test {

/* uniform below r, by rejection on 255 bits */
inline scalar_limbs_t random_scalar(std::mt19937_64& g) {
  for (;;) {
    scalar_limbs_t k{g(), g(), g(), g() >> 1};
    if (ff::limbs::less(k, ff::fr_params::modulus)) return k;
  }
}
inline fr_t random_fr(std::mt19937_64& g) { return *fr_t::from_canonical(random_scalar(g)); }

inline fp_t random_fp(std::mt19937_64& g) {
  for (;;) {
    ff::fp_params::limbs_t c{g(), g(), g(), g(), g(), g() >> 3};
    if (auto v = fp_t::from_canonical(c)) return *v;
  }
}
inline fp2_t random_field(std::mt19937_64& g, fp2_t*) { return {random_fp(g), random_fp(g)}; }
inline fp_t random_field(std::mt19937_64& g, fp_t*) { return random_fp(g); }

template <class Curve>
struct group {
  using curve_t = Curve;
  using jac_t = jacobian<Curve>;
  using aff_t = typename jac_t::affine_t;
  using field_t = typename Curve::field_t;

  static jac_t random_point(std::mt19937_64& g) { return mul(jac_t::generator(), random_scalar(g)); }

  /* A point of the whole curve E(F): almost surely outside the order-r
     subgroup, since the cofactor is not multiplied in. */
  static aff_t random_curve_point(std::mt19937_64& g) {
    for (;;) {
      field_t x = random_field(g, (field_t*)nullptr);
      if (auto y = (x.sqr() * x + Curve::b()).sqrt()) return {x, (g() & 1) ? *y : -*y, false};
    }
  }
};
using g1 = group<g1_curve>;
using g2 = group<g2_curve>;

inline std::string to_hex(const std::uint8_t* p, std::size_t n) {
  static const char* digits = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) {
    s.push_back(digits[p[i] >> 4]);
    s.push_back(digits[p[i] & 15]);
  }
  return s;
}
template <class Bytes>
std::string to_hex(const Bytes& b) {
  return to_hex(b.data(), b.size());
}
inline std::vector<std::uint8_t> from_hex(const std::string& s) {
  std::vector<std::uint8_t> out(s.size() / 2);
  for (std::size_t i = 0; i < out.size(); ++i) out[i] = (std::uint8_t)std::stoul(s.substr(2 * i, 2), nullptr, 16);
  return out;
}

}  // namespace cuzk::ec::test
