// One record of a .zkey's coefficient section (snarkjs zkey_utils.js):
// u32 matrix, u32 row, u32 signal, then the value v stored as the integer
// v R^2 mod r, little-endian ("Montgomery of Montgomery").
#pragma once

#include <cstdint>
#include <optional>
#include <span>

#include "groth16/keys.hpp"

namespace cuzk::groth16 {

inline constexpr std::size_t coef_record_bytes = 12 + 32;

/* nullopt when the stored value is not below r (ranges are the caller's) */
template <class C = curves::bls12_381>
std::optional<basic_matrix_coef<C>> decode_coef_record(const std::uint8_t* p) {
  using fr = ff::fr<C>;
  auto le32 = [](const std::uint8_t* q) {
    return std::uint32_t(q[0]) | std::uint32_t(q[1]) << 8 | std::uint32_t(q[2]) << 16 | std::uint32_t(q[3]) << 24;
  };
  const auto v = fr::from_bytes_le(std::span<const std::uint8_t>(p + 12, fr::n_bytes));
  if (!v) return std::nullopt;
  /* the stored integer read as a value is v R; its Montgomery limbs read as a value again give v */
  return basic_matrix_coef<C>{le32(p), le32(p + 4), le32(p + 8),
                              fr::from_montgomery(fr::from_montgomery(v->to_canonical()).to_canonical())};
}

}  // namespace cuzk::groth16
