// The XYZZ doubling over any field type F (dbl(), sqr(), +, −, ·), one copy
// for the CPU's bucket sums (msm/xyzz.hpp) and the device's (cuda/ec/xyzz.cuh).
// Explicit-Formulas Database, hyperelliptic.org/EFD/g1p/auto-shortw-xyzz.html,
// a = 0.
#pragma once

#include "ff/host_device.hpp"

namespace cuzk::msm {

/* 2 (X1, Y1): X3, Y3, and V, W with ZZ3 = V ZZ1, ZZZ3 = W ZZZ1 (ZZ1 = ZZZ1 = 1 for an affine point) */
template <class F>
struct xyzz_doubling {
  F X, Y, V, W;
};

/* dbl-2008-s-1 (mdbl-2008-s-1 for an affine point) */
template <class F>
CUZK_HDI xyzz_doubling<F> xyzz_double(const F& X1, const F& Y1) {
  const F U = Y1.dbl(); /* U = 2 Y1 */
  const F V = U.sqr();  /* V = U^2 */
  const F W = U * V;    /* W = U V */
  const F S = X1 * V;   /* S = X1 V */
  const F xx = X1.sqr();
  const F M = xx.dbl() + xx;                /* M = 3 X1^2 (+ a ZZ1^2, a = 0) */
  const F X3 = M.sqr() - S.dbl();           /* X3 = M^2 - 2 S */
  return {X3, M * (S - X3) - W * Y1, V, W}; /* Y3 = M (S - X3) - W Y1 */
}

}  // namespace cuzk::msm
