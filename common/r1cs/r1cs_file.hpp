// circom's binary constraint system, .r1cs version 1
// (github.com/iden3/r1csfile, doc/r1cs_bin_format.md): section 1 header,
// 2 constraints, 3 wire-to-label map, in any order, all three required (the
// map, 8 bytes a wire, is what bounds nWires by the file's size). Sections 4 and 5 (custom
// gates) exist only for PLONK and are refused; other types are skipped.
// Wires: 0 = one, then n_pub_out outputs, n_pub_in public inputs, n_prv_in
// private inputs, then internal signals. The field must be BLS12-381's Fr.
#pragma once

#include <filesystem>
#include <span>
#include <vector>

#include "r1cs/matrices.hpp"

namespace cuzk::r1cs {

struct r1cs_header {
  std::uint32_t n_wires = 1;
  std::uint32_t n_pub_out = 0;
  std::uint32_t n_pub_in = 0;
  std::uint32_t n_prv_in = 0;
  std::uint64_t n_labels = 1;
  std::uint32_t n_constraints = 0;

  friend bool operator==(const r1cs_header&, const r1cs_header&) = default;
};

struct r1cs_file {
  r1cs_header header;
  matrices m;  // n_public = n_pub_out + n_pub_in
};

/* Validates everything; format_error names the section on the first problem. */
r1cs_file read_r1cs(std::span<const std::uint8_t> bytes);
r1cs_file read_r1cs_file(const std::filesystem::path& path);

/* A header for native matrices: every public wire an output, labels = wires. */
r1cs_header header_for(const matrices& m);

/* Sections 1, 2, 3 (identity wire-to-label map when labels == wires). */
std::vector<std::uint8_t> write_r1cs(const r1cs_file& f);

}  // namespace cuzk::r1cs
