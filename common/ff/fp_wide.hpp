// Double-width Fp values for lazy reduction in the pairing tower.
//
// A product of two Montgomery forms aR * bR is kept as the 768-bit integer
// T = ab R^2 (R = 2^384); sums and differences of such products are formed on
// the wide values and a single Montgomery reduction T R^-1 mod p gives abR
// back. A tower product then pays one reduction per output coefficient
// instead of one per Fp product (Aranha, Karabina, Longa, Gebotys, Lopez,
// "Faster explicit formulas for computing pairings over ordinary curves",
// eprint 2010/526, section 3).
//
// Invariant: every fp_wide_t is below p R, so it can always be reduced, and
// add/sub work modulo p R (p R = 0 mod p). Products of operands below 2p are
// below 4p^2 < p R (4p < R), so Karatsuba sums may enter unreduced.
#pragma once

#include <array>
#include <cstdint>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "ff/fp.hpp"

namespace cuzk::ff::lazy {

using u64 = std::uint64_t;
using limbs6 = std::array<u64, 6>;

struct fp_wide_t {
  std::array<u64, 12> l;  // little-endian, < p R
};

namespace detail {
/* r = a + b + c, returns the carry out */
inline unsigned char addc(unsigned char c, u64 a, u64 b, u64& r) {
#if defined(__x86_64__)
  unsigned long long t;
  c = _addcarry_u64(c, a, b, &t);
  r = t;
  return c;
#else
  unsigned __int128 s = (unsigned __int128)a + b + c;
  r = (u64)s;
  return (unsigned char)(s >> 64);
#endif
}
/* r = a - b - c, returns the borrow out */
inline unsigned char subb(unsigned char c, u64 a, u64 b, u64& r) {
#if defined(__x86_64__)
  unsigned long long t;
  c = _subborrow_u64(c, a, b, &t);
  r = t;
  return c;
#else
  unsigned __int128 d = (unsigned __int128)a - b - c;
  r = (u64)d;
  return (unsigned char)((d >> 64) & 1);
#endif
}
inline constexpr const limbs6& p = fp_params::modulus;
}  // namespace detail

/* a + b mod p, branch-free (the carries through _addcarry_u64) */
inline fp_t add(const fp_t& a, const fp_t& b) {
  limbs6 s, d;
  unsigned char c = 0;
#pragma GCC unroll 12
  for (int i = 0; i < 6; ++i) c = detail::addc(c, a.l[i], b.l[i], s[i]);
  unsigned char borrow = 0;  // a + b < 2p < 2^382: no carry out above
#pragma GCC unroll 12
  for (int i = 0; i < 6; ++i) borrow = detail::subb(borrow, s[i], detail::p[i], d[i]);
  const u64 keep = 0 - (u64)borrow;  // all ones when a + b < p
  fp_t r;
#pragma GCC unroll 12
  for (int i = 0; i < 6; ++i) r.l[i] = (s[i] & keep) | (d[i] & ~keep);
  return r;
}
/* a - b mod p, branch-free */
inline fp_t sub(const fp_t& a, const fp_t& b) {
  limbs6 d;
  unsigned char borrow = 0;
#pragma GCC unroll 12
  for (int i = 0; i < 6; ++i) borrow = detail::subb(borrow, a.l[i], b.l[i], d[i]);
  const u64 mask = 0 - (u64)borrow;  // add p back when a < b
  fp_t r;
  unsigned char c = 0;
#pragma GCC unroll 12
  for (int i = 0; i < 6; ++i) c = detail::addc(c, d[i], detail::p[i] & mask, r.l[i]);
  return r;
}

/* a + b without reduction: below 2p for reduced inputs (a Karatsuba operand) */
inline limbs6 add_nr(const fp_t& a, const fp_t& b) {
  limbs6 r;
  unsigned char c = 0;
  #pragma GCC unroll 12
  for (int i = 0; i < 6; ++i) c = detail::addc(c, a.l[i], b.l[i], r[i]);
  return r;
}
/* a - b + p without reduction: below 2p, congruent to a - b */
inline limbs6 sub_nr(const fp_t& a, const fp_t& b) {
  limbs6 r;
  unsigned char c = 0;
  #pragma GCC unroll 12
  for (int i = 0; i < 6; ++i) c = detail::addc(c, a.l[i], detail::p[i], r[i]);
  c = 0;
  #pragma GCC unroll 12
  for (int i = 0; i < 6; ++i) c = detail::subb(c, r[i], b.l[i], r[i]);
  return r;
}

/* a b as a 768-bit integer (schoolbook, one row per limb of b, the low and
   high halves of the row's products added as two carry chains) */
inline fp_wide_t mul_wide(const limbs6& a, const limbs6& b) {
  fp_wide_t r;
  u64 lo[6], hi[6];
  #pragma GCC unroll 12
  for (int j = 0; j < 6; ++j) {
    unsigned __int128 x = (unsigned __int128)a[j] * b[0];
    lo[j] = (u64)x;
    hi[j] = (u64)(x >> 64);
  }
  r.l[0] = lo[0];
  unsigned char c = 0;
  #pragma GCC unroll 12
  for (int j = 1; j < 6; ++j) c = detail::addc(c, lo[j], hi[j - 1], r.l[j]);
  r.l[6] = hi[5] + c;
  #pragma GCC unroll 12
  for (int i = 1; i < 6; ++i) {
    #pragma GCC unroll 12
    for (int j = 0; j < 6; ++j) {
      unsigned __int128 x = (unsigned __int128)a[j] * b[i];
      lo[j] = (u64)x;
      hi[j] = (u64)(x >> 64);
    }
    c = 0;
    #pragma GCC unroll 12
    for (int j = 0; j < 6; ++j) c = detail::addc(c, r.l[i + j], lo[j], r.l[i + j]);
    r.l[i + 6] = c;
    c = 0;
    #pragma GCC unroll 12
    for (int j = 0; j < 6; ++j) c = detail::addc(c, r.l[i + j + 1], hi[j], r.l[i + j + 1]);
  }
  return r;
}
inline fp_wide_t mul_wide(const fp_t& a, const fp_t& b) { return mul_wide(a.l, b.l); }

/* a + b mod p R */
inline fp_wide_t add(const fp_wide_t& a, const fp_wide_t& b) {
  fp_wide_t r;
  unsigned char c = 0;
  #pragma GCC unroll 12
  for (int i = 0; i < 12; ++i) c = detail::addc(c, a.l[i], b.l[i], r.l[i]);
  /* a + b < 2 p R < 2^766: no carry; subtract p R when the high half is >= p */
  limbs6 t;
  unsigned char borrow = 0;
  #pragma GCC unroll 12
  for (int i = 0; i < 6; ++i) borrow = detail::subb(borrow, r.l[6 + i], detail::p[i], t[i]);
  if (!borrow)
    #pragma GCC unroll 12
    for (int i = 0; i < 6; ++i) r.l[6 + i] = t[i];
  return r;
}
/* a - b mod p R */
inline fp_wide_t sub(const fp_wide_t& a, const fp_wide_t& b) {
  fp_wide_t r;
  unsigned char borrow = 0;
  #pragma GCC unroll 12
  for (int i = 0; i < 12; ++i) borrow = detail::subb(borrow, a.l[i], b.l[i], r.l[i]);
  if (borrow) {  // + p R
    unsigned char c = 0;
    #pragma GCC unroll 12
    for (int i = 0; i < 6; ++i) c = detail::addc(c, r.l[6 + i], detail::p[i], r.l[6 + i]);
  }
  return r;
}

/* Montgomery reduction T R^-1 mod p for T < p R: six rounds of
   T <- T + (T_i inv mod 2^64) p 2^(64 i), then T / R < 2p and one
   conditional subtraction. */
inline fp_t reduce(const fp_wide_t& w) {
  std::array<u64, 12> t = w.l;
  u64 lo[6], hi[6];
  u64 top = 0;  // carry into limb i + 7
  #pragma GCC unroll 12
  for (int i = 0; i < 6; ++i) {
    u64 m = t[i] * fp_params::inv;
    #pragma GCC unroll 12
    for (int j = 0; j < 6; ++j) {
      unsigned __int128 x = (unsigned __int128)m * detail::p[j];
      lo[j] = (u64)x;
      hi[j] = (u64)(x >> 64);
    }
    unsigned char c = 0;
    #pragma GCC unroll 12
    for (int j = 0; j < 6; ++j) c = detail::addc(c, t[i + j], lo[j], t[i + j]);
    c = detail::addc(c, t[i + 6], top, t[i + 6]);
    top = c;
    c = 0;
    #pragma GCC unroll 12
    for (int j = 0; j < 6; ++j) c = detail::addc(c, t[i + j + 1], hi[j], t[i + j + 1]);
    top += c;
  }
  limbs6 d;
  unsigned char borrow = 0;
  #pragma GCC unroll 12
  for (int j = 0; j < 6; ++j) borrow = detail::subb(borrow, t[6 + j], detail::p[j], d[j]);
  fp_t r;
  #pragma GCC unroll 12
  for (int j = 0; j < 6; ++j) r.l[j] = borrow ? t[6 + j] : d[j];
  return r;
}

/* a b, with the wide product and one reduction */
inline fp_t mul(const fp_t& a, const fp_t& b) { return reduce(mul_wide(a, b)); }

}  // namespace cuzk::ff::lazy
