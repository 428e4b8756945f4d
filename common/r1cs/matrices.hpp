// R1CS matrices A, B, C as compressed sparse rows over wire indices of
//   z = [1, public_1 .. public_n, private ...]
// The one representation for both native circuits (setup mode) and circom
// .r1cs files, so one prover path serves both. Rows are sorted by wire with
// no repeated wire and no zero coefficient.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "ff/fr.hpp"

namespace cuzk::r1cs {

using ff::fr_t;

struct term {
  std::uint32_t wire;
  fr_t coeff;

  friend bool operator==(const term&, const term&) = default;
};

/* A row as the matrices hold it: sorted by wire, repeated wires summed, zeros dropped. */
void merge_by_wire(std::vector<term>& terms);

class sparse_rows {
 public:
  std::uint64_t rows() const { return start_.size() - 1; }
  std::uint64_t n_terms() const { return terms_.size(); }
  std::span<const term> row(std::uint64_t i) const {
    return {terms_.data() + start_[i], static_cast<std::size_t>(start_[i + 1] - start_[i])};
  }
  std::span<term> all_terms() { return terms_; }

  void reserve(std::uint64_t rows, std::uint64_t terms) {
    start_.reserve(rows + 1);
    terms_.reserve(terms);
  }
  void push(const term& t) { terms_.push_back(t); }
  void end_row() { start_.push_back(terms_.size()); }

  friend bool operator==(const sparse_rows&, const sparse_rows&) = default;

 private:
  std::vector<std::uint64_t> start_{0};
  std::vector<term> terms_;
};

struct matrices {
  std::uint32_t n_wires = 1;   // including the one
  std::uint32_t n_public = 0;  // public wires after the one (outputs, then inputs)
  sparse_rows a, b, c;

  std::uint64_t n_constraints() const { return a.rows(); }

  friend bool operator==(const matrices&, const matrices&) = default;
};

/* <row, z> */
fr_t dot(std::span<const term> row, std::span<const fr_t> z);

/* a_i = <A_i,z>, b_i = <B_i,z>, c_i = <C_i,z> for every constraint i, into
   caller memory (a slot). Throws capacity_error when a, b or c is shorter than
   the constraint count, error when z does not have n_wires values. */
void evaluate(const matrices& m, std::span<const fr_t> z, std::span<fr_t> a, std::span<fr_t> b, std::span<fr_t> c);

/* The first i with <A_i,z> * <B_i,z> != <C_i,z>, if any (z as in evaluate). */
std::optional<std::uint64_t> first_unsatisfied(const matrices& m, std::span<const fr_t> z);

}  // namespace cuzk::r1cs
