// Bucket sums in extended Jacobian ("XYZZ") coordinates:
//   x = X / ZZ, y = Y / ZZZ, with ZZ^3 = ZZZ^2; ZZ = 0 is the point at infinity.
// Cheaper than Jacobian for the additions bucket reduction makes (madd 8M + 2S,
// add 12M + 2S against 7M + 4S and 11M + 5S), which is why sppark's and
// gnark's MSMs keep their buckets in it. Formulas from the Explicit-Formulas
// Database, hyperelliptic.org/EFD/g1p/auto-shortw-xyzz.html (a = 0).
// Variable time.
#pragma once

#include <cstdint>

#include "ec/jacobian.hpp"
#include "msm/xyzz_formulas.hpp"

namespace cuzk::msm {

template <class Curve>
struct xyzz {
  using field_t = typename Curve::field_t;
  using affine_t = ec::affine_point<field_t>;

  field_t X{}, Y{}, ZZ{}, ZZZ{};

  static xyzz identity() { return {}; }
  bool is_identity() const { return ZZ.is_zero(); }

  /* (x, y) = (X ZZ / ZZ^2, Y ZZZ / ZZ^3), since ZZ^3 = ZZZ^2: Jacobian (X ZZ, Y ZZZ, ZZ) */
  ec::jacobian<Curve> to_jacobian() const {
    if (is_identity()) return {};
    return {X * ZZ, Y * ZZZ, ZZ};
  }

  /* mdbl-2008-s-1: 2 (x, y) for an affine point */
  static xyzz dbl_affine(const affine_t& p) {
    if (p.infinity || p.y.is_zero()) return {};
    const auto d = xyzz_double(p.x, p.y);
    return {d.X, d.Y, d.V, d.W}; /* ZZ3 = V, ZZZ3 = W */
  }

  /* dbl-2008-s-1: 6M + 3S */
  xyzz dbl() const {
    if (is_identity() || Y.is_zero()) return {};
    const auto d = xyzz_double(X, Y);
    return {d.X, d.Y, d.V * ZZ, d.W * ZZZ}; /* ZZ3 = V ZZ1, ZZZ3 = W ZZZ1 */
  }

  /* madd-2008-s: 8M + 2S */
  xyzz& operator+=(const affine_t& q) {
    if (q.infinity) return *this;
    if (is_identity()) return *this = {q.x, q.y, field_t::one(), field_t::one()};
    field_t U2 = q.x * ZZ;                                                 /* U2 = X2 ZZ1 */
    field_t S2 = q.y * ZZZ;                                                /* S2 = Y2 ZZZ1 */
    field_t P = U2 - X;                                                    /* P = U2 - X1 */
    field_t R = S2 - Y;                                                    /* R = S2 - Y1 */
    if (P.is_zero()) return *this = R.is_zero() ? dbl_affine(q) : xyzz{};  // Q = this, or Q = -this
    field_t PP = P.sqr();                                                  /* PP = P^2 */
    field_t PPP = P * PP;                                                  /* PPP = P PP */
    field_t Q = X * PP;                                                    /* Q = X1 PP */
    X = R.sqr() - PPP - Q.dbl();                                           /* X3 = R^2 - PPP - 2 Q */
    Y = R * (Q - X) - Y * PPP;                                             /* Y3 = R (Q - X3) - Y1 PPP */
    ZZ *= PP;                                                              /* ZZ3 = ZZ1 PP */
    ZZZ *= PPP;                                                            /* ZZZ3 = ZZZ1 PPP */
    return *this;
  }

  /* add-2008-s: 12M + 2S */
  xyzz& operator+=(const xyzz& q) {
    if (q.is_identity()) return *this;
    if (is_identity()) return *this = q;
    field_t U1 = X * q.ZZ;  /* U1 = X1 ZZ2 */
    field_t U2 = q.X * ZZ;  /* U2 = X2 ZZ1 */
    field_t S1 = Y * q.ZZZ; /* S1 = Y1 ZZZ2 */
    field_t S2 = q.Y * ZZZ; /* S2 = Y2 ZZZ1 */
    field_t P = U2 - U1;    /* P = U2 - U1 */
    field_t R = S2 - S1;    /* R = S2 - S1 */
    if (P.is_zero()) return *this = R.is_zero() ? dbl() : xyzz{};
    field_t PP = P.sqr();        /* PP = P^2 */
    field_t PPP = P * PP;        /* PPP = P PP */
    field_t Q = U1 * PP;         /* Q = U1 PP */
    X = R.sqr() - PPP - Q.dbl(); /* X3 = R^2 - PPP - 2 Q */
    Y = R * (Q - X) - S1 * PPP;  /* Y3 = R (Q - X3) - S1 PPP */
    ZZ = ZZ * q.ZZ * PP;         /* ZZ3 = ZZ1 ZZ2 PP */
    ZZZ = ZZZ * q.ZZZ * PPP;     /* ZZZ3 = ZZZ1 ZZZ2 PPP */
    return *this;
  }

  /* k P for k > 0, left-to-right double-and-add (bucket reduction uses it to
     add a running sum once for a whole run of empty buckets) */
  friend xyzz times(const xyzz& p, std::uint64_t k) {
    xyzz r = p;  // the top bit of k
    for (int i = 63 - __builtin_clzll(k); i-- > 0;) {
      r = r.dbl();
      if ((k >> i) & 1) r += p;
    }
    return r;
  }
};

}  // namespace cuzk::msm
