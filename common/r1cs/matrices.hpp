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

#include "curves/bn254.hpp"
#include "ff/fr.hpp"

namespace cuzk::r1cs {

using ff::fr_t;

/* Over the scalar field of curve C (BLS12-381 where unnamed). */
template <class C>
struct basic_term {
  std::uint32_t wire;
  ff::fr<C> coeff;

  friend bool operator==(const basic_term&, const basic_term&) = default;
};

/* A row as the matrices hold it: sorted by wire, repeated wires summed, zeros dropped. */
template <class C>
void merge_by_wire(std::vector<basic_term<C>>& terms);

template <class C>
class basic_sparse_rows {
 public:
  using term = basic_term<C>;

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

  friend bool operator==(const basic_sparse_rows&, const basic_sparse_rows&) = default;

 private:
  std::vector<std::uint64_t> start_{0};
  std::vector<term> terms_;
};

template <class C>
struct basic_matrices {
  using curve = C;
  std::uint32_t n_wires = 1;   // including the one
  std::uint32_t n_public = 0;  // public wires after the one (outputs, then inputs)
  basic_sparse_rows<C> a, b, c;

  std::uint64_t n_constraints() const { return a.rows(); }

  friend bool operator==(const basic_matrices&, const basic_matrices&) = default;
};

/* <row, z> */
template <class C>
ff::fr<C> dot(std::span<const basic_term<C>> row, std::span<const ff::fr<C>> z);

/* a_i = <A_i,z>, b_i = <B_i,z>, c_i = <C_i,z> for every constraint i, into
   caller memory (a slot). Throws capacity_error when a, b or c is shorter than
   the constraint count, error when z does not have n_wires values. */
template <class C>
void evaluate(const basic_matrices<C>& m, std::span<const ff::fr<C>> z, std::span<ff::fr<C>> a, std::span<ff::fr<C>> b,
              std::span<ff::fr<C>> c);

/* The first i with <A_i,z> * <B_i,z> != <C_i,z>, if any (z as in evaluate). */
template <class C>
std::optional<std::uint64_t> first_unsatisfied(const basic_matrices<C>& m, std::span<const ff::fr<C>> z);

}  // namespace cuzk::r1cs
