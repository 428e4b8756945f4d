// Points in Jacobian coordinates (x, y) = (X/Z^2, Y/Z^3) on y^2 = x^3 + b
// (a = 0), templated over the curve (g1_curve, g2_curve in ec/config.hpp).
// Formulas from the Explicit-Formulas Database,
// hyperelliptic.org/EFD/g1p/auto-shortw-jacobian-0.html. Variable time.
#pragma once

#include "ec/affine.hpp"

namespace cuzk::ec {

template <class Curve>
struct jacobian {
  using curve_t = Curve;
  using field_t = typename Curve::field_t;
  using affine_t = affine_point<field_t>;

  field_t X{}, Y{}, Z{};  // Z = 0 is the point at infinity

  static jacobian identity() { return {}; }
  static jacobian generator() { return from_affine(Curve::generator()); }
  static jacobian from_affine(const affine_t& a) {
    if (a.infinity) return {};
    return {a.x, a.y, field_t::one()};
  }
  bool is_identity() const { return Z.is_zero(); }

  /* x = X / Z^2, y = Y / Z^3 (one inversion; batch_to_affine shares it) */
  affine_t to_affine() const {
    if (is_identity()) return {};
    field_t zi = Z.inverse();
    field_t zi2 = zi.sqr();
    return {X * zi2, Y * zi2 * zi, false};
  }

  /* Y^2 = X^3 + b Z^6 */
  bool is_on_curve() const {
    if (is_identity()) return true;
    field_t z2 = Z.sqr();
    field_t z6 = z2.sqr() * z2;
    return Y.sqr() == X.sqr() * X + Curve::b() * z6;
  }

  jacobian operator-() const { return {X, -Y, Z}; }

  /* Projective equality: X1 Z2^2 = X2 Z1^2 and Y1 Z2^3 = Y2 Z1^3 */
  friend bool operator==(const jacobian& p, const jacobian& q) {
    if (p.is_identity() || q.is_identity()) return p.is_identity() == q.is_identity();
    field_t z1z1 = p.Z.sqr(), z2z2 = q.Z.sqr();
    if (!(p.X * z2z2 == q.X * z1z1)) return false;
    return p.Y * z2z2 * q.Z == q.Y * z1z1 * p.Z;
  }

  /* dbl-2009-l: 2M + 5S */
  jacobian dbl() const {
    if (is_identity()) return *this;
    field_t A = X.sqr();                       /* A = X1^2 */
    field_t B = Y.sqr();                       /* B = Y1^2 */
    field_t C = B.sqr();                       /* C = B^2 */
    field_t D = ((X + B).sqr() - A - C).dbl(); /* D = 2((X1 + B)^2 - A - C) */
    field_t E = A.dbl() + A;                   /* E = 3A */
    field_t F = E.sqr();                       /* F = E^2 */
    jacobian r;
    r.X = F - D.dbl();                         /* X3 = F - 2D */
    r.Y = E * (D - r.X) - C.dbl().dbl().dbl(); /* Y3 = E(D - X3) - 8C */
    r.Z = (Y * Z).dbl();                       /* Z3 = 2 Y1 Z1 */
    return r;
  }

  /* add-2007-bl: 11M + 5S; falls back to dbl when P = Q */
  friend jacobian operator+(const jacobian& p, const jacobian& q) {
    if (p.is_identity()) return q;
    if (q.is_identity()) return p;
    field_t Z1Z1 = p.Z.sqr();                                    /* Z1Z1 = Z1^2 */
    field_t Z2Z2 = q.Z.sqr();                                    /* Z2Z2 = Z2^2 */
    field_t U1 = p.X * Z2Z2;                                     /* U1 = X1 Z2Z2 */
    field_t U2 = q.X * Z1Z1;                                     /* U2 = X2 Z1Z1 */
    field_t S1 = p.Y * q.Z * Z2Z2;                               /* S1 = Y1 Z2 Z2Z2 */
    field_t S2 = q.Y * p.Z * Z1Z1;                               /* S2 = Y2 Z1 Z1Z1 */
    field_t H = U2 - U1;                                         /* H = U2 - U1 */
    field_t R = (S2 - S1).dbl();                                 /* r = 2(S2 - S1) */
    if (H.is_zero()) return R.is_zero() ? p.dbl() : jacobian{};  // P = Q, or P = -Q
    field_t I = H.dbl().sqr();                                   /* I = (2H)^2 */
    field_t J = H * I;                                           /* J = H I */
    field_t V = U1 * I;                                          /* V = U1 I */
    jacobian r;
    r.X = R.sqr() - J - V.dbl();                 /* X3 = r^2 - J - 2V */
    r.Y = R * (V - r.X) - (S1 * J).dbl();        /* Y3 = r(V - X3) - 2 S1 J */
    r.Z = ((p.Z + q.Z).sqr() - Z1Z1 - Z2Z2) * H; /* Z3 = ((Z1 + Z2)^2 - Z1Z1 - Z2Z2) H */
    return r;
  }

  /* madd-2007-bl (Z2 = 1): 7M + 4S; falls back to dbl when P = Q */
  friend jacobian operator+(const jacobian& p, const affine_t& q) {
    if (q.infinity) return p;
    if (p.is_identity()) return from_affine(q);
    field_t Z1Z1 = p.Z.sqr();      /* Z1Z1 = Z1^2 */
    field_t U2 = q.x * Z1Z1;       /* U2 = X2 Z1Z1 */
    field_t S2 = q.y * p.Z * Z1Z1; /* S2 = Y2 Z1 Z1Z1 */
    field_t H = U2 - p.X;          /* H = U2 - X1 */
    field_t R = (S2 - p.Y).dbl();  /* r = 2(S2 - Y1) */
    if (H.is_zero()) return R.is_zero() ? p.dbl() : jacobian{};
    field_t HH = H.sqr();       /* HH = H^2 */
    field_t I = HH.dbl().dbl(); /* I = 4 HH */
    field_t J = H * I;          /* J = H I */
    field_t V = p.X * I;        /* V = X1 I */
    jacobian r;
    r.X = R.sqr() - J - V.dbl();           /* X3 = r^2 - J - 2V */
    r.Y = R * (V - r.X) - (p.Y * J).dbl(); /* Y3 = r(V - X3) - 2 Y1 J */
    r.Z = (p.Z + H).sqr() - Z1Z1 - HH;     /* Z3 = (Z1 + H)^2 - Z1Z1 - HH */
    return r;
  }

  friend jacobian operator-(const jacobian& p, const jacobian& q) { return p + (-q); }
  friend jacobian operator-(const jacobian& p, const affine_t& q) { return p + (-q); }
  jacobian& operator+=(const jacobian& q) { return *this = *this + q; }
  jacobian& operator+=(const affine_t& q) { return *this = *this + q; }
  jacobian& operator-=(const jacobian& q) { return *this = *this - q; }
  jacobian& operator-=(const affine_t& q) { return *this = *this - q; }
};

/* The building blocks an MSM bucket loop calls by name. */
template <class C>
inline jacobian<C> add(const jacobian<C>& p, const jacobian<C>& q) {
  return p + q;
}
template <class C>
inline jacobian<C> add_mixed(const jacobian<C>& p, const typename jacobian<C>::affine_t& q) {
  return p + q;
}
template <class C>
inline jacobian<C> dbl(const jacobian<C>& p) {
  return p.dbl();
}

}  // namespace cuzk::ec
