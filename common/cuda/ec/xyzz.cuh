// Extended Jacobian ("XYZZ") points on the device, for bucket sums:
//   x = X / ZZ, y = Y / ZZZ, with ZZ^3 = ZZZ^2; ZZ = 0 is the point at infinity.
// Formulas from the Explicit-Formulas Database,
// hyperelliptic.org/EFD/g1p/auto-shortw-xyzz.html, with a = 0 (as the CPU's
// common/msm/xyzz.hpp). Variable time: the special cases branch.
#pragma once

#include "cuda/ec/affine.cuh"
#include "msm/xyzz_formulas.hpp"

namespace cuzk::cuda {

/* Over Fp2 (G2) doublings and XYZZ + XYZZ additions are functions of their
   own, called: inlined into every kernel they cost cicc 10 minutes for
   BLS12-381's G2 MSM translation unit and 4.5 for BN254's (now 2 and 0.8).
   The mixed addition, the bucket loop's, stays inlined: outlined too, G2 MSM
   2^24 took 758 ms instead of 475 on the H200 (called as here: 447 ms). */
#ifdef __CUDACC__
#define CUZK_POINT_OUTLINED __host__ __device__ __noinline__
#else
#define CUZK_POINT_OUTLINED inline
#endif
template <class F>
inline constexpr bool outlined_points = requires {
  typename F::base_t;
};

/* The bucket loop's products over Fp2: Karatsuba and the complex squaring as
   fp2's operator* and sqr() (the same values), each Fp multiplication a call
   to one copy of its code. Inlined, G2's mixed addition is 28 Fp
   multiplications, 360 KB of machine code, far more than the instruction
   cache, and holds 255 registers; outlined, the loop is a few KB around one
   multiplication and runs at 3 blocks a SM (BLS12-381) without spills. */
namespace field_ops {
template <class B>
CUZK_POINT_OUTLINED B outlined_mul(B a, B b) {
  return a * b;
}
template <class B>
CUZK_POINT_OUTLINED B outlined_sqr(B a) {
  return a.sqr();
}
/* Over a 12-limb Fp (BLS12-381's G1 bucket loop, whose sums are in shared
   memory too) the products are calls as well: one copy of the multiplication
   and one of the squaring, 128 registers, 4 blocks a SM, no spills; H200, G1
   MSM 2^24 over shifted copies: 91.9 ms, against 104.3 inlined (20 B of
   spills) and 108.3 with the sums in registers. BN254's 8-limb products stay
   inline (44.4 ms; called: 47.0). */
template <class F>
inline constexpr bool outlined_products = sizeof(F) > 32;
template <class F>
CUZK_HDI F mul(const F& a, const F& b) {
  if constexpr (outlined_points<F>) {
    using B = typename F::base_t;
    const B t0 = outlined_mul(a.c0, b.c0), t1 = outlined_mul(a.c1, b.c1);
    const B t2 = outlined_mul(a.c0 + a.c1, b.c0 + b.c1);
    return {t0 - t1, t2 - t0 - t1};
  } else if constexpr (outlined_products<F>) {
    return outlined_mul(a, b);
  } else {
    return a * b;
  }
}
template <class F>
CUZK_HDI F sqr(const F& a) {
  if constexpr (outlined_points<F>)
    return {outlined_mul(a.c0 + a.c1, a.c0 - a.c1), outlined_mul(a.c0, a.c1).dbl()};
  else if constexpr (outlined_products<F>)
    return outlined_sqr(a);
  else
    return a.sqr();
}
}  // namespace field_ops

template <class F>
struct xyzz {
  using field_t = F;
  F X, Y, ZZ, ZZZ;

  CUZK_HDI static xyzz identity() { return {F::zero(), F::zero(), F::zero(), F::zero()}; }
  CUZK_HDI bool is_identity() const { return ZZ.is_zero(); }
  CUZK_HDI static xyzz from_affine(const affine<F>& p) {
    if (p.is_infinity()) return identity();
    return {p.x, p.y, F::one(), F::one()};
  }
  CUZK_HDI void neg() { Y = -Y; }

  /* mdbl-2008-s-1: 2 (x, y) for an affine point, 2M + 3S (y = 0 has order 2: infinity) */
  CUZK_HDI static xyzz dbl_affine_in(const affine<F>& p) {
    if (p.y.is_zero()) return identity();
    const auto d = cuzk::msm::xyzz_double(p.x, p.y);
    return {d.X, d.Y, d.V, d.W}; /* ZZ3 = V, ZZZ3 = W */
  }

  /* dbl-2008-s-1: 6M + 3S */
  CUZK_HDI xyzz dbl_in() const {
    if (is_identity() || Y.is_zero()) return identity();
    const auto d = cuzk::msm::xyzz_double(X, Y);
    return {d.X, d.Y, d.V * ZZ, d.W * ZZZ}; /* ZZ3 = V ZZ1, ZZZ3 = W ZZZ1 */
  }

  /* madd-2008-s: this += q (affine), 8M + 2S; q = this doubles, q = -this gives infinity.
     In the order that keeps fewest values live (G2's bucket loop runs at the register limit). */
  CUZK_HDI xyzz& add(const affine<F>& q) {
    if (q.is_infinity()) return *this;
    if (is_identity()) return *this = from_affine(q);
    const F P = q.x * ZZ - X;  /* P = U2 - X1, U2 = X2 ZZ1 */
    const F R = q.y * ZZZ - Y; /* R = S2 - Y1, S2 = Y2 ZZZ1 */
    if (P.is_zero()) return *this = R.is_zero() ? dbl_affine(q) : identity();
    const F PP = P.sqr();        /* PP = P^2 */
    const F PPP = P * PP;        /* PPP = P PP */
    ZZ = ZZ * PP;                /* ZZ3 = ZZ1 PP */
    const F Q = X * PP;          /* Q = X1 PP */
    ZZZ = ZZZ * PPP;             /* ZZZ3 = ZZZ1 PPP */
    const F T = Y * PPP;         /* T = Y1 PPP */
    X = R.sqr() - PPP - Q.dbl(); /* X3 = R^2 - PPP - 2 Q */
    Y = R * (Q - X) - T;         /* Y3 = R (Q - X3) - Y1 PPP */
    return *this;
  }

  /* add-2008-s: this += q, 12M + 2S; q = this doubles, q = -this gives infinity */
  CUZK_HDI xyzz& add_in(const xyzz& q) {
    if (q.is_identity()) return *this;
    if (is_identity()) return *this = q;
    const F U1 = X * q.ZZ;  /* U1 = X1 ZZ2 */
    const F U2 = q.X * ZZ;  /* U2 = X2 ZZ1 */
    const F S1 = Y * q.ZZZ; /* S1 = Y1 ZZZ2 */
    const F S2 = q.Y * ZZZ; /* S2 = Y2 ZZZ1 */
    const F P = U2 - U1;    /* P = U2 - U1 */
    const F R = S2 - S1;    /* R = S2 - S1 */
    if (P.is_zero()) return *this = R.is_zero() ? dbl() : identity();
    const F PP = P.sqr();        /* PP = P^2 */
    const F PPP = P * PP;        /* PPP = P PP */
    const F Q = U1 * PP;         /* Q = U1 PP */
    X = R.sqr() - PPP - Q.dbl(); /* X3 = R^2 - PPP - 2 Q */
    Y = R * (Q - X) - S1 * PPP;  /* Y3 = R (Q - X3) - S1 PPP */
    ZZ = ZZ * q.ZZ * PP;         /* ZZ3 = ZZ1 ZZ2 PP */
    ZZZ = ZZZ * q.ZZZ * PPP;     /* ZZZ3 = ZZZ1 ZZZ2 PPP */
    return *this;
  }

  CUZK_HDI static xyzz dbl_affine(const affine<F>& p) {
    if constexpr (outlined_points<F>)
      return outlined_dbl_affine(p);
    else
      return dbl_affine_in(p);
  }
  CUZK_HDI xyzz dbl() const {
    if constexpr (outlined_points<F>)
      return outlined_dbl(*this);
    else
      return dbl_in();
  }
  CUZK_HDI xyzz& add(const xyzz& q) {
    if constexpr (outlined_points<F>)
      return *this = outlined_add(*this, q);
    else
      return add_in(q);
  }

 private:
  CUZK_POINT_OUTLINED static xyzz outlined_dbl_affine(affine<F> p) { return dbl_affine_in(p); }
  CUZK_POINT_OUTLINED static xyzz outlined_dbl(xyzz p) { return p.dbl_in(); }
  CUZK_POINT_OUTLINED static xyzz outlined_add(xyzz p, xyzz q) { return p.add_in(q); }
};

/* Accessors of the additions below: X, Y, ZZ, ZZZ as get(0 .. 3) */
template <class F>
struct point_ref { /* a point in memory, read a coordinate at a time */
  const xyzz<F>* p;
  CUZK_HDI const F& get(unsigned i) const { return (&p->X)[i]; }
  CUZK_HDI xyzz<F> value() const { return *p; }
};

/* dbl-2008-s as xyzz::dbl, in place on an accumulator a that is not infinity
   (the rare case of the additions below, a call of its own) */
template <class F, class A>
CUZK_POINT_OUTLINED void dbl_in_place(A a) {
  using field_ops::mul, field_ops::sqr;
  if (a.get(1).is_zero()) return a.set(xyzz<F>::identity());
  const F U = a.get(1).dbl();   /* U = 2 Y1 */
  const F V = sqr(U);           /* V = U^2 */
  const F W = mul(U, V);        /* W = U V */
  const F S = mul(a.get(0), V); /* S = X1 V */
  const F xx = sqr(a.get(0));
  const F M = xx.dbl() + xx;                   /* M = 3 X1^2 */
  const F X3 = sqr(M) - S.dbl();               /* X3 = M^2 - 2 S */
  a.put(1, mul(M, S - X3) - mul(W, a.get(1))); /* Y3 = M (S - X3) - W Y1 */
  a.put(0, X3);
  a.put(2, mul(V, a.get(2))); /* ZZ3 = V ZZ1 */
  a.put(3, mul(W, a.get(3))); /* ZZZ3 = W ZZZ1 */
}

/* add-2008-s as xyzz::add(xyzz), a += q on accessors (a's coordinates
   written after their last read; q is not a) */
template <class F, class A, class B>
CUZK_HDI void add_to(const A& a, const B& q) {
  using field_ops::mul, field_ops::sqr;
  if (q.get(2).is_zero()) return;
  if (a.get(2).is_zero()) return a.set(q.value());
  const F U1 = mul(a.get(0), q.get(2));     /* U1 = X1 ZZ2 */
  const F S1 = mul(a.get(1), q.get(3));     /* S1 = Y1 ZZZ2 */
  const F P = mul(q.get(0), a.get(2)) - U1; /* P = U2 - U1, U2 = X2 ZZ1 */
  const F R = mul(q.get(1), a.get(3)) - S1; /* R = S2 - S1, S2 = Y2 ZZZ1 */
  if (P.is_zero()) {                        /* q = a: 2 a; q = -a: infinity */
    if (!R.is_zero()) return a.set(xyzz<F>::identity());
    return dbl_in_place<F>(a);
  }
  const F PP = sqr(P);                         /* PP = P^2 */
  const F PPP = mul(P, PP);                    /* PPP = P PP */
  a.put(2, mul(mul(a.get(2), q.get(2)), PP));  /* ZZ3 = ZZ1 ZZ2 PP */
  a.put(3, mul(mul(a.get(3), q.get(3)), PPP)); /* ZZZ3 = ZZZ1 ZZZ2 PPP */
  const F Q = mul(U1, PP);                     /* Q = U1 PP */
  const F X3 = sqr(R) - PPP - Q.dbl();         /* X3 = R^2 - PPP - 2 Q */
  a.put(0, X3);
  a.put(1, mul(R, Q - X3) - mul(S1, PPP)); /* Y3 = R (Q - X3) - S1 PPP */
}

/* madd-2008-s as xyzz::add(affine), on an accumulator kept outside the
   registers: a.get(i) and a.put(i, v) read and write X, Y, ZZ, ZZZ (i = 0 ..
   3), each read where it is used, so that only the formula's temporaries stay
   live (G2's bucket loop keeps its accumulators in shared memory). */
template <class F, class A>
CUZK_HDI void add_affine_to(const A& a, const affine<F>& q) {
  using field_ops::mul, field_ops::sqr;
  if (q.is_infinity()) return;
  if (a.get(2).is_zero()) return a.set(xyzz<F>::from_affine(q));
  const F P = mul(q.x, a.get(2)) - a.get(0); /* P = U2 - X1, U2 = X2 ZZ1 */
  const F R = mul(q.y, a.get(3)) - a.get(1); /* R = S2 - Y1, S2 = Y2 ZZZ1 */
  if (P.is_zero()) {                         /* q = this: 2 q; q = -this: infinity */
    if (!R.is_zero()) return a.set(xyzz<F>::identity());
    a.set(xyzz<F>::from_affine(q));
    return dbl_in_place<F>(a);
  }
  const F PP = sqr(P);                 /* PP = P^2 */
  const F PPP = mul(P, PP);            /* PPP = P PP */
  a.put(2, mul(a.get(2), PP));         /* ZZ3 = ZZ1 PP */
  const F Q = mul(a.get(0), PP);       /* Q = X1 PP */
  a.put(3, mul(a.get(3), PPP));        /* ZZZ3 = ZZZ1 PPP */
  const F T = mul(a.get(1), PPP);      /* T = Y1 PPP */
  const F X3 = sqr(R) - PPP - Q.dbl(); /* X3 = R^2 - PPP - 2 Q */
  a.put(0, X3);
  a.put(1, mul(R, Q - X3) - T); /* Y3 = R (Q - X3) - Y1 PPP */
}

}  // namespace cuzk::cuda
