// A circuit value: a linear combination over variables with its value, as
// gadgets pass them (bellman's Num), over the scalar field of curve C.
#pragma once

#include "curves/bn254.hpp"
#include "ff/fr.hpp"
#include "r1cs/linear_combination.hpp"

namespace cuzk::circuits {

template <class C>
struct basic_num {
  r1cs::basic_lc<C> l;
  ff::fr<C> v;

  static basic_num of(r1cs::variable var, const ff::fr<C>& value) { return {r1cs::basic_lc<C>(var), value}; }
  static basic_num constant(const ff::fr<C>& c) { return {r1cs::basic_lc<C>::constant(c), c}; }
};

}  // namespace cuzk::circuits
