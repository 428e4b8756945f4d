// Prime fields in Montgomery form on 64-bit limbs: x is stored as xR mod m,
// R = 2^(64N). Params supply the modulus and the constants of constants.hpp.
#pragma once

#include <array>
#include <cstdint>
#include <cstring>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "ff/limbs.hpp"
#include "ff/x86_mont.hpp"

namespace cuzk::ff {

template <class P>
class mont_field {
 public:
  static constexpr std::size_t n_limbs = P::n_limbs;
  static constexpr std::size_t n_bytes = 8 * n_limbs;
  static constexpr std::size_t bits = P::bits;
  using params = P;
  using limbs_t = limbs::big<n_limbs>;

  limbs_t l{};  // Montgomery representation, always fully reduced (< m)

  constexpr mont_field() = default;

  static mont_field zero() { return {}; }
  static mont_field one() { return from_montgomery(P::r1); }
  static mont_field from_montgomery(const limbs_t& m) {
    mont_field r;
    r.l = m;
    return r;
  }
  static mont_field from_u64(std::uint64_t v) {
    limbs_t c{};
    c[0] = v;
    return from_canonical_unchecked(c);
  }
  /* xR = mont(x, R^2); the caller guarantees x < m */
  static mont_field from_canonical_unchecked(const limbs_t& c) { return from_montgomery(c) * from_montgomery(P::r2); }
  /* Rejects x >= m. */
  static std::optional<mont_field> from_canonical(const limbs_t& c) {
    if (!limbs::less(c, P::modulus)) return std::nullopt;
    return from_canonical_unchecked(c);
  }
  /* x = mont(xR, 1) */
  limbs_t to_canonical() const {
    limbs_t one{};
    one[0] = 1;
    return (*this * from_montgomery(one)).l;
  }

  static std::optional<mont_field> from_bytes_le(std::span<const std::uint8_t> b) {
    if (b.size() != n_bytes) return std::nullopt;
    limbs_t c{};
    for (std::size_t i = 0; i < n_bytes; ++i) c[i / 8] |= (std::uint64_t)b[i] << (8 * (i % 8));
    return from_canonical(c);
  }
  static std::optional<mont_field> from_bytes_be(std::span<const std::uint8_t> b) {
    if (b.size() != n_bytes) return std::nullopt;
    std::array<std::uint8_t, n_bytes> le;
    for (std::size_t i = 0; i < n_bytes; ++i) le[i] = b[n_bytes - 1 - i];
    return from_bytes_le(le);
  }
  std::array<std::uint8_t, n_bytes> to_bytes_le() const {
    std::array<std::uint8_t, n_bytes> out;
    limbs_t c = to_canonical();
    for (std::size_t i = 0; i < n_bytes; ++i) out[i] = (std::uint8_t)(c[i / 8] >> (8 * (i % 8)));
    return out;
  }
  std::array<std::uint8_t, n_bytes> to_bytes_be() const {
    auto le = to_bytes_le();
    std::array<std::uint8_t, n_bytes> out;
    for (std::size_t i = 0; i < n_bytes; ++i) out[i] = le[n_bytes - 1 - i];
    return out;
  }

  /* Decimal digits only (no sign, no spaces); rejects values >= m. */
  static std::optional<mont_field> from_decimal(std::string_view s) {
    if (s.empty() || s.size() > 200) return std::nullopt;
    limbs_t c{};
    for (char ch : s) {
      if (ch < '0' || ch > '9') return std::nullopt;
      std::uint64_t carry = (std::uint64_t)(ch - '0');
      for (auto& w : c) {  // c = 10 c + digit
        limbs::u128 t = (limbs::u128)w * 10 + carry;
        w = (std::uint64_t)t;
        carry = (std::uint64_t)(t >> 64);
      }
      if (carry) return std::nullopt;
    }
    return from_canonical(c);
  }
  std::string to_decimal() const {
    limbs_t c = to_canonical();
    std::string digits;
    constexpr std::uint64_t base = 10000000000000000000ull;  // 10^19
    while (!limbs::is_zero(c)) {
      std::uint64_t rem = 0;
      for (std::size_t i = n_limbs; i-- > 0;) {  // c, rem = divmod(c, 10^19)
        limbs::u128 cur = ((limbs::u128)rem << 64) | c[i];
        c[i] = (std::uint64_t)(cur / base);
        rem = (std::uint64_t)(cur % base);
      }
      for (int k = 0; k < 19; ++k) {
        digits.push_back(char('0' + rem % 10));
        rem /= 10;
      }
    }
    while (digits.size() > 1 && digits.back() == '0') digits.pop_back();
    if (digits.empty()) digits = "0";
    return {digits.rbegin(), digits.rend()};
  }

  /* Uniform in [0, m): draw `bits` random bits until the value is below m. */
  template <class Rng>
  static mont_field random(Rng& rng) {
    for (;;) {
      limbs_t c;
      for (auto& w : c) w = rng();
      if constexpr (bits % 64 != 0) c[n_limbs - 1] &= (std::uint64_t{1} << (bits % 64)) - 1;
      if (auto v = from_canonical(c)) return *v;
    }
  }

  bool is_zero() const { return limbs::is_zero(l); }
  bool is_one() const { return l == P::r1; }
  friend bool operator==(const mont_field& a, const mont_field& b) { return a.l == b.l; }

  /* a + b mod m: m < 2^(64N-1), so a + b never carries out of N limbs */
  friend CUZK_FF_INLINE mont_field operator+(const mont_field& a, const mont_field& b) {
    mont_field r;
    limbs::add(r.l, a.l, b.l);
    r.reduce_once();
    return r;
  }
  friend CUZK_FF_INLINE mont_field operator-(const mont_field& a, const mont_field& b) {
    /* a - b, plus m under a mask when it borrowed: no data-dependent branch,
       which the NTT butterflies and bucket sums would mispredict half the time */
    mont_field r;
    const std::uint64_t mask = 0 - limbs::sub(r.l, a.l, b.l);
    limbs_t m;
    for (std::size_t i = 0; i < n_limbs; ++i) m[i] = P::modulus[i] & mask;
    limbs::add(r.l, r.l, m);
    return r;
  }
  mont_field operator-() const {
    if (is_zero()) return *this;
    mont_field r;
    limbs::sub(r.l, P::modulus, l);
    return r;
  }
  mont_field dbl() const { return *this + *this; }

  /* Montgomery product a b R^-1 mod m (CIOS, with the "no-carry" shortcut
     valid because the top limb of m is below 2^63 - 1; gnark-crypto,
     "Faster Montgomery multiplication", hackmd.io/@gnark/modular_multiplication) */
  friend CUZK_FF_INLINE mont_field operator*(const mont_field& a, const mont_field& b) {
#if CUZK_FF_X86
    if constexpr ((n_limbs == 4 || n_limbs == 6) && P::modulus[n_limbs - 1] < 0x7fffffffffffffffull) {
      if (x86::use_adx) [[likely]] {  // p < 2^(64N−1): see x86_mont.hpp
        mont_field r;
        if constexpr (n_limbs == 4)
          x86::mont_mul4(r.l.data(), a.l.data(), b.l.data(), P::modulus.data(), P::inv);
        else
          x86::mont_mul6(r.l.data(), a.l.data(), b.l.data(), P::modulus.data(), P::inv);
        r.reduce_once();
        return r;
      }
      return mul_plain_cold(a, b);
    }
#endif
    return mul_plain(a, b);
  }
#if CUZK_FF_X86
  /* the portable path kept out of line where the fast one is inlined */
  [[gnu::noinline, gnu::cold]] static mont_field mul_plain_cold(const mont_field& a, const mont_field& b) {
    return mul_plain(a, b);
  }
#endif
  /* The portable path (and the only one where the CPU lacks ADX, or with CUZK_FF_PLAIN=1). */
  static mont_field mul_plain(const mont_field& a, const mont_field& b) {
    using limbs::u128;
    using limbs::u64;
    constexpr std::size_t N = n_limbs;
    u64 t[N] = {};
    for (std::size_t i = 0; i < N; ++i) {
      u128 x = (u128)a.l[0] * b.l[i] + t[0];
      u64 A = (u64)(x >> 64);
      u64 t0 = (u64)x;
      u64 m = t0 * P::inv;
      x = (u128)m * P::modulus[0] + t0;
      u64 C = (u64)(x >> 64);
      for (std::size_t j = 1; j < N; ++j) {
        x = (u128)a.l[j] * b.l[i] + t[j] + A;
        A = (u64)(x >> 64);
        x = (u128)m * P::modulus[j] + (u64)x + C;
        C = (u64)(x >> 64);
        t[j - 1] = (u64)x;
      }
      t[N - 1] = C + A;
    }
    mont_field r;
    for (std::size_t i = 0; i < N; ++i) r.l[i] = t[i];
    r.reduce_once();
    return r;
  }
  /* a^2 R^-1 mod m. With 6 limbs the dedicated square (15 fewer limb products)
     is ~18% faster than a * a; with 4 limbs it is not (measured), so a * a. */
  mont_field sqr() const {
    if constexpr (n_limbs <= 4)
      return *this * *this;
    else
      return sqr_dedicated();
  }

  mont_field& operator+=(const mont_field& b) { return *this = *this + b; }
  mont_field& operator-=(const mont_field& b) { return *this = *this - b; }
  mont_field& operator*=(const mont_field& b) { return *this = *this * b; }

  /* a^e for a little-endian exponent of any width (left-to-right square and multiply) */
  template <std::size_t M>
  mont_field pow(const limbs::big<M>& e) const {
    mont_field r = one();
    for (std::size_t i = limbs::bit_length(e); i-- > 0;) {
      r = r.sqr();
      if (limbs::bit(e, i)) r *= *this;
    }
    return r;
  }
  mont_field pow(std::uint64_t e) const { return pow(limbs::big<1>{e}); }

  /* a^-1: the integer inverse (aR)^-1 mod m by safegcd (limbs::inverse_mod),
     then (aR)^-1 * R^3 * R^-1 = a^-1 R. Zero has no inverse and maps to zero. */
  mont_field inverse() const {
    if (is_zero()) return {};
    return from_montgomery(limbs::inverse_mod(l, P::modulus)) * from_montgomery(P::r3);
  }

  /* Legendre symbol a^((m-1)/2): 1, -1 or 0 */
  int legendre() const {
    if (is_zero()) return 0;
    return pow(P::m_minus1_over2).is_one() ? 1 : -1;
  }

  /* Tonelli-Shanks (m - 1 = 2^s t); for Fp (s = 1) it reduces to a^((p+1)/4). */
  std::optional<mont_field> sqrt() const {
    if (is_zero()) return zero();
    mont_field w = pow(P::t_minus1_over2);  // a^((t-1)/2)
    mont_field x = *this * w;               // a^((t+1)/2)
    mont_field b = x * w;                   // a^t
    mont_field z = from_montgomery(P::root_of_unity);
    unsigned v = P::two_adicity;
    while (!b.is_one()) {
      unsigned k = 0;
      mont_field b2k = b;
      while (!b2k.is_one()) {
        b2k = b2k.sqr();
        if (++k == v) return std::nullopt;  // not a square
      }
      mont_field w2 = z;
      for (unsigned j = 0; j + k + 1 < v; ++j) w2 = w2.sqr();  // z^(2^(v-k-1))
      z = w2.sqr();
      b *= z;
      x *= w2;
      v = k;
    }
    return x;
  }

 private:
  /* The double-width square
       a^2 = sum_i a_i^2 2^(128 i) + 2 sum_{i<j} a_i a_j 2^(64 (i+j)),
     then N word-by-word Montgomery reductions t <- (t + (t_0 inv mod 2^64) m) / 2^64.
     t < m^2 + m R < 2 m R <= R^2 since 2m < R, so nothing carries out of 2N limbs. */
  mont_field sqr_dedicated() const {
    using limbs::u128;
    using limbs::u64;
    constexpr std::size_t N = n_limbs;
    u64 t[2 * N];
    t[0] = 0;
    {  // a_0 a_j
      u64 c = 0;
#pragma GCC unroll 8
      for (std::size_t j = 1; j < N; ++j) {
        u128 x = (u128)l[0] * l[j] + c;
        t[j] = (u64)x;
        c = (u64)(x >> 64);
      }
      t[N] = c;
    }
#pragma GCC unroll 8
    for (std::size_t i = 1; i + 1 < N; ++i) {  // a_i a_j, i < j
      u64 c = 0;
#pragma GCC unroll 8
      for (std::size_t j = i + 1; j < N; ++j) {
        u128 x = (u128)l[i] * l[j] + t[i + j] + c;
        t[i + j] = (u64)x;
        c = (u64)(x >> 64);
      }
      t[i + N] = c;
    }
    t[2 * N - 1] = t[2 * N - 2] >> 63;  // doubled
#pragma GCC unroll 16
    for (std::size_t k = 2 * N - 2; k > 0; --k) t[k] = (t[k] << 1) | (t[k - 1] >> 63);
    u64 c = 0;
#pragma GCC unroll 8
    for (std::size_t i = 0; i < N; ++i) {  // + a_i^2
      u128 sq = (u128)l[i] * l[i];
      u128 x = (u128)t[2 * i] + (u64)sq + c;
      t[2 * i] = (u64)x;
      x = (u128)t[2 * i + 1] + (u64)(sq >> 64) + (u64)(x >> 64);
      t[2 * i + 1] = (u64)x;
      c = (u64)(x >> 64);
    }
    u64 hi = 0;
#pragma GCC unroll 8
    for (std::size_t i = 0; i < N; ++i) {  // Montgomery reduction
      u64 m = t[i] * P::inv;
      u128 x = (u128)m * P::modulus[0] + t[i];
      c = (u64)(x >> 64);
#pragma GCC unroll 8
      for (std::size_t j = 1; j < N; ++j) {
        x = (u128)m * P::modulus[j] + t[i + j] + c;
        t[i + j] = (u64)x;
        c = (u64)(x >> 64);
      }
      x = (u128)t[i + N] + c + hi;
      t[i + N] = (u64)x;
      hi = (u64)(x >> 64);
    }
    mont_field r;
    for (std::size_t i = 0; i < N; ++i) r.l[i] = t[N + i];
    r.reduce_once();
    return r;
  }

  /* l - m when l >= m, selected by mask rather than a branch */
  CUZK_FF_INLINE void reduce_once() {
    limbs_t t;
    const std::uint64_t keep = 0 - limbs::sub(t, l, P::modulus);
    for (std::size_t i = 0; i < n_limbs; ++i) l[i] = (l[i] & keep) | (t[i] & ~keep);
  }
};

}  // namespace cuzk::ff
