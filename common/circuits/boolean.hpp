// Boolean circuit values (bellman's Boolean): a constant, a variable b that
// was constrained b (1 - b) = 0 when allocated, or its negation 1 - b, which
// is free. Operations fold constants and negations, so gadgets pay only for
// bits that depend on the witness.
#pragma once

#include "r1cs/constraint_system.hpp"

namespace cuzk::circuits {

class bit {
 public:
  bit() : bit(kind::constant, r1cs::variable::one(), false) {}
  static bit constant(bool v) { return bit(kind::constant, r1cs::variable::one(), v); }
  /* A new witness bit: one constraint, b (1 - b) = 0. */
  static bit alloc(r1cs::constraint_system& cs, bool v);
  /* A variable that the constraint defining it already forces to 0 or 1
     (as Ch and Maj of bits are). */
  static bit known_boolean(r1cs::variable v, bool value) { return bit(kind::var, v, value); }

  bool value() const { return value_; }
  bool is_constant() const { return k_ == kind::constant; }
  r1cs::lc to_lc() const;
  bit operator!() const;

  /* a xor b: (2a) (b) = a + b - r, at most one constraint */
  friend bit bit_xor(r1cs::constraint_system& cs, const bit& a, const bit& b);
  /* a and b: (a) (b) = r, at most one constraint */
  friend bit bit_and(r1cs::constraint_system& cs, const bit& a, const bit& b);

 private:
  enum class kind : std::uint8_t { constant, var, negated };
  bit(kind k, r1cs::variable v, bool value) : k_(k), var_(v), value_(value) {}

  kind k_;
  r1cs::variable var_;
  bool value_;
};

bit bit_xor(r1cs::constraint_system& cs, const bit& a, const bit& b);
bit bit_and(r1cs::constraint_system& cs, const bit& a, const bit& b);
/* a or b = not (not a and not b) */
bit bit_or(r1cs::constraint_system& cs, const bit& a, const bit& b);
/* SHA-256's Ch(e, f, g) = (e and f) xor (not e and g) = g + e (f - g): at most one constraint */
bit bit_ch(r1cs::constraint_system& cs, const bit& e, const bit& f, const bit& g);
/* SHA-256's Maj(a, b, c) = ab + c (a + b - 2ab): at most two constraints */
bit bit_maj(r1cs::constraint_system& cs, const bit& a, const bit& b, const bit& c);

}  // namespace cuzk::circuits
