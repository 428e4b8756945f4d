// Eight elements of a prime field at once with AVX-512 IFMA (VPMADD52LUQ and
// VPMADD52HUQ add the low and the high 52 bits of a 52 x 52-bit product to a
// 64-bit lane), for the batch-affine additions of the MSMs
// (msm/lane_batch.hpp). An element is L = ceil(64N / 52) limbs of 52 bits,
// one 512-bit register a limb, lane i holding element i. The value is
// mont_field's own, xR mod p with R = 2^(64N): moving an element in or out
// regroups its bits and multiplies nothing.
//
// Montgomery multiplication, CIOS on 52-bit limbs, L rounds of
//   t += a·b_i;   m = t_0·(−p^−1) mod 2^s;   t = (t + m·p) / 2^s
// with s = 52, except the last round: R = 2^(64N) is not a power of 2^52, so
// it divides by 2^s, s = 64N − 52(L − 1) (48 for N = 4, 20 for N = 6).
// Inputs below 2p and 4p < R (ifma::fits) give a result below 2p. A lane takes at most
// four 52-bit terms a round on top of its carries, below 2^58 after L <= 8
// rounds: no lane overflows and carries wait for the end.
// add and sub keep values in [0, 2p); get returns the canonical (< p) value.
//
// Used when the CPU has AVX512F and AVX512IFMA and CUZK_FF_PLAIN and
// CUZK_FF_IFMA=0 are both unset (ifma::active, which tests may switch).
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <cstdlib>

#include "ff/mont_field.hpp"

#if defined(__x86_64__) && !defined(__CUDA_ARCH__)
#include <cpuid.h>
#endif

#if defined(__x86_64__) && !defined(__CUDACC__) && defined(__OPTIMIZE__)
#define CUZK_FF_IFMA 1
#include <immintrin.h>
#else
#define CUZK_FF_IFMA 0
#endif

namespace cuzk::ff::ifma {

/* AVX512F and AVX512IFMA (CPUID leaf 7: EBX bits 16 and 21) with the OS saving the registers (XCR0: SSE, AVX,
   opmask and both ZMM halves), CUZK_FF_PLAIN and CUZK_FF_IFMA=0 unset. The same in every translation unit (the
   CUDA ones included), which compile the lanes only where CUZK_FF_IFMA is 1 (lane_type). */
inline bool detect() {
#if defined(__x86_64__) && !defined(__CUDA_ARCH__)
  const char* ifma = std::getenv("CUZK_FF_IFMA");
  if (x86::plain_forced() || (ifma && *ifma == '0')) return false;
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid(1, &a, &b, &c, &d) || !(c >> 27 & 1)) return false;  // OSXSAVE
  unsigned lo = 0, hi = 0;
  asm volatile("xgetbv" : "=a"(lo), "=d"(hi) : "c"(0));
  if ((lo & 0xe6) != 0xe6) return false;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  return (b >> 16 & 1) && (b >> 21 & 1);
#else
  return false;
#endif
}
/* Whether the lane paths run; set at start, switched by tests that compare them with the scalar ones. */
inline bool active = detect();

constexpr std::uint64_t mask52 = (std::uint64_t{1} << 52) - 1;

/* 4p < R: the fields of the curves' coordinates (BLS12-381's and BN254's Fp) and BN254's Fr; not BLS12-381's Fr */
template <class P>
inline constexpr bool fits = P::modulus[P::n_limbs - 1] >> 62 == 0;

template <class P>
struct shape {
  static_assert(fits<P>, "the lanes' bounds need 4p < 2^(64N)");
  static constexpr std::size_t N = P::n_limbs;
  static constexpr std::size_t L = (64 * N + 51) / 52;
  static constexpr unsigned last_shift = unsigned(64 * N - 52 * (L - 1));
};

/* The 52-bit limbs of a value below 2^(64N). */
template <std::size_t N, std::size_t L>
constexpr std::array<std::uint64_t, L> split52(const std::array<std::uint64_t, N>& w) {
  std::array<std::uint64_t, L> out{};
  for (std::size_t j = 0; j < L; ++j) {
    const std::size_t bit = 52 * j, i = bit / 64, s = bit % 64;
    std::uint64_t v = w[i] >> s;
    if (s > 12 && i + 1 < N) v |= w[i + 1] << (64 - s);
    out[j] = v & mask52;
  }
  return out;
}

/* The words of a value below 2^(64N) given as 52-bit limbs. */
template <std::size_t N, std::size_t L>
constexpr std::array<std::uint64_t, N> join52(const std::array<std::uint64_t, L>& x) {
  std::array<std::uint64_t, N> w{};
  for (std::size_t j = 0; j < L; ++j) {
    const std::size_t bit = 52 * j, i = bit / 64, s = bit % 64;
    w[i] |= x[j] << s;
    if (s > 12 && i + 1 < N) w[i + 1] |= x[j] >> (64 - s);
  }
  return w;
}

/* Eight elements in memory, limb-major: w[j][i] is limb j of lane i. */
template <class P>
struct lanes {
  static constexpr std::size_t L = shape<P>::L;
  alignas(64) std::uint64_t w[L][8];

  void set(unsigned lane, const mont_field<P>& x) {
    const auto l = split52<P::n_limbs, L>(x.l);
    for (std::size_t j = 0; j < L; ++j) w[j][lane] = l[j];
  }
  /* the lane's value (below 2p) reduced below p */
  mont_field<P> get(unsigned lane) const {
    std::array<std::uint64_t, L> l;
    for (std::size_t j = 0; j < L; ++j) l[j] = w[j][lane];
    auto r = mont_field<P>::from_montgomery(join52<P::n_limbs, L>(l));
    typename mont_field<P>::limbs_t d;
    if (!limbs::sub(d, r.l, P::modulus)) r.l = d;
    return r;
  }
};

#if CUZK_FF_IFMA
/* GCC 12 takes the shifts' undefined pass-through operand (_mm512_undefined_epi32) for an uninitialized read */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wmaybe-uninitialized"
#pragma GCC diagnostic ignored "-Wuninitialized"
#define CUZK_IFMA_TARGET __attribute__((target("avx512f,avx512ifma")))
#define CUZK_IFMA_INLINE CUZK_IFMA_TARGET inline __attribute__((always_inline))

/* Eight elements in registers. */
template <class P>
struct vec {
  static constexpr std::size_t L = shape<P>::L;
  __m512i l[L];
};

template <class P>
struct consts {
  static constexpr std::size_t L = shape<P>::L;
  static constexpr auto p = split52<P::n_limbs, L>(P::modulus);
  static constexpr auto p2 = [] {  // 2p < 2^(64N)
    std::array<std::uint64_t, P::n_limbs> w{};
    std::uint64_t carry = 0;
    for (std::size_t i = 0; i < P::n_limbs; ++i) {
      w[i] = (P::modulus[i] << 1) | carry;
      carry = P::modulus[i] >> 63;
    }
    return split52<P::n_limbs, L>(w);
  }();
  static constexpr std::uint64_t pinv = P::inv & mask52;  // −p^−1 mod 2^52
};

template <class P>
CUZK_IFMA_INLINE vec<P> load(const lanes<P>& m) {
  vec<P> v;
  for (std::size_t j = 0; j < vec<P>::L; ++j) v.l[j] = _mm512_load_si512(m.w[j]);
  return v;
}
template <class P>
CUZK_IFMA_INLINE void store(lanes<P>& m, const vec<P>& v) {
  for (std::size_t j = 0; j < vec<P>::L; ++j) _mm512_store_si512(m.w[j], v.l[j]);
}

/* a·b·R^−1 mod p, below 2p, for a, b below 2p */
template <class P>
CUZK_IFMA_INLINE vec<P> mul(const vec<P>& a, const vec<P>& b) {
  constexpr std::size_t L = vec<P>::L;
  constexpr unsigned s = shape<P>::last_shift;
  using K = consts<P>;
  const __m512i mask = _mm512_set1_epi64(std::int64_t(mask52));
  const __m512i pinv = _mm512_set1_epi64(std::int64_t(K::pinv));
  const __m512i zero = _mm512_setzero_si512();
  __m512i t[L + 1];
  for (std::size_t j = 0; j <= L; ++j) t[j] = zero;
  for (std::size_t i = 0; i < L; ++i) {
    for (std::size_t j = 0; j < L; ++j) { /* t += a·b_i */
      t[j] = _mm512_madd52lo_epu64(t[j], a.l[j], b.l[i]);
      t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], a.l[j], b.l[i]);
    }
    __m512i m = _mm512_madd52lo_epu64(zero, t[0], pinv); /* m = t_0·(−p^−1) mod 2^52 */
    if (i == L - 1 && s < 52) m = _mm512_and_si512(m, _mm512_set1_epi64(std::int64_t((std::uint64_t{1} << s) - 1)));
    for (std::size_t j = 0; j < L; ++j) { /* t += m·p: t_0 = 0 mod 2^s */
      const __m512i pj = _mm512_set1_epi64(std::int64_t(K::p[j]));
      t[j] = _mm512_madd52lo_epu64(t[j], m, pj);
      t[j + 1] = _mm512_madd52hi_epu64(t[j + 1], m, pj);
    }
    if (i + 1 < L || s == 52) { /* t /= 2^52: the registers shift, t_0's carry goes on */
      const __m512i carry = _mm512_srli_epi64(t[0], 52);
      for (std::size_t j = 0; j < L; ++j) t[j] = t[j + 1];
      t[0] = _mm512_add_epi64(t[0], carry);
      t[L] = zero;
    }
  }
  vec<P> r;
  if constexpr (s < 52) { /* carries through, then t /= 2^s */
    for (std::size_t j = 0; j < L; ++j) {
      t[j + 1] = _mm512_add_epi64(t[j + 1], _mm512_srli_epi64(t[j], 52));
      t[j] = _mm512_and_si512(t[j], mask);
    }
    for (std::size_t j = 0; j < L; ++j)
      r.l[j] = _mm512_or_si512(_mm512_srli_epi64(t[j], s), _mm512_and_si512(_mm512_slli_epi64(t[j + 1], 52 - s), mask));
  } else {
    for (std::size_t j = 0; j + 1 < L; ++j) {
      t[j + 1] = _mm512_add_epi64(t[j + 1], _mm512_srli_epi64(t[j], 52));
      r.l[j] = _mm512_and_si512(t[j], mask);
    }
    r.l[L - 1] = t[L - 1];
  }
  return r;
}

template <class P>
CUZK_IFMA_INLINE vec<P> sqr(const vec<P>& a) {
  return mul(a, a);
}

/* limbs carried through (signed: borrows as −1); the top limb keeps the sign */
template <class P>
CUZK_IFMA_INLINE void carry_through(vec<P>& v) {
  const __m512i mask = _mm512_set1_epi64(std::int64_t(mask52));
  for (std::size_t j = 0; j + 1 < vec<P>::L; ++j) {
    v.l[j + 1] = _mm512_add_epi64(v.l[j + 1], _mm512_srai_epi64(v.l[j], 52));
    v.l[j] = _mm512_and_si512(v.l[j], mask);
  }
}

/* d + 2p in the lanes where d < 0, then carried: [−2p, 2p) to [0, 2p) */
template <class P>
CUZK_IFMA_INLINE vec<P> add_2p_where_negative(vec<P> d) {
  constexpr std::size_t L = vec<P>::L;
  const __mmask8 neg = _mm512_cmplt_epi64_mask(d.l[L - 1], _mm512_setzero_si512());
  for (std::size_t j = 0; j < L; ++j)
    d.l[j] = _mm512_mask_add_epi64(d.l[j], neg, d.l[j], _mm512_set1_epi64(std::int64_t(consts<P>::p2[j])));
  carry_through(d);
  return d;
}

/* a − b mod p in [0, 2p) for a, b in [0, 2p) */
template <class P>
CUZK_IFMA_INLINE vec<P> sub(const vec<P>& a, const vec<P>& b) {
  vec<P> d;
  for (std::size_t j = 0; j < vec<P>::L; ++j) d.l[j] = _mm512_sub_epi64(a.l[j], b.l[j]);
  carry_through(d);
  return add_2p_where_negative(d);
}

/* a + b mod p in [0, 2p) for a, b in [0, 2p): a + b − 2p, plus 2p back where that is negative */
template <class P>
CUZK_IFMA_INLINE vec<P> add(const vec<P>& a, const vec<P>& b) {
  vec<P> d;
  for (std::size_t j = 0; j < vec<P>::L; ++j)
    d.l[j] = _mm512_sub_epi64(_mm512_add_epi64(a.l[j], b.l[j]), _mm512_set1_epi64(std::int64_t(consts<P>::p2[j])));
  carry_through(d);
  return add_2p_where_negative(d);
}
/* v reduced below p (from [0, 2p)) */
template <class P>
CUZK_IFMA_INLINE vec<P> canonical(const vec<P>& v) {
  constexpr std::size_t L = vec<P>::L;
  vec<P> d;
  for (std::size_t j = 0; j < L; ++j)
    d.l[j] = _mm512_sub_epi64(v.l[j], _mm512_set1_epi64(std::int64_t(consts<P>::p[j])));
  carry_through(d);
  const __mmask8 below = _mm512_cmplt_epi64_mask(d.l[L - 1], _mm512_setzero_si512()); /* v < p: keep v */
  for (std::size_t j = 0; j < L; ++j) d.l[j] = _mm512_mask_blend_epi64(below, d.l[j], v.l[j]);
  return d;
}

/* −v in the lanes of `where` (p − v: in (0, p] for v below p), v elsewhere */
template <class P>
CUZK_IFMA_INLINE vec<P> negate_where(__mmask8 where, const vec<P>& v) {
  vec<P> p;
  for (std::size_t j = 0; j < vec<P>::L; ++j) p.l[j] = _mm512_set1_epi64(std::int64_t(consts<P>::p[j]));
  const vec<P> n = sub(p, v);
  vec<P> r;
  for (std::size_t j = 0; j < vec<P>::L; ++j) r.l[j] = _mm512_mask_blend_epi64(where, v.l[j], n.l[j]);
  return r;
}

/* The elements at addr_i + offset (N little-endian words each, any alignment), one a lane. */
template <class P>
CUZK_IFMA_INLINE vec<P> gather(__m512i addr, std::size_t offset) {
  constexpr std::size_t N = P::n_limbs, L = vec<P>::L;
  __m512i w[N];
  for (std::size_t i = 0; i < N; ++i)
    w[i] = _mm512_i64gather_epi64(_mm512_add_epi64(addr, _mm512_set1_epi64(std::int64_t(offset + 8 * i))), nullptr, 1);
  const __m512i mask = _mm512_set1_epi64(std::int64_t(mask52));
  vec<P> v;
  for (std::size_t j = 0; j < L; ++j) {
    const std::size_t bit = 52 * j, i = bit / 64, s = bit % 64;
    __m512i x = _mm512_srli_epi64(w[i], unsigned(s));
    if (s > 12 && i + 1 < N) x = _mm512_or_si512(x, _mm512_slli_epi64(w[i + 1], unsigned(64 - s)));
    v.l[j] = _mm512_and_si512(x, mask);
  }
  return v;
}

/* v (below 2p) reduced below p and written to addr_i + offset, one lane to each (the addresses distinct) */
template <class P>
CUZK_IFMA_INLINE void scatter(__m512i addr, std::size_t offset, const vec<P>& v) {
  constexpr std::size_t N = P::n_limbs, L = vec<P>::L;
  const vec<P> c = canonical(v);
  for (std::size_t i = 0; i < N; ++i) {
    __m512i w = _mm512_setzero_si512();
    for (std::size_t j = 0; j < L; ++j) { /* limb j holds bits 52j ... 52j + 51 */
      const long shift = long(52 * j) - long(64 * i);
      if (shift >= 64 || shift <= -52) continue;
      w = _mm512_or_si512(
          w, shift >= 0 ? _mm512_slli_epi64(c.l[j], unsigned(shift)) : _mm512_srli_epi64(c.l[j], unsigned(-shift)));
    }
    _mm512_i64scatter_epi64(nullptr, _mm512_add_epi64(addr, _mm512_set1_epi64(std::int64_t(offset + 8 * i))), w, 1);
  }
}
#pragma GCC diagnostic pop
#endif

}  // namespace cuzk::ff::ifma
