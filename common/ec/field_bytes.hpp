// Field elements to and from the byte layouts of the point encodings:
// canonical big-endian (zcash/IETF, ffjavascript "U") and Montgomery
// little-endian (ffjavascript "LEM", R = 2^384, exactly fp_t's own limbs).
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>

#include "ec/config.hpp"

namespace cuzk::ec::bytes {

inline constexpr std::size_t fp_size = 48;

inline bool all_zero(std::span<const std::uint8_t> b) {
  return std::all_of(b.begin(), b.end(), [](std::uint8_t v) { return v == 0; });
}

/* canonical big-endian; nullopt when >= p */
inline std::optional<fp_t> read_fp_be(const std::uint8_t* in) { return fp_t::from_bytes_be({in, fp_size}); }
inline void write_fp_be(const fp_t& a, std::uint8_t* out) {
  auto be = a.to_bytes_be();
  std::copy(be.begin(), be.end(), out);
}
/* Fp2 in the zcash order: c1 first, then c0 */
inline std::optional<fp2_t> read_fp2_be(const std::uint8_t* in) {
  auto c1 = read_fp_be(in), c0 = read_fp_be(in + fp_size);
  if (!c0 || !c1) return std::nullopt;
  return fp2_t{*c0, *c1};
}
inline void write_fp2_be(const fp2_t& a, std::uint8_t* out) {
  write_fp_be(a.c1, out);
  write_fp_be(a.c0, out + fp_size);
}

/* Montgomery limbs little-endian; nullopt when the limbs are >= p */
inline std::optional<fp_t> read_fp_lem(const std::uint8_t* in) {
  fp_t::limbs_t l{};
  for (std::size_t i = 0; i < fp_size; ++i) l[i / 8] |= std::uint64_t(in[i]) << (8 * (i % 8));
  if (!ff::limbs::less(l, ff::fp_params::modulus)) return std::nullopt;
  return fp_t::from_montgomery(l);
}
inline void write_fp_lem(const fp_t& a, std::uint8_t* out) {
  for (std::size_t i = 0; i < fp_size; ++i) out[i] = std::uint8_t(a.l[i / 8] >> (8 * (i % 8)));
}
/* Fp2 in ffjavascript's order: c0 first, then c1 */
inline std::optional<fp2_t> read_fp2_lem(const std::uint8_t* in) {
  auto c0 = read_fp_lem(in), c1 = read_fp_lem(in + fp_size);
  if (!c0 || !c1) return std::nullopt;
  return fp2_t{*c0, *c1};
}
inline void write_fp2_lem(const fp2_t& a, std::uint8_t* out) {
  write_fp_lem(a.c0, out);
  write_fp_lem(a.c1, out + fp_size);
}

/* The "sign" of the compressed zcash encoding: y > (p - 1) / 2 in Fp; in Fp2
   the same test on c1, or on c0 when c1 = 0. */
inline bool lexicographically_largest(const fp_t& y) {
  return ff::limbs::less(ff::fp_params::m_minus1_over2, y.to_canonical());
}
inline bool lexicographically_largest(const fp2_t& y) { return y.lexicographically_largest(); }

}  // namespace cuzk::ec::bytes
