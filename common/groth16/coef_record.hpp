// One record of a .zkey's coefficient section (snarkjs zkey_utils.js):
// u32 matrix, u32 row, u32 signal, then the value v stored as the integer
// v R^2 mod r, little-endian ("Montgomery of Montgomery").
#pragma once

#include <cstdint>
#include <cstring>
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
  typename fr::limbs_t stored{};
  std::memcpy(stored.data(), p + 12, fr::n_bytes);  // little-endian limbs (x86, ARM)
  if (!ff::limbs::less(stored, fr::params::modulus)) return std::nullopt;
  /* stored = v R^2: as Montgomery limbs it is v R; one Montgomery product with 1, (v R^2)(1)/R = v R, gives v */
  typename fr::limbs_t one{};
  one[0] = 1;
  return basic_matrix_coef<C>{le32(p), le32(p + 4), le32(p + 8),
                              fr::from_montgomery(stored) * fr::from_montgomery(one)};
}

}  // namespace cuzk::groth16
