// Field elements to and from the byte layouts of the point encodings:
// canonical big-endian (zcash/IETF, ffjavascript "U") and Montgomery
// little-endian (ffjavascript "LEM": R = 2^(64N), exactly the field's own
// limbs), for either curve: 48-byte coordinates on BLS12-381, 32 on BN254.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "ec/config.hpp"

namespace cuzk::ec::bytes {

inline constexpr std::size_t fp_size = fp_t::n_bytes;  // BLS12-381's 48

inline bool all_zero(std::span<const std::uint8_t> b) {
  return std::all_of(b.begin(), b.end(), [](std::uint8_t v) { return v == 0; });
}

/* F is an Fp (mont_field) or an Fp2 of some curve */
template <class F>
struct field_layout;
template <class P>
struct field_layout<ff::mont_field<P>> {
  using base_t = ff::mont_field<P>;
  static constexpr std::size_t coordinate = base_t::n_bytes;
  static constexpr std::size_t size = coordinate;
};
template <class C>
struct field_layout<ff::fp2<C>> {
  using base_t = ff::fp<C>;
  static constexpr std::size_t coordinate = base_t::n_bytes;
  static constexpr std::size_t size = 2 * coordinate;
};

/* canonical big-endian; nullopt when >= p */
template <class P>
inline std::optional<ff::mont_field<P>> read_be(const std::uint8_t* in, const ff::mont_field<P>*) {
  return ff::mont_field<P>::from_bytes_be({in, ff::mont_field<P>::n_bytes});
}
template <class P>
inline void write_be(const ff::mont_field<P>& a, std::uint8_t* out) {
  auto be = a.to_bytes_be();
  std::copy(be.begin(), be.end(), out);
}
/* Fp2 in the zcash order: c1 first, then c0 */
template <class C>
inline std::optional<ff::fp2<C>> read_be(const std::uint8_t* in, const ff::fp2<C>*) {
  constexpr std::size_t n = ff::fp<C>::n_bytes;
  auto c1 = read_be(in, (const ff::fp<C>*)nullptr), c0 = read_be(in + n, (const ff::fp<C>*)nullptr);
  if (!c0 || !c1) return std::nullopt;
  return ff::fp2<C>{*c0, *c1};
}
template <class C>
inline void write_be(const ff::fp2<C>& a, std::uint8_t* out) {
  write_be(a.c1, out);
  write_be(a.c0, out + ff::fp<C>::n_bytes);
}

/* Montgomery limbs little-endian; nullopt when the limbs are >= p */
template <class P>
inline std::optional<ff::mont_field<P>> read_lem(const std::uint8_t* in, const ff::mont_field<P>*) {
  using F = ff::mont_field<P>;
  typename F::limbs_t l{};
  for (std::size_t i = 0; i < F::n_bytes; ++i) l[i / 8] |= std::uint64_t(in[i]) << (8 * (i % 8));
  if (!ff::limbs::less(l, P::modulus)) return std::nullopt;
  return F::from_montgomery(l);
}
template <class P>
inline void write_lem(const ff::mont_field<P>& a, std::uint8_t* out) {
  for (std::size_t i = 0; i < ff::mont_field<P>::n_bytes; ++i) out[i] = std::uint8_t(a.l[i / 8] >> (8 * (i % 8)));
}
/* Fp2 in ffjavascript's order: c0 first, then c1 */
template <class C>
inline std::optional<ff::fp2<C>> read_lem(const std::uint8_t* in, const ff::fp2<C>*) {
  constexpr std::size_t n = ff::fp<C>::n_bytes;
  auto c0 = read_lem(in, (const ff::fp<C>*)nullptr), c1 = read_lem(in + n, (const ff::fp<C>*)nullptr);
  if (!c0 || !c1) return std::nullopt;
  return ff::fp2<C>{*c0, *c1};
}
template <class C>
inline void write_lem(const ff::fp2<C>& a, std::uint8_t* out) {
  write_lem(a.c0, out);
  write_lem(a.c1, out + ff::fp<C>::n_bytes);
}

/* BLS12-381 names the zcash encodings use */
inline std::optional<fp_t> read_fp_be(const std::uint8_t* in) { return read_be(in, (const fp_t*)nullptr); }
inline std::optional<fp2_t> read_fp2_be(const std::uint8_t* in) { return read_be(in, (const fp2_t*)nullptr); }
inline void write_fp_be(const fp_t& a, std::uint8_t* out) { write_be(a, out); }
inline void write_fp2_be(const fp2_t& a, std::uint8_t* out) { write_be(a, out); }

/* The "sign" of the compressed zcash encoding: y > (p - 1) / 2 in Fp; in Fp2
   the same test on c1, or on c0 when c1 = 0. */
inline bool lexicographically_largest(const fp_t& y) {
  return ff::limbs::less(ff::fp_params::m_minus1_over2, y.to_canonical());
}
inline bool lexicographically_largest(const fp2_t& y) { return y.lexicographically_largest(); }

}  // namespace cuzk::ec::bytes
