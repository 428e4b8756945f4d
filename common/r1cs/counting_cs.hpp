// Counting mode: sizes only, nothing stored, so callers can size a slot.
#pragma once

#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

template <class C>
class basic_counting_cs final : public basic_constraint_system<C> {
 public:
  using typename basic_constraint_system<C>::fr;
  using typename basic_constraint_system<C>::lc;

  variable alloc_input(const fr&) override { return variable::input(static_cast<std::uint32_t>(n_.inputs++)); }
  variable alloc_aux(const fr&) override { return variable::aux(static_cast<std::uint32_t>(n_.aux++)); }
  bool needs_values() const override { return false; }
  counts sizes() const override { return n_; }

 protected:
  void do_enforce(const lc&, const lc&, const lc&, const char*) override { ++n_.constraints; }

 private:
  counts n_;
};

}  // namespace cuzk::r1cs
