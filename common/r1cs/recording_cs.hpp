// Setup mode: records the matrices A, B, C of a native circuit, in the
// representation the .r1cs reader produces.
#pragma once

#include <vector>

#include "r1cs/constraint_system.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::r1cs {

template <class C>
class basic_recording_cs final : public basic_constraint_system<C> {
 public:
  using typename basic_constraint_system<C>::fr;
  using typename basic_constraint_system<C>::lc;

  variable alloc_input(const fr& value) override;
  variable alloc_aux(const fr& value) override;
  bool needs_values() const override { return false; }
  counts sizes() const override { return n_; }

  /* The matrices over z = [1, inputs..., aux...]; the recorder is spent. */
  basic_matrices<C> finish() &&;

 protected:
  void do_enforce(const lc& a, const lc& b, const lc& c, const char* label) override;

 private:
  void record(const lc& x, basic_sparse_rows<C>& rows);

  counts n_;
  basic_matrices<C> m_;
  std::vector<basic_term<C>> scratch_;
};

}  // namespace cuzk::r1cs
