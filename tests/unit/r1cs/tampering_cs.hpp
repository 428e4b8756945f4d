// A constraint system that forwards to another but replaces the value of one
// aux variable: a wrong witness, for tests that the checkers catch it.
#pragma once

#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs::fixtures {

template <class C>
class basic_tampering_cs final : public basic_constraint_system<C> {
 public:
  using typename basic_constraint_system<C>::fr;
  using typename basic_constraint_system<C>::lc;

  basic_tampering_cs(basic_constraint_system<C>& inner, std::uint64_t aux_index, const fr& value)
      : inner_(inner), target_(aux_index), value_(value) {}

  variable alloc_input(const fr& v) override { return inner_.alloc_input(v); }
  variable alloc_aux(const fr& v) override { return inner_.alloc_aux(seen_++ == target_ ? value_ : v); }
  void push_namespace(std::string_view name, std::int64_t index) override { inner_.push_namespace(name, index); }
  void pop_namespace() override { inner_.pop_namespace(); }
  bool needs_values() const override { return inner_.needs_values(); }
  counts sizes() const override { return inner_.sizes(); }

 protected:
  void do_enforce(const lc& a, const lc& b, const lc& c, const char* label) override { inner_.enforce(a, b, c, label); }

 private:
  basic_constraint_system<C>& inner_;
  std::uint64_t target_;
  fr value_;
  std::uint64_t seen_ = 0;
};
using tampering_cs = basic_tampering_cs<curves::bls12_381>;

}  // namespace cuzk::r1cs::fixtures
