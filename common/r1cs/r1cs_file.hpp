// circom's binary constraint system, .r1cs version 1
// (github.com/iden3/r1csfile, doc/r1cs_bin_format.md): section 1 header,
// 2 constraints, 3 wire-to-label map, in any order, all three required (the
// map, 8 bytes a wire, is what bounds nWires by the file's size). Sections 4 and 5 (custom
// gates) exist only for PLONK and are refused; other types are skipped.
// Wires: 0 = one, then n_pub_out outputs, n_pub_in public inputs, n_prv_in
// private inputs, then internal signals. The prime is BLS12-381's or BN254's
// r; it names the curve, and a reader for the other curve refuses the file.
#pragma once

#include <filesystem>
#include <span>
#include <vector>

#include "r1cs/input_file.hpp"
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

template <class C>
struct basic_r1cs_file {
  r1cs_header header;
  basic_matrices<C> m;  // n_public = n_pub_out + n_pub_in
};

/* What a .r1cs declares, from its section table and header alone. */
struct r1cs_shape {
  curves::curve_id curve = curves::curve_id::bls12_381;  // whose r the header's prime is
  r1cs_header header;
  std::uint64_t constraints_offset = 0, constraints_bytes = 0;
  std::uint64_t wire_map_offset = 0;
};

/* The container, the header and the sections' sizes (the wire map 8 bytes a
   wire, the constraints at least 12 bytes each), reading only a few dozen
   bytes: nothing is allocated by what the file claims. */
r1cs_shape read_r1cs_shape(const byte_source& src);

/* What a proving key allows a .r1cs: its witness length, its public signals,
   and the constraint rows its domain holds besides the public-input rows. */
struct r1cs_bounds {
  std::uint32_t n_wires = 0;
  std::uint32_t n_public = 0;
  std::uint64_t max_constraints = 0;
};

/* format_error naming the declared number and the bound, for the first
   count or size beyond what the key allows. The constraints section may be
   at most as large as one that names every wire once in each of the three
   linear combinations of every constraint. */
void check_r1cs_shape(const r1cs_shape& s, const r1cs_bounds& b);

/* a_i = <A_i,z>, b_i = <B_i,z>, c_i = <C_i,z> streamed from the file a
   bounded chunk at a time, validating as read_r1cs does but never holding
   the matrices; returns the constraint count. capacity_error when a, b or c
   is too short, error when z does not have nWires values, format_error when
   the file is over another curve than C. */
template <class C = curves::bls12_381>
std::uint64_t evaluate_r1cs(const byte_source& src, const r1cs_shape& s, std::span<const ff::fr<C>> z,
                            std::span<ff::fr<C>> a, std::span<ff::fr<C>> b, std::span<ff::fr<C>> c);

/* Validates everything; format_error names the section on the first problem
   (and the curves, for a file over another curve than C). */
template <class C = curves::bls12_381>
basic_r1cs_file<C> read_r1cs(std::span<const std::uint8_t> bytes);
template <class C = curves::bls12_381>
basic_r1cs_file<C> read_r1cs_file(const std::filesystem::path& path);

/* A header for native matrices: every public wire an output, labels = wires. */
template <class C>
r1cs_header header_for(const basic_matrices<C>& m);

/* Sections 1, 2, 3 (identity wire-to-label map when labels == wires). */
template <class C>
std::vector<std::uint8_t> write_r1cs(const basic_r1cs_file<C>& f);

}  // namespace cuzk::r1cs
