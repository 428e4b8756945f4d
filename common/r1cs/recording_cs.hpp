// Setup mode: records the matrices A, B, C of a native circuit, in the
// representation the .r1cs reader produces.
#pragma once

#include <vector>

#include "r1cs/constraint_system.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::r1cs {

class recording_cs final : public constraint_system {
 public:
  variable alloc_input(const fr_t& value) override;
  variable alloc_aux(const fr_t& value) override;
  bool needs_values() const override { return false; }
  counts sizes() const override { return n_; }

  /* The matrices over z = [1, inputs..., aux...]; the recorder is spent. */
  matrices finish() &&;

 protected:
  void do_enforce(const lc& a, const lc& b, const lc& c, const char* label) override;

 private:
  void record(const lc& x, sparse_rows& rows);

  counts n_;
  matrices m_;
  std::vector<term> scratch_;
};

}  // namespace cuzk::r1cs
