// The final exponentiation f -> f^(3 (p^12 - 1) / r), split as
//   (p^12 - 1) / r = (p^6 - 1) (p^2 + 1) (p^4 - p^2 + 1) / r.
#include "ec/constants.hpp"
#include "ff/fp12_cyclotomic.hpp"
#include "pairing/pairing.hpp"

namespace cuzk::pairing {

namespace {
using ff::fp12_t;

/* a^x for a in the cyclotomic subgroup: x < 0, and a^-1 = conj(a) there */
fp12_t exp_by_x(const fp12_t& a) { return ff::cyclotomic_exp(a, ec::consts::x_abs).conjugate(); }
}  // namespace

fp12_t final_exponentiation(const fp12_t& f) {
  /* easy part: m = f^((p^6 - 1)(p^2 + 1)); m lies in G_phi6(p^2) */
  fp12_t m = f.conjugate() * f.inverse();  // f^(p^6 - 1)
  m = m.frobenius_map(2) * m;             // ^(p^2 + 1)

  /* hard part, Hayashida-Hayasaka-Teruya (eprint 2020/875), BLS12:
       3 (p^4 - p^2 + 1) / r = (x - 1)^2 (x + p) (x^2 + p^2 - 1) + 3
     (checked in scripts/gen-tower-constants.py) */
  fp12_t a = exp_by_x(m) * m.conjugate();                    // m^(x - 1)
  a = exp_by_x(a) * a.conjugate();                           // m^((x - 1)^2)
  a = exp_by_x(a) * a.frobenius_map(1);                      // ^(x + p)
  a = exp_by_x(exp_by_x(a)) * a.frobenius_map(2) * a.conjugate();  // ^(x^2 + p^2 - 1)
  return a * ff::cyclotomic_sqr(m) * m;                      // * m^3
}

}  // namespace cuzk::pairing
