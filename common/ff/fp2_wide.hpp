// Lazy Fp2 arithmetic for the Fp6/Fp12 tower: branch-free sums, and sums of
// double-width products (fp2_wide_t, mul_wide and sqr_wide live in fp2.hpp,
// whose product uses them). Every fp2_wide_t coefficient stays below p R.
#pragma once

#include "ff/fp2.hpp"
#include "ff/fp_wide.hpp"

namespace cuzk::ff::lazy {

/* Fp2 sums with the branch-free Fp additions of fp_wide.hpp */
inline fp2_t add(const fp2_t& a, const fp2_t& b) { return {add(a.c0, b.c0), add(a.c1, b.c1)}; }
inline fp2_t sub(const fp2_t& a, const fp2_t& b) { return {sub(a.c0, b.c0), sub(a.c1, b.c1)}; }
inline fp2_t dbl(const fp2_t& a) { return add(a, a); }
/* times xi = 1 + u: (c0 - c1) + (c0 + c1) u */
inline fp2_t mul_by_nonresidue(const fp2_t& a) { return {sub(a.c0, a.c1), add(a.c0, a.c1)}; }

inline fp2_wide_t add(const fp2_wide_t& a, const fp2_wide_t& b) { return {add(a.c0, b.c0), add(a.c1, b.c1)}; }
inline fp2_wide_t sub(const fp2_wide_t& a, const fp2_wide_t& b) { return {sub(a.c0, b.c0), sub(a.c1, b.c1)}; }
/* times xi = 1 + u: (c0 - c1) + (c0 + c1) u */
inline fp2_wide_t mul_by_nonresidue(const fp2_wide_t& a) { return {sub(a.c0, a.c1), add(a.c0, a.c1)}; }

inline fp2_t mul(const fp2_t& a, const fp2_t& b) { return reduce(mul_wide(a, b)); }
inline fp2_t sqr(const fp2_t& a) { return reduce(sqr_wide(a)); }
/* a s for s in Fp */
inline fp2_t mul(const fp2_t& a, const fp_t& s) { return {mul(a.c0, s), mul(a.c1, s)}; }

}  // namespace cuzk::ff::lazy
