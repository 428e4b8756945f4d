// Checking mode: evaluates every constraint and keeps the first one that the
// assignment does not satisfy, with its name (namespaces and label).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "r1cs/constraint_system.hpp"

namespace cuzk::r1cs {

template <class C>
class basic_checking_cs final : public basic_constraint_system<C> {
 public:
  using typename basic_constraint_system<C>::fr;
  using typename basic_constraint_system<C>::lc;

  struct failure {
    std::uint64_t index;
    std::string name;  // "poseidon-merkle/level[3]/hash/round[5]/x^2", or "" when unnamed
    fr a, b, c;        // <A,z>, <B,z>, <C,z> there
  };

  variable alloc_input(const fr& value) override;
  variable alloc_aux(const fr& value) override;
  counts sizes() const override { return n_; }
  void push_namespace(std::string_view name, std::int64_t index) override;
  void pop_namespace() override;

  const std::optional<failure>& first_failure() const { return failure_; }
  bool satisfied() const { return !failure_; }
  std::span<const fr> inputs() const { return inputs_; }
  std::span<const fr> aux() const { return aux_; }

 protected:
  void do_enforce(const lc& a, const lc& b, const lc& c, const char* label) override;

 private:
  fr value(variable v) const;

  counts n_;
  std::vector<fr> inputs_{fr::one()};
  std::vector<fr> aux_;
  std::vector<std::string> path_;
  std::optional<failure> failure_;
};

}  // namespace cuzk::r1cs
