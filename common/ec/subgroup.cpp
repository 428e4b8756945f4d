#include "ec/subgroup.hpp"

#include "ec/endomorphism.hpp"
#include "ec/scalar_mul.hpp"

namespace cuzk::ec {

namespace {
template <class F>
bool on_curve(const affine_point<F>& p, const F& b) {
  return p.infinity || p.y.sqr() == p.x.sqr() * p.x + b;  /* y^2 = x^3 + b */
}
/* Out of line: inlining both chains of in_subgroup into one body measured
   about 15% slower. */
[[gnu::noinline]] g1_jacobian_t times_x_abs(const g1_jacobian_t& p) { return mul_by_x_abs(p); }
}  // namespace

bool is_on_curve(const g1_affine_t& p) { return on_curve(p, g1_curve::b()); }
bool is_on_curve(const g2_affine_t& p) { return on_curve(p, g2_curve::b()); }

bool in_subgroup(const g1_jacobian_t& p) {
  g1_jacobian_t xx = times_x_abs(times_x_abs(p));    /* [x^2]P */
  return phi(p) == -xx;                               /* phi(P) = -[x^2]P */
}

bool in_subgroup(const g2_jacobian_t& p) {
  return psi(p) == mul_by_x(p);                       /* psi(P) = [x]P */
}

bool in_subgroup_by_order(const g1_jacobian_t& p) { return mul_any(p, ff::fr_params::modulus).is_identity(); }
bool in_subgroup_by_order(const g2_jacobian_t& p) { return mul_any(p, ff::fr_params::modulus).is_identity(); }

g1_jacobian_t clear_cofactor(const g1_jacobian_t& p) {
  return p + mul_by_x_abs(p);                         /* [1 - x]P = P + [|x|]P */
}

/* RFC 9380 App. G.3, clear_cofactor_bls12381_g2, with c1 = x */
g2_jacobian_t clear_cofactor(const g2_jacobian_t& p) {
  g2_jacobian_t t1 = mul_by_x(p);                     /* t1 = [x]P */
  g2_jacobian_t t2 = psi(p);                          /* t2 = psi(P) */
  g2_jacobian_t t3 = psi(psi(p.dbl()));               /* t3 = psi^2(2P) */
  t3 -= t2;                                           /* t3 = psi^2(2P) - psi(P) */
  t2 = mul_by_x(t1 + t2);                             /* t2 = [x]([x]P + psi(P)) */
  t3 += t2;                                           /* t3 += [x^2]P + [x]psi(P) */
  t3 -= t1;                                           /* t3 -= [x]P */
  return t3 - p;                                      /* Q = t3 - P */
}

}  // namespace cuzk::ec
