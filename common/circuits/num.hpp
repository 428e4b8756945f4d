// A circuit value: a linear combination over variables with its value, as
// gadgets pass them (bellman's Num).
#pragma once

#include "ff/fr.hpp"
#include "r1cs/linear_combination.hpp"

namespace cuzk::circuits {

struct num {
  r1cs::lc l;
  ff::fr_t v;

  static num of(r1cs::variable var, const ff::fr_t& value) { return {r1cs::lc(var), value}; }
  static num constant(const ff::fr_t& c) { return {r1cs::lc::constant(c), c}; }
};

}  // namespace cuzk::circuits
