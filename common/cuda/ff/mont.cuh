// Prime fields in Montgomery form on 32-bit limbs, for the device (and the
// host: the same template runs on the CPU, where the tests check it against
// cuzk::ff). x is stored as xR mod m, R = 2^(32n), always fully reduced (< m).
//
// The config P supplies: n (limbs), bits, modulus(), one() (R mod m), r2()
// (R^2 mod m), inv (-m^-1 mod 2^32) and exponent() (m - 2, for inverses);
// ff/constants.cuh derives them from a curve's 64-bit parameters. The modulus must
// leave the top bit of R free (m < R/2) and n must be even.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuda/ff/carry_chain.cuh"

namespace cuzk::cuda {

/* x^e for a field element type T (one(), sqr(), *=; mont and fp2), e little-endian words, left to right.
   The words rotate through registers (no indexed array: nothing goes to local memory). */
template <class T, std::size_t K>
CUZK_HDI T pow_words(const T& x, const limbs32<K>& e) {
  std::uint32_t w[K];
  CUZK_UNROLL
  for (std::size_t i = 0; i < K; ++i) w[i] = e.w[i];
  T r = T::one();
  CUZK_NO_UNROLL
  for (std::size_t i = 0; i < K; ++i) {
    const std::uint32_t top = w[K - 1];
    CUZK_UNROLL
    for (std::size_t k = K - 1; k > 0; --k) w[k] = w[k - 1];
    CUZK_NO_UNROLL
    for (int b = 31; b >= 0; --b) {
      r = r.sqr();
      if ((top >> b) & 1) r *= x;
    }
  }
  return r;
}

template <class P>
struct alignas(16) mont {  // 16: the device moves it with 128-bit loads
  static constexpr std::size_t n = P::n;
  static constexpr std::size_t bits = P::bits;
  static_assert(n % 2 == 0 && n >= 4, "even/odd accumulators need an even limb count");
  using config = P;

  std::uint32_t v[n];

  CUZK_HDI static mont zero() { return mont{}; }
  CUZK_HDI static mont one() { return from_limbs(P::one()); }
  CUZK_HDI static mont from_limbs(const limbs32<n>& l) {
    mont r;
    CUZK_UNROLL
    for (std::size_t i = 0; i < n; ++i) r.v[i] = l.w[i];
    return r;
  }
  /* xR = mont(x, R^2); the caller guarantees x < m */
  CUZK_HDI static mont from_canonical(const std::uint32_t in[n]) {
    mont x;
    CUZK_UNROLL
    for (std::size_t i = 0; i < n; ++i) x.v[i] = in[i];
    return x * from_limbs(P::r2());
  }
  CUZK_HDI static mont from_u32(std::uint32_t x) {
    std::uint32_t c[n] = {x};
    return from_canonical(c);
  }
  /* x = mont(xR, 1) */
  CUZK_HDI void to_canonical(std::uint32_t out[n]) const {
    mont one_int{};
    one_int.v[0] = 1;
    mont r = *this * one_int;
    CUZK_UNROLL
    for (std::size_t i = 0; i < n; ++i) out[i] = r.v[i];
  }

  CUZK_HDI bool is_zero() const {
    std::uint32_t acc = 0;
    CUZK_UNROLL
    for (std::size_t i = 0; i < n; ++i) acc |= v[i];
    return acc == 0;
  }
  CUZK_HDI bool is_one() const {
    constexpr limbs32<n> R = P::one();
    std::uint32_t acc = 0;
    CUZK_UNROLL
    for (std::size_t i = 0; i < n; ++i) acc |= v[i] ^ R.w[i];
    return acc == 0;
  }
  CUZK_HDI friend bool operator==(const mont& a, const mont& b) {
    std::uint32_t acc = 0;
    CUZK_UNROLL
    for (std::size_t i = 0; i < n; ++i) acc |= a.v[i] ^ b.v[i];
    return acc == 0;
  }
  CUZK_HDI friend bool operator!=(const mont& a, const mont& b) { return !(a == b); }

  /* ---- addition: the chains of the pass (PTX on the device) ---- */

  /* a + b - m when that does not borrow, else a + b: m < R/2, so a + b < R never carries out */
  template <class C>
  CUZK_HDI static mont add(const mont& a, const mont& b, C& c) {
    constexpr limbs32<n> M = P::modulus();
    std::uint32_t t[n];
    mont r;
    t[0] = c.add_cc(a.v[0], b.v[0]);
    CUZK_UNROLL
    for (std::size_t i = 1; i < n - 1; ++i) t[i] = c.addc_cc(a.v[i], b.v[i]);
    t[n - 1] = c.addc_last(a.v[n - 1], b.v[n - 1]);
    r.v[0] = c.sub_cc(t[0], M.w[0]);
    CUZK_UNROLL
    for (std::size_t i = 1; i < n; ++i) r.v[i] = c.subc_cc(t[i], M.w[i]);
    const std::uint32_t borrow = c.subc(0, 0);  // all ones when a + b < m
    CUZK_UNROLL
    for (std::size_t i = 0; i < n; ++i) r.v[i] = borrow ? t[i] : r.v[i];
    return r;
  }
  /* a - b, plus m when that borrowed (the carry out of + m is the borrow's wrap) */
  template <class C>
  CUZK_HDI static mont sub(const mont& a, const mont& b, C& c) {
    constexpr limbs32<n> M = P::modulus();
    std::uint32_t t[n];
    mont r;
    t[0] = c.sub_cc(a.v[0], b.v[0]);
    CUZK_UNROLL
    for (std::size_t i = 1; i < n; ++i) t[i] = c.subc_cc(a.v[i], b.v[i]);
    const std::uint32_t mask = c.subc(0, 0);
    r.v[0] = c.add_cc(t[0], M.w[0] & mask);
    CUZK_UNROLL
    for (std::size_t i = 1; i < n - 1; ++i) r.v[i] = c.addc_cc(t[i], M.w[i] & mask);
    r.v[n - 1] = c.addc(t[n - 1], M.w[n - 1] & mask);
    return r;
  }
  /* m - a, or 0 for 0 */
  template <class C>
  CUZK_HDI static mont neg(const mont& a, C& c) {
    constexpr limbs32<n> M = P::modulus();
    mont r;
    r.v[0] = c.sub_cc(M.w[0], a.v[0]);
    CUZK_UNROLL
    for (std::size_t i = 1; i < n - 1; ++i) r.v[i] = c.subc_cc(M.w[i], a.v[i]);
    r.v[n - 1] = c.subc(M.w[n - 1], a.v[n - 1]);
    const bool z = a.is_zero();
    CUZK_UNROLL
    for (std::size_t i = 0; i < n; ++i) r.v[i] = z ? 0u : r.v[i];
    return r;
  }

  /* ---- multiplication ----
     Montgomery a b R^-1 mod m, word-serial ("CIOS") with the reduction
     interleaved, and the partial products split between two accumulators
     (the technique of sppark's ff/mont_t.cuh): the products of the even limbs
     a_0 b_i, a_2 b_i, ... cover the word pairs (0,1), (2,3), ... without
     overlap, so x += a_even b_i is ONE madc.lo/madc.hi chain; the odd limbs'
     products (1,2), (3,4), ... go to a second accumulator y, aligned one word
     up, in a second chain. x + 2^32 y is the CIOS accumulator T:
       T <- (T + a b_i + q m) / 2^32,  q = (T + a b_i)_0 (-m^-1) mod 2^32.
     The division by 2^32 makes y the word-aligned accumulator of the next
     row and x (shifted down two words) its odd one, so the rows alternate
     roles. T < 2m before each row, and T + a b_i + q m < 2m + 2^33 m, below
     2^(32(n+1)) for every field here (m < 2^255): y never carries out of its n words. */
 private:
  /* the first row: x = a_even b_0, y = a_odd b_0 (no carries) */
  template <class C>
  CUZK_HDI static void first_row(std::uint32_t* x, std::uint32_t* y, const std::uint32_t* a, std::uint32_t bi, C&) {
    CUZK_UNROLL
    for (std::size_t j = 0; j < n; j += 2) {
      x[j] = a[j] * bi;
      x[j + 1] = mul_hi(a[j], bi);
      y[j] = a[j + 1] * bi;
      y[j + 1] = mul_hi(a[j + 1], bi);
    }
  }
  /* x aligned at word 0 (the last row's y); y the last row's x, whose word k is now at k - 1 (y_0 = 0) */
  template <class C>
  CUZK_HDI static void next_row(std::uint32_t* x, std::uint32_t* y, const std::uint32_t* a, std::uint32_t bi, C& c) {
    c.discard(y[0]);
    x[0] = c.add_cc(x[0], y[1]);  // word 0 of the old y joins x; its carry goes to word 1 = new y_0
    CUZK_UNROLL
    for (std::size_t j = 0; j + 2 < n; j += 2) {  // y <- y >> 2 words + a_odd b_i
      y[j] = c.madc_lo_cc(a[j + 1], bi, y[j + 2]);
      y[j + 1] = c.madc_hi_cc(a[j + 1], bi, y[j + 3]);
    }
    y[n - 2] = c.madc_lo_cc(a[n - 1], bi, 0);
    y[n - 1] = c.madc_hi_last(a[n - 1], bi, 0);
    x[0] = c.mad_lo_cc(a[0], bi, x[0]);  // x += a_even b_i
    x[1] = c.madc_hi_cc(a[0], bi, x[1]);
    CUZK_UNROLL
    for (std::size_t j = 2; j < n; j += 2) {
      x[j] = c.madc_lo_cc(a[j], bi, x[j]);
      x[j + 1] = c.madc_hi_cc(a[j], bi, x[j + 1]);
    }
    y[n - 1] = c.addc_last(y[n - 1], 0);  // word n
  }
  /* T += q m, q = x_0 (-m^-1): afterwards x_0 = 0 */
  template <class C>
  CUZK_HDI static void reduce_row(std::uint32_t* x, std::uint32_t* y, C& c) {
    constexpr limbs32<n> M = P::modulus();
    const std::uint32_t q = x[0] * P::inv;
    y[0] = c.mad_lo_cc(M.w[1], q, y[0]);  // y += m_odd q
    y[1] = c.madc_hi_cc(M.w[1], q, y[1]);
    CUZK_UNROLL
    for (std::size_t j = 2; j < n; j += 2) {
      y[j] = c.madc_lo_cc(M.w[j + 1], q, y[j]);
      y[j + 1] = c.madc_hi_cc(M.w[j + 1], q, y[j + 1]);
    }
    c.drop();                             // word n + 1
    x[0] = c.mad_lo_cc(M.w[0], q, x[0]);  // x += m_even q
    x[1] = c.madc_hi_cc(M.w[0], q, x[1]);
    CUZK_UNROLL
    for (std::size_t j = 2; j < n; j += 2) {
      x[j] = c.madc_lo_cc(M.w[j], q, x[j]);
      x[j + 1] = c.madc_hi_cc(M.w[j], q, x[j + 1]);
    }
    y[n - 1] = c.addc_last(y[n - 1], 0);
  }
  /* x += m_even q, its carry into y's top word */
  template <class C>
  CUZK_HDI static void add_m_even(std::uint32_t* x, std::uint32_t* y, std::uint32_t q, C& c) {
    constexpr limbs32<n> M = P::modulus();
    x[0] = c.mad_lo_cc(M.w[0], q, x[0]);
    x[1] = c.madc_hi_cc(M.w[0], q, x[1]);
    CUZK_UNROLL
    for (std::size_t j = 2; j < n; j += 2) {
      x[j] = c.madc_lo_cc(M.w[j], q, x[j]);
      x[j + 1] = c.madc_hi_cc(M.w[j], q, x[j + 1]);
    }
    y[n - 1] = c.addc_last(y[n - 1], 0);
  }
  /* A reduction round without a product row: x aligned at word 0, y the last
     round's x (word k at k - 1). The shift of y rides on its m_odd q chain. */
  template <class C>
  CUZK_HDI static void reduce_shifted(std::uint32_t* x, std::uint32_t* y, C& c) {
    constexpr limbs32<n> M = P::modulus();
    c.discard(y[0]);
    x[0] = c.add_cc(x[0], y[1]);
    const std::uint32_t q = x[0] * P::inv;  // no CC in between: mul.lo leaves the carry alone
    CUZK_UNROLL
    for (std::size_t j = 0; j + 2 < n; j += 2) {
      y[j] = c.madc_lo_cc(M.w[j + 1], q, y[j + 2]);
      y[j + 1] = c.madc_hi_cc(M.w[j + 1], q, y[j + 3]);
    }
    y[n - 2] = c.madc_lo_cc(M.w[n - 1], q, 0);
    y[n - 1] = c.madc_hi_last(M.w[n - 1], q, 0);
    add_m_even(x, y, q, c);
  }
  CUZK_HDI static std::uint32_t mul_hi(std::uint32_t a, std::uint32_t b) {
#ifdef __CUDA_ARCH__
    return __umulhi(a, b);
#else
    return std::uint32_t((std::uint64_t(a) * b) >> 32);
#endif
  }
  /* t - m when that does not borrow (t < 2m) */
  template <class C>
  CUZK_HDI static mont reduce_once(const std::uint32_t* t, C& c) {
    constexpr limbs32<n> M = P::modulus();
    mont r;
    r.v[0] = c.sub_cc(t[0], M.w[0]);
    CUZK_UNROLL
    for (std::size_t i = 1; i < n; ++i) r.v[i] = c.subc_cc(t[i], M.w[i]);
    const std::uint32_t borrow = c.subc(0, 0);
    CUZK_UNROLL
    for (std::size_t i = 0; i < n; ++i) r.v[i] = borrow ? t[i] : r.v[i];
    return r;
  }

 public:
  /* The device's multiplication, on any chain (the tests run it emulated on the host). */
  template <class C>
  CUZK_HDI static mont mul(const mont& a, const mont& b, C& c) {
    std::uint32_t x[n], y[n];
    first_row(x, y, a.v, b.v[0], c);
    reduce_row(x, y, c);
    next_row(y, x, a.v, b.v[1], c);
    reduce_row(y, x, c);
    CUZK_UNROLL
    for (std::size_t i = 2; i < n; i += 2) {
      next_row(x, y, a.v, b.v[i], c);
      reduce_row(x, y, c);
      next_row(y, x, a.v, b.v[i + 1], c);
      reduce_row(y, x, c);
    }
    // T = x + (y >> 1 word), below 2m
    c.discard(y[0]);
    x[0] = c.add_cc(x[0], y[1]);
    CUZK_UNROLL
    for (std::size_t i = 1; i + 1 < n; ++i) x[i] = c.addc_cc(x[i], y[i + 1]);
    x[n - 1] = c.addc_last(x[n - 1], 0);
    return reduce_once(x, c);
  }

  /* The device's squaring, on any chain: the full square
       a^2 = 2 sum_{i<j} a_i a_j 2^(32(i+j)) + sum_i a_i^2 2^(64 i)
     (the cross products of row i split by the parity of i + j into two
     carry chains, as the multiplication's), then the Montgomery reduction of
     its low half L alone, (L + Q m) / R <= m, plus its high half H < m: at
     most 2m - 1, one conditional subtraction. The reduction rounds fold the
     one-word shift into the madc chain of m_odd q (sppark's mul_by_1). */
  template <class C>
  CUZK_HDI static mont sqr(const mont& a, C& c) {
    constexpr limbs32<n> M = P::modulus();
    std::uint32_t e[2 * n] = {}, o[2 * n - 1] = {};  // e_k at word k, o_k at word k + 1
    CUZK_UNROLL
    for (std::size_t i = 0; i + 1 < n; ++i) {
      if (i + 2 < n) {  // a_i a_j, i + j even
        e[2 * i + 2] = c.mad_lo_cc(a.v[i], a.v[i + 2], e[2 * i + 2]);
        e[2 * i + 3] = c.madc_hi_cc(a.v[i], a.v[i + 2], e[2 * i + 3]);
        std::size_t p = 2 * i + 2;
        CUZK_UNROLL
        for (std::size_t j = i + 4; j < n; j += 2) {
          p = i + j;
          e[p] = c.madc_lo_cc(a.v[i], a.v[j], e[p]);
          e[p + 1] = c.madc_hi_cc(a.v[i], a.v[j], e[p + 1]);
        }
        e[p + 2] = c.addc_last(e[p + 2], 0);
      }
      {  // a_i a_j, i + j odd
        o[2 * i] = c.mad_lo_cc(a.v[i], a.v[i + 1], o[2 * i]);
        o[2 * i + 1] = c.madc_hi_cc(a.v[i], a.v[i + 1], o[2 * i + 1]);
        std::size_t k = 2 * i;
        CUZK_UNROLL
        for (std::size_t j = i + 3; j < n; j += 2) {
          k = i + j - 1;
          o[k] = c.madc_lo_cc(a.v[i], a.v[j], o[k]);
          o[k + 1] = c.madc_hi_cc(a.v[i], a.v[j], o[k + 1]);
        }
        if (k + 2 < 2 * n - 1) o[k + 2] = c.addc_last(o[k + 2], 0);
      }
    }
    e[1] = c.add_cc(e[1], o[0]);  // e + o: the cross sum, below 2^(64n - 1)
    CUZK_UNROLL
    for (std::size_t k = 2; k < 2 * n; ++k) e[k] = c.addc_cc(e[k], o[k - 1]);
    c.drop();
    e[0] = c.add_cc(e[0], e[0]);  // doubled
    CUZK_UNROLL
    for (std::size_t k = 1; k < 2 * n; ++k) e[k] = c.addc_cc(e[k], e[k]);
    c.drop();
    e[0] = c.mad_lo_cc(a.v[0], a.v[0], e[0]);  // + a_i^2
    e[1] = c.madc_hi_cc(a.v[0], a.v[0], e[1]);
    CUZK_UNROLL
    for (std::size_t i = 1; i < n; ++i) {
      e[2 * i] = c.madc_lo_cc(a.v[i], a.v[i], e[2 * i]);
      e[2 * i + 1] = c.madc_hi_cc(a.v[i], a.v[i], e[2 * i + 1]);
    }
    c.drop();
    // Montgomery reduction of L = e_0 .. e_(n-1): x aligned at word 0, y one word up
    std::uint32_t x[n], y[n];
    CUZK_UNROLL
    for (std::size_t i = 0; i < n; ++i) x[i] = e[i];
    {
      const std::uint32_t q = x[0] * P::inv;
      CUZK_UNROLL
      for (std::size_t j = 0; j < n; j += 2) {
        y[j] = M.w[j + 1] * q;
        y[j + 1] = mul_hi(M.w[j + 1], q);
      }
      add_m_even(x, y, q, c);
    }
    CUZK_UNROLL
    for (std::size_t r = 1; r < n; ++r) {
      if (r % 2)
        reduce_shifted(y, x, c);
      else
        reduce_shifted(x, y, c);
    }
    c.discard(y[0]);  // T = x + (y >> 1 word) <= m, then + H
    x[0] = c.add_cc(x[0], y[1]);
    CUZK_UNROLL
    for (std::size_t i = 1; i + 1 < n; ++i) x[i] = c.addc_cc(x[i], y[i + 1]);
    x[n - 1] = c.addc_last(x[n - 1], 0);
    x[0] = c.add_cc(x[0], e[n]);
    CUZK_UNROLL
    for (std::size_t i = 1; i + 1 < n; ++i) x[i] = c.addc_cc(x[i], e[n + i]);
    x[n - 1] = c.addc_last(x[n - 1], e[2 * n - 1]);
    return reduce_once(x, c);
  }

  /* The host's multiplication: textbook CIOS on 64-bit products (Koç, Acar,
     Kaliski, "Analyzing and comparing Montgomery multiplication algorithms", 1996). */
  CUZK_HDI static mont mul_portable(const mont& a, const mont& b) {
    constexpr limbs32<n> M = P::modulus();
    std::uint32_t t[n + 2] = {};
    for (std::size_t i = 0; i < n; ++i) {
      std::uint64_t s, carry = 0;
      for (std::size_t j = 0; j < n; ++j) {  // T += a b_i
        s = std::uint64_t(a.v[j]) * b.v[i] + t[j] + carry;
        t[j] = std::uint32_t(s);
        carry = s >> 32;
      }
      s = std::uint64_t(t[n]) + carry;
      t[n] = std::uint32_t(s);
      t[n + 1] = std::uint32_t(s >> 32);
      const std::uint32_t q = t[0] * P::inv;  // T = (T + q m) / 2^32
      s = std::uint64_t(q) * M.w[0] + t[0];
      carry = s >> 32;
      for (std::size_t j = 1; j < n; ++j) {
        s = std::uint64_t(q) * M.w[j] + t[j] + carry;
        t[j - 1] = std::uint32_t(s);
        carry = s >> 32;
      }
      s = std::uint64_t(t[n]) + carry;
      t[n - 1] = std::uint32_t(s);
      t[n] = t[n + 1] + std::uint32_t(s >> 32);
    }
    carry::emulated c;
    return reduce_once(t, c);
  }

  CUZK_HDI friend mont operator+(const mont& a, const mont& b) {
    carry::native c;
    return add(a, b, c);
  }
  CUZK_HDI friend mont operator-(const mont& a, const mont& b) {
    carry::native c;
    return sub(a, b, c);
  }
  CUZK_HDI mont operator-() const {
    carry::native c;
    return neg(*this, c);
  }
  CUZK_HDI friend mont operator*(const mont& a, const mont& b) {
#ifdef __CUDA_ARCH__
    carry::ptx c;
    return mul(a, b, c);
#else
    return mul_portable(a, b);
#endif
  }
  CUZK_HDI mont sqr() const {
#ifdef __CUDA_ARCH__
    carry::ptx c;
    return sqr(*this, c);
#else
    return mul_portable(*this, *this);
#endif
  }
  CUZK_HDI mont dbl() const { return *this + *this; }
  /* -a when flag, else a */
  CUZK_HDI mont cneg(bool flag) const {
    mont r = -*this;
    CUZK_UNROLL
    for (std::size_t i = 0; i < n; ++i) r.v[i] = flag ? r.v[i] : v[i];
    return r;
  }

  CUZK_HDI mont& operator+=(const mont& b) { return *this = *this + b; }
  CUZK_HDI mont& operator-=(const mont& b) { return *this = *this - b; }
  CUZK_HDI mont& operator*=(const mont& b) { return *this = *this * b; }

  template <std::size_t K>
  CUZK_HDI mont pow(const limbs32<K>& e) const {
    return pow_words(*this, e);
  }
  CUZK_HDI mont pow(std::uint64_t e) const { return pow(limbs32<2>{{std::uint32_t(e), std::uint32_t(e >> 32)}}); }

  /* a^(m-2) (Fermat); 0 maps to 0 */
  CUZK_HDI mont inverse() const { return pow(P::exponent()); }
};

}  // namespace cuzk::cuda
