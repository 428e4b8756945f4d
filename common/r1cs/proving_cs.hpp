// Proving (synthesis) mode: as each constraint is enforced, a_i = <A_i,z>,
// b_i = <B_i,z>, c_i = <C_i,z> go straight into caller memory (a shared-memory
// slot), and so do the input and aux assignments. Nothing is kept on the heap.
#pragma once

#include <optional>
#include <span>

#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

template <class C>
struct basic_proving_buffers {
  std::span<ff::fr<C>> a, b, c;  // one entry per constraint
  std::span<ff::fr<C>> inputs;   // [1, public ...]
  std::span<ff::fr<C>> aux;      // private values
};

template <class C>
class basic_proving_cs final : public basic_constraint_system<C> {
 public:
  using typename basic_constraint_system<C>::fr;
  using typename basic_constraint_system<C>::lc;

  /* Writes inputs[0] = 1. Throws capacity_error when a buffer overflows. */
  explicit basic_proving_cs(const basic_proving_buffers<C>& out);

  variable alloc_input(const fr& value) override;
  variable alloc_aux(const fr& value) override;
  counts sizes() const override { return n_; }

  /* The first constraint whose a_i * b_i != c_i: the witness is wrong there. */
  std::optional<std::uint64_t> first_unsatisfied() const { return bad_; }

 protected:
  void do_enforce(const lc& a, const lc& b, const lc& c, const char* label) override;

 private:
  fr value(variable v) const;

  basic_proving_buffers<C> out_;
  counts n_;
  std::optional<std::uint64_t> bad_;
};

}  // namespace cuzk::r1cs
