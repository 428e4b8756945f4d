// Boolean circuit values (bellman's Boolean): a constant, a variable b that
// was constrained b (1 - b) = 0 when allocated, or its negation 1 - b, which
// is free. Operations fold constants and negations, so gadgets pay only for
// bits that depend on the witness.
#pragma once

#include "r1cs/constraint_system.hpp"

namespace cuzk::circuits {

template <class C>
class basic_bit {
 public:
  using cs_t = r1cs::basic_constraint_system<C>;

  basic_bit() : basic_bit(kind::constant, r1cs::variable::one(), false) {}
  static basic_bit constant(bool v) { return basic_bit(kind::constant, r1cs::variable::one(), v); }
  /* A new witness bit: one constraint, b (1 - b) = 0. */
  static basic_bit alloc(cs_t& cs, bool v);
  /* A variable that the constraint defining it already forces to 0 or 1
     (as Ch and Maj of bits are). */
  static basic_bit known_boolean(r1cs::variable v, bool value) { return basic_bit(kind::var, v, value); }

  bool value() const { return value_; }
  bool is_constant() const { return k_ == kind::constant; }
  r1cs::basic_lc<C> to_lc() const;
  basic_bit operator!() const;

  /* a xor b: (2a) (b) = a + b - r, at most one constraint */
  template <class D>
  friend basic_bit<D> bit_xor(r1cs::basic_constraint_system<D>& cs, const basic_bit<D>& a, const basic_bit<D>& b);
  /* a and b: (a) (b) = r, at most one constraint */
  template <class D>
  friend basic_bit<D> bit_and(r1cs::basic_constraint_system<D>& cs, const basic_bit<D>& a, const basic_bit<D>& b);

 private:
  enum class kind : std::uint8_t { constant, var, negated };
  basic_bit(kind k, r1cs::variable v, bool value) : k_(k), var_(v), value_(value) {}

  kind k_;
  r1cs::variable var_;
  bool value_;
};

template <class C>
basic_bit<C> bit_xor(r1cs::basic_constraint_system<C>& cs, const basic_bit<C>& a, const basic_bit<C>& b);
template <class C>
basic_bit<C> bit_and(r1cs::basic_constraint_system<C>& cs, const basic_bit<C>& a, const basic_bit<C>& b);
/* a or b = not (not a and not b) */
template <class C>
basic_bit<C> bit_or(r1cs::basic_constraint_system<C>& cs, const basic_bit<C>& a, const basic_bit<C>& b);
/* SHA-256's Ch(e, f, g) = (e and f) xor (not e and g) = g + e (f - g): at most one constraint */
template <class C>
basic_bit<C> bit_ch(r1cs::basic_constraint_system<C>& cs, const basic_bit<C>& e, const basic_bit<C>& f,
                    const basic_bit<C>& g);
/* SHA-256's Maj(a, b, c) = ab + c (a + b - 2ab): at most two constraints */
template <class C>
basic_bit<C> bit_maj(r1cs::basic_constraint_system<C>& cs, const basic_bit<C>& a, const basic_bit<C>& b,
                     const basic_bit<C>& c);

}  // namespace cuzk::circuits
