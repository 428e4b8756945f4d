// Fp2 = Fp[u]/(u^2 + 1) of a curve C on pairs of GMP integers: the
// schoolbook formulas, independent of the Karatsuba and norm tricks of fp2.hpp.
#pragma once

#include <string>

#include "ff/fp2.hpp"
#include "gmp_oracle.hpp"

namespace cuzk::test {

template <class C>
struct gmp_fp2 {
  using G = gmp_field<ff::fp<C>>;
  using element_t = ff::fp2<C>;
  mpz_class c0, c1;  // c0 + c1 u, both in [0, p)

  static gmp_fp2 of(const mpz_class& c0, const mpz_class& c1) { return {G::reduce(c0), G::reduce(c1)}; }
  static gmp_fp2 random(std::mt19937_64& g) { return {G::random(g), G::random(g)}; }
  static gmp_fp2 value(const element_t& x) { return {G::value(x.c0), G::value(x.c1)}; }
  element_t element() const { return {G::element(c0), G::element(c1)}; }

  friend gmp_fp2 operator+(const gmp_fp2& a, const gmp_fp2& b) { return of(a.c0 + b.c0, a.c1 + b.c1); }
  friend gmp_fp2 operator-(const gmp_fp2& a, const gmp_fp2& b) { return of(a.c0 - b.c0, a.c1 - b.c1); }
  /* (a0 + a1 u)(b0 + b1 u) = a0 b0 - a1 b1 + (a0 b1 + a1 b0) u */
  friend gmp_fp2 operator*(const gmp_fp2& a, const gmp_fp2& b) {
    return of(a.c0 * b.c0 - a.c1 * b.c1, a.c0 * b.c1 + a.c1 * b.c0);
  }
  friend bool operator==(const gmp_fp2& a, const gmp_fp2& b) { return a.c0 == b.c0 && a.c1 == b.c1; }
  bool is_zero() const { return c0 == 0 && c1 == 0; }
  /* xi = k + u, the non-residue of the curve's Fp6 (k = C::xi_c0: 1 on
     BLS12-381, 9 on BN254) */
  static gmp_fp2 xi() { return of(C::xi_c0, 1); }

  /* N = c0^2 + c1^2 */
  mpz_class norm() const { return G::reduce(c0 * c0 + c1 * c1); }
  /* x^-1 = (c0 - c1 u) / N */
  gmp_fp2 inverse() const {
    mpz_class n = norm(), ni;
    mpz_invert(ni.get_mpz_t(), n.get_mpz_t(), G::p().get_mpz_t());
    return of(c0 * ni, -c1 * ni);
  }
  gmp_fp2 pow(const mpz_class& e) const {
    gmp_fp2 r{1, 0};
    for (std::size_t i = mpz_sizeinbase(e.get_mpz_t(), 2); i-- > 0;) {
      r = r * r;
      if (mpz_tstbit(e.get_mpz_t(), i)) r = r * *this;
    }
    return r;
  }
  /* x is a square iff x = 0 or N(x) is a square in Fp */
  bool is_square() const {
    mpz_class n = norm();
    return is_zero() || mpz_legendre(n.get_mpz_t(), G::p().get_mpz_t()) == 1;
  }

  std::string str() const {
    std::string s = "(";  // appended piecewise: GCC 12 -Wrestrict misfires on chained operator+
    s += hex(c0);
    s += ", ";
    s += hex(c1);
    s += ")";
    return s;
  }

  ::testing::AssertionResult agrees(const element_t& got) const {
    auto r0 = G::agrees(got.c0, c0);
    if (!r0) return r0 << " in c0";
    auto r1 = G::agrees(got.c1, c1);
    if (!r1) return r1 << " in c1";
    return ::testing::AssertionSuccess();
  }
};

}  // namespace cuzk::test
