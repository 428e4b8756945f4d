// Proving (synthesis) mode: as each constraint is enforced, a_i = <A_i,z>,
// b_i = <B_i,z>, c_i = <C_i,z> go straight into caller memory (a shared-memory
// slot), and so do the input and aux assignments. Nothing is kept on the heap.
#pragma once

#include <optional>
#include <span>

#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

struct proving_buffers {
  std::span<fr_t> a, b, c;  // one entry per constraint
  std::span<fr_t> inputs;   // [1, public ...]
  std::span<fr_t> aux;      // private values
};

class proving_cs final : public constraint_system {
 public:
  /* Writes inputs[0] = 1. Throws capacity_error when a buffer overflows. */
  explicit proving_cs(const proving_buffers& out);

  variable alloc_input(const fr_t& value) override;
  variable alloc_aux(const fr_t& value) override;
  counts sizes() const override { return n_; }

  /* The first constraint whose a_i * b_i != c_i: the witness is wrong there. */
  std::optional<std::uint64_t> first_unsatisfied() const { return bad_; }

 protected:
  void do_enforce(const lc& a, const lc& b, const lc& c, const char* label) override;

 private:
  fr_t value(variable v) const;

  proving_buffers out_;
  counts n_;
  std::optional<std::uint64_t> bad_;
};

}  // namespace cuzk::r1cs
