// What a .zkey's shape (io/zkey.hpp) takes: on the device (sizing::key_dims) and in its SRS region.
#pragma once

#include <cstdint>

#include "io/zkey.hpp"
#include "io/zkey_layout.hpp"
#include "sizing/device_memory.hpp"
#include "sizing/host_memory.hpp"

namespace cuzk::io {

inline sizing::key_dims dims_of(const zkey_shape& s) {
  return sizing::key_dims::of(s.curve, s.n_vars, s.n_public, s.domain_size, s.h == groth16::h_form::coefficient);
}

/* The content bytes of its SRS region (sizing::srs_content_bytes). */
inline std::uint64_t region_content(const zkey_shape& s, bool points_dropped) {
  std::uint64_t points = 0;
  for (const auto& [off, len] : s.points) points += len;
  return sizing::srs_content_bytes(s.bytes, s.native ? s.n_coefs * zkey_coef_bytes : 0, points, points_dropped);
}

}  // namespace cuzk::io
