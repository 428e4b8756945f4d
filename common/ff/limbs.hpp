// Fixed-width unsigned integers as little-endian 64-bit limbs: the carry
// chains under the Montgomery fields, and the modular inverse by safegcd.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <utility>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace cuzk::ff::limbs {

using u64 = std::uint64_t;
using u128 = unsigned __int128;

template <std::size_t N>
using big = std::array<u64, N>;

/* r = a + b, returns the carry out */
template <std::size_t N>
inline u64 add(big<N>& r, const big<N>& a, const big<N>& b) {
#if defined(__x86_64__)
  /* one adc chain: GCC keeps the carry in the flag, where the u128 form
     round-trips it through a register (measured ~2.5x faster) */
  unsigned char c = 0;
  for (std::size_t i = 0; i < N; ++i) {
    unsigned long long o;
    c = _addcarry_u64(c, a[i], b[i], &o);
    r[i] = o;
  }
  return c;
#else
  u64 carry = 0;
  for (std::size_t i = 0; i < N; ++i) {
    u128 s = (u128)a[i] + b[i] + carry;
    r[i] = (u64)s;
    carry = (u64)(s >> 64);
  }
  return carry;
#endif
}

/* r = a - b, returns the borrow out (0 or 1) */
template <std::size_t N>
inline u64 sub(big<N>& r, const big<N>& a, const big<N>& b) {
#if defined(__x86_64__)
  unsigned char c = 0;
  for (std::size_t i = 0; i < N; ++i) {
    unsigned long long o;
    c = _subborrow_u64(c, a[i], b[i], &o);
    r[i] = o;
  }
  return c;
#else
  u64 borrow = 0;
  for (std::size_t i = 0; i < N; ++i) {
    u128 d = (u128)a[i] - b[i] - borrow;
    r[i] = (u64)d;
    borrow = (u64)(d >> 64) & 1;
  }
  return borrow;
#endif
}

template <std::size_t N>
inline bool is_zero(const big<N>& a) {
  u64 acc = 0;
  for (u64 w : a) acc |= w;
  return acc == 0;
}

/* a < b */
template <std::size_t N>
inline bool less(const big<N>& a, const big<N>& b) {
  for (std::size_t i = N; i-- > 0;)
    if (a[i] != b[i]) return a[i] < b[i];
  return false;
}

/* a >>= 1, with top_bit shifted in at the most significant position */
template <std::size_t N>
inline void shr1(big<N>& a, u64 top_bit = 0) {
  for (std::size_t i = 0; i + 1 < N; ++i) a[i] = (a[i] >> 1) | (a[i + 1] << 63);
  a[N - 1] = (a[N - 1] >> 1) | (top_bit << 63);
}

template <std::size_t N>
inline bool bit(const big<N>& a, std::size_t i) {
  return (a[i / 64] >> (i % 64)) & 1;
}

template <std::size_t N>
inline std::size_t bit_length(const big<N>& a) {
  for (std::size_t i = N; i-- > 0;)
    if (a[i]) return 64 * i + 64 - __builtin_clzll(a[i]);
  return 0;
}

/* m^-1 mod 2^64 for odd m: Newton's iteration x <- x (2 - m x) doubles the
   correct low bits, starting from x = m (m m = 1 mod 8). */
constexpr u64 inverse_mod_2_64(u64 m) {
  u64 x = m;
  for (int i = 0; i < 5; ++i) x *= 2 - m * x;
  return x;
}

/* Signed integers in base 2^62 ("signed62" of libsecp256k1's modinv64):
   x = sum x_i 2^(62 i), x_i in [0, 2^62) except the top limb, which holds the sign. */
template <std::size_t L>
using s62 = std::array<std::int64_t, L>;

namespace detail {

using i64 = std::int64_t;
using i128 = __int128;
inline constexpr u64 m62 = (u64(1) << 62) - 1;

template <std::size_t L, std::size_t N>
constexpr s62<L> to_s62(const big<N>& a) {
  s62<L> r{};
  for (std::size_t i = 0; i < L; ++i) {
    std::size_t w = 62 * i / 64, s = 62 * i % 64;
    u64 v = w < N ? a[w] >> s : 0;
    if (s > 2 && w + 1 < N) v |= a[w + 1] << (64 - s);
    r[i] = (i64)(v & m62);
  }
  return r;
}

/* x must be normalized and in [0, 2^(64N)) */
template <std::size_t N, std::size_t L>
big<N> from_s62(const s62<L>& x) {
  big<N> r{};
  for (std::size_t i = 0; i < L; ++i) {
    std::size_t w = 62 * i / 64, s = 62 * i % 64;
    if (w < N) r[w] |= (u64)x[i] << s;
    if (s > 2 && w + 1 < N) r[w + 1] |= (u64)x[i] >> (64 - s);
  }
  return r;
}

/* The transition matrix t of 62 divsteps, scaled by 2^62: [f, g] <- t [f, g] / 2^62 */
struct transition {
  i64 u, v, q, r;
};

/* 62 variable-time divsteps (Bernstein-Yang, eprint 2019/266 §8; the eta = -delta
   form of libsecp256k1's doc/safegcd_implementation.md §6), from the low 64 bits
   of f (odd) and g. Runs of zeros of g are shifted out at once, and up to 6 ones
   are cancelled at once by g += w f with w = -g/f mod 2^k, -1/f = f (f^2 - 2) mod 2^6. */
inline i64 divsteps_62(i64 eta, u64 f, u64 g, transition& t) {
  i64 u = 1, v = 0, q = 0, r = 1;
  int i = 62;
  for (;;) {
    int zeros = __builtin_ctzll(g | (u64(1) << i));
    g >>= zeros;
    u *= i64(1) << zeros;
    v *= i64(1) << zeros;
    eta -= zeros;
    i -= zeros;
    if (i == 0) break;
    if (eta < 0) {  // (eta, f, g) <- (-eta, g, -f)
      eta = -eta;
      std::swap(f, g);
      g = -g;
      std::swap(u, q);
      std::swap(v, r);
      q = -q;
      r = -r;
    }
    int limit = (int)std::min<i64>({eta + 1, i, 6});
    u64 w = (g * f * (f * f - 2)) & (~u64(0) >> (64 - limit));
    g += w * f;
    q += (i64)w * u;
    r += (i64)w * v;
  }
  t = {u, v, q, r};
  return eta;
}

/* [f, g] <- t [f, g] / 2^62, exact: the low 62 bits of t [f, g] are zero */
template <std::size_t L>
void update_fg(s62<L>& f, s62<L>& g, const transition& t) {
  i128 cf = (i128)t.u * f[0] + (i128)t.v * g[0];
  i128 cg = (i128)t.q * f[0] + (i128)t.r * g[0];
  cf >>= 62;
  cg >>= 62;
  for (std::size_t i = 1; i < L; ++i) {
    cf += (i128)t.u * f[i] + (i128)t.v * g[i];
    cg += (i128)t.q * f[i] + (i128)t.r * g[i];
    f[i - 1] = (i64)((u64)cf & m62);
    g[i - 1] = (i64)((u64)cg & m62);
    cf >>= 62;
    cg >>= 62;
  }
  f[L - 1] = (i64)cf;
  g[L - 1] = (i64)cg;
}

/* [d, e] <- t [d, e] / 2^62 mod m, keeping d, e in (-2m, m): add md m and me m,
   first m for each negative input, then the multiples that clear 62 low bits
   (mi = m^-1 mod 2^62); |u| + |v| <= 2^62 bounds every product below 2^125. */
template <std::size_t L>
void update_de(s62<L>& d, s62<L>& e, const transition& t, const s62<L>& m, u64 mi) {
  i64 sd = d[L - 1] >> 63, se = e[L - 1] >> 63;
  i64 md = (t.u & sd) + (t.v & se), me = (t.q & sd) + (t.r & se);
  i128 cd = (i128)t.u * d[0] + (i128)t.v * e[0];
  i128 ce = (i128)t.q * d[0] + (i128)t.r * e[0];
  md -= (i64)((mi * (u64)cd + (u64)md) & m62);
  me -= (i64)((mi * (u64)ce + (u64)me) & m62);
  cd += (i128)m[0] * md;
  ce += (i128)m[0] * me;
  cd >>= 62;
  ce >>= 62;
  for (std::size_t i = 1; i < L; ++i) {
    cd += (i128)t.u * d[i] + (i128)t.v * e[i] + (i128)m[i] * md;
    ce += (i128)t.q * d[i] + (i128)t.r * e[i] + (i128)m[i] * me;
    d[i - 1] = (i64)((u64)cd & m62);
    e[i - 1] = (i64)((u64)ce & m62);
    cd >>= 62;
    ce >>= 62;
  }
  d[L - 1] = (i64)cd;
  e[L - 1] = (i64)ce;
}

template <std::size_t L>
void carry62(s62<L>& x) {
  for (std::size_t i = 0; i + 1 < L; ++i) {
    x[i + 1] += x[i] >> 62;
    x[i] &= (i64)m62;
  }
}

/* -d or d mod m (negate: all ones or zero), in [0, m), for d in (-2m, m) */
template <std::size_t L>
void normalize(s62<L>& d, i64 negate, const s62<L>& m) {
  i64 neg = d[L - 1] >> 63;
  for (std::size_t i = 0; i < L; ++i) d[i] += m[i] & neg;
  neg = negate;
  for (std::size_t i = 0; i < L; ++i) d[i] = (d[i] ^ neg) - neg;
  carry62(d);
  neg = d[L - 1] >> 63;
  for (std::size_t i = 0; i < L; ++i) d[i] += m[i] & neg;
  carry62(d);
}

}  // namespace detail

/* x^-1 mod m for odd m and gcd(x, m) = 1, x < m, in variable time, by batches of
   62 divsteps: f = m, g = x, d = 0, e = 1 keep d = f/x and e = g/x (mod m); when
   g reaches 0, f = +-1 and x^-1 = d f. */
template <std::size_t N>
big<N> inverse_mod(const big<N>& x, const big<N>& m) {
  constexpr std::size_t L = 64 * N / 62 + 1;
  const u64 mi = inverse_mod_2_64(m[0]) & detail::m62;
  const s62<L> ms = detail::to_s62<L>(m);
  s62<L> f = ms, g = detail::to_s62<L>(x), d{}, e{};
  e[0] = 1;
  detail::i64 eta = -1;
  for (;;) {
    detail::i64 any = 0;
    for (auto w : g) any |= w;
    if (!any) break;
    detail::transition t;
    eta = detail::divsteps_62(eta, (u64)f[0] | ((u64)f[1] << 62), (u64)g[0] | ((u64)g[1] << 62), t);
    detail::update_fg(f, g, t);
    detail::update_de(d, e, t, ms, mi);
  }
  detail::normalize(d, f[L - 1] >> 63, ms);
  return detail::from_s62<N>(d);
}

}  // namespace cuzk::ff::limbs
