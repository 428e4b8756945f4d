// Double-width Fp values for lazy reduction in the pairing tower.
//
// A product of two Montgomery forms aR * bR is kept as the 768-bit integer
// T = ab R^2 (R = 2^(64N), N limbs); sums and differences of such products are formed on
// the wide values and a single Montgomery reduction T R^-1 mod p gives abR
// back. A tower product then pays one reduction per output coefficient
// instead of one per Fp product (Aranha, Karabina, Longa, Gebotys, Lopez,
// "Faster explicit formulas for computing pairings over ordinary curves",
// eprint 2010/526, section 3).
//
// Invariant: every fp_wide_t is below p R, so it can always be reduced, and
// add/sub work modulo p R (p R = 0 mod p). Products of operands below 2p are
// below 4p^2 < p R (4p < R: BLS12-381's p < 2^381 and BN254's p < 2^254
// both leave the two spare bits), so Karatsuba sums may enter unreduced.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#if defined(__x86_64__)
#include <immintrin.h>
#endif

#include "ff/mont_field.hpp"

namespace cuzk::ff::lazy {

using u64 = std::uint64_t;

template <class P>
struct fp_wide {
  static constexpr std::size_t n = P::n_limbs;
  std::array<u64, 2 * n> l;  // little-endian, < p R
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
}  // namespace detail

/* a + b mod p, branch-free (the carries through _addcarry_u64) */
template <class P>
inline mont_field<P> add(const mont_field<P>& a, const mont_field<P>& b) {
  constexpr std::size_t N = P::n_limbs;
  typename P::limbs_t s, d;
  unsigned char c = 0;
#pragma GCC unroll 12
  for (std::size_t i = 0; i < N; ++i) c = detail::addc(c, a.l[i], b.l[i], s[i]);
  unsigned char borrow = 0;  // a + b < 2p < 2^(64N - 1): no carry out above
#pragma GCC unroll 12
  for (std::size_t i = 0; i < N; ++i) borrow = detail::subb(borrow, s[i], P::modulus[i], d[i]);
  const u64 keep = 0 - (u64)borrow;  // all ones when a + b < p
  mont_field<P> r;
#pragma GCC unroll 12
  for (std::size_t i = 0; i < N; ++i) r.l[i] = (s[i] & keep) | (d[i] & ~keep);
  return r;
}
/* a - b mod p, branch-free */
template <class P>
inline mont_field<P> sub(const mont_field<P>& a, const mont_field<P>& b) {
  constexpr std::size_t N = P::n_limbs;
  typename P::limbs_t d;
  unsigned char borrow = 0;
#pragma GCC unroll 12
  for (std::size_t i = 0; i < N; ++i) borrow = detail::subb(borrow, a.l[i], b.l[i], d[i]);
  const u64 mask = 0 - (u64)borrow;  // add p back when a < b
  mont_field<P> r;
  unsigned char c = 0;
#pragma GCC unroll 12
  for (std::size_t i = 0; i < N; ++i) c = detail::addc(c, d[i], P::modulus[i] & mask, r.l[i]);
  return r;
}

/* a + b without reduction: below 2p for reduced inputs (a Karatsuba operand) */
template <class P>
inline typename P::limbs_t add_nr(const mont_field<P>& a, const mont_field<P>& b) {
  typename P::limbs_t r;
  unsigned char c = 0;
#pragma GCC unroll 12
  for (std::size_t i = 0; i < P::n_limbs; ++i) c = detail::addc(c, a.l[i], b.l[i], r[i]);
  return r;
}
/* a - b + p without reduction: below 2p, congruent to a - b */
template <class P>
inline typename P::limbs_t sub_nr(const mont_field<P>& a, const mont_field<P>& b) {
  typename P::limbs_t r;
  unsigned char c = 0;
#pragma GCC unroll 12
  for (std::size_t i = 0; i < P::n_limbs; ++i) c = detail::addc(c, a.l[i], P::modulus[i], r[i]);
  c = 0;
#pragma GCC unroll 12
  for (std::size_t i = 0; i < P::n_limbs; ++i) c = detail::subb(c, r[i], b.l[i], r[i]);
  return r;
}

/* a b as a 2N-limb integer (schoolbook, one row per limb of b, the low and
   high halves of the row's products added as two carry chains) */
template <class P>
inline fp_wide<P> mul_wide(const typename P::limbs_t& a, const typename P::limbs_t& b) {
  constexpr std::size_t N = P::n_limbs;
  fp_wide<P> r;
  u64 lo[N], hi[N];
#pragma GCC unroll 12
  for (std::size_t j = 0; j < N; ++j) {
    unsigned __int128 x = (unsigned __int128)a[j] * b[0];
    lo[j] = (u64)x;
    hi[j] = (u64)(x >> 64);
  }
  r.l[0] = lo[0];
  unsigned char c = 0;
#pragma GCC unroll 12
  for (std::size_t j = 1; j < N; ++j) c = detail::addc(c, lo[j], hi[j - 1], r.l[j]);
  r.l[N] = hi[N - 1] + c;
#pragma GCC unroll 12
  for (std::size_t i = 1; i < N; ++i) {
#pragma GCC unroll 12
    for (std::size_t j = 0; j < N; ++j) {
      unsigned __int128 x = (unsigned __int128)a[j] * b[i];
      lo[j] = (u64)x;
      hi[j] = (u64)(x >> 64);
    }
    c = 0;
#pragma GCC unroll 12
    for (std::size_t j = 0; j < N; ++j) c = detail::addc(c, r.l[i + j], lo[j], r.l[i + j]);
    r.l[i + N] = c;
    c = 0;
#pragma GCC unroll 12
    for (std::size_t j = 0; j < N; ++j) c = detail::addc(c, r.l[i + j + 1], hi[j], r.l[i + j + 1]);
  }
  return r;
}
template <class P>
inline fp_wide<P> mul_wide(const mont_field<P>& a, const mont_field<P>& b) {
  return mul_wide<P>(a.l, b.l);
}

/* a + b mod p R */
template <class P>
inline fp_wide<P> add(const fp_wide<P>& a, const fp_wide<P>& b) {
  constexpr std::size_t N = P::n_limbs;
  fp_wide<P> r;
  unsigned char c = 0;
#pragma GCC unroll 12
  for (std::size_t i = 0; i < 2 * N; ++i) c = detail::addc(c, a.l[i], b.l[i], r.l[i]);
  /* a + b < 2 p R < 2^(128N - 1): no carry; subtract p R when the high half is >= p */
  typename P::limbs_t t;
  unsigned char borrow = 0;
#pragma GCC unroll 12
  for (std::size_t i = 0; i < N; ++i) borrow = detail::subb(borrow, r.l[N + i], P::modulus[i], t[i]);
  if (!borrow)
#pragma GCC unroll 12
    for (std::size_t i = 0; i < N; ++i) r.l[N + i] = t[i];
  return r;
}
/* a - b mod p R */
template <class P>
inline fp_wide<P> sub(const fp_wide<P>& a, const fp_wide<P>& b) {
  constexpr std::size_t N = P::n_limbs;
  fp_wide<P> r;
  unsigned char borrow = 0;
#pragma GCC unroll 12
  for (std::size_t i = 0; i < 2 * N; ++i) borrow = detail::subb(borrow, a.l[i], b.l[i], r.l[i]);
  if (borrow) {  // + p R
    unsigned char c = 0;
#pragma GCC unroll 12
    for (std::size_t i = 0; i < N; ++i) c = detail::addc(c, r.l[N + i], P::modulus[i], r.l[N + i]);
  }
  return r;
}

/* Montgomery reduction T R^-1 mod p for T < p R: N rounds of
   T <- T + (T_i inv mod 2^64) p 2^(64 i), then T / R < 2p and one
   conditional subtraction. */
template <class P>
inline mont_field<P> reduce(const fp_wide<P>& w) {
  constexpr std::size_t N = P::n_limbs;
  std::array<u64, 2 * N> t = w.l;
  u64 lo[N], hi[N];
  u64 top = 0;  // carry into limb i + N + 1
#pragma GCC unroll 12
  for (std::size_t i = 0; i < N; ++i) {
    u64 m = t[i] * P::inv;
#pragma GCC unroll 12
    for (std::size_t j = 0; j < N; ++j) {
      unsigned __int128 x = (unsigned __int128)m * P::modulus[j];
      lo[j] = (u64)x;
      hi[j] = (u64)(x >> 64);
    }
    unsigned char c = 0;
#pragma GCC unroll 12
    for (std::size_t j = 0; j < N; ++j) c = detail::addc(c, t[i + j], lo[j], t[i + j]);
    c = detail::addc(c, t[i + N], top, t[i + N]);
    top = c;
    c = 0;
#pragma GCC unroll 12
    for (std::size_t j = 0; j < N; ++j) c = detail::addc(c, t[i + j + 1], hi[j], t[i + j + 1]);
    top += c;
  }
  typename P::limbs_t d;
  unsigned char borrow = 0;
#pragma GCC unroll 12
  for (std::size_t j = 0; j < N; ++j) borrow = detail::subb(borrow, t[N + j], P::modulus[j], d[j]);
  mont_field<P> r;
#pragma GCC unroll 12
  for (std::size_t j = 0; j < N; ++j) r.l[j] = borrow ? t[N + j] : d[j];
  return r;
}

/* a b, with the wide product and one reduction */
template <class P>
inline mont_field<P> mul(const mont_field<P>& a, const mont_field<P>& b) {
  return reduce(mul_wide(a, b));
}

}  // namespace cuzk::ff::lazy
