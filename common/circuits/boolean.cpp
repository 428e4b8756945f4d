#include "circuits/boolean.hpp"

namespace cuzk::circuits {

using r1cs::lc;
using r1cs::variable;

namespace {

ff::fr_t f(std::uint64_t v) { return ff::fr_t::from_u64(v); }

}  // namespace

bit bit::alloc(r1cs::constraint_system& cs, bool v) {
  const variable b = cs.alloc_aux(v ? ff::fr_t::one() : ff::fr_t::zero());
  cs.enforce(b, lc(variable::one()) - b, lc(), "b (1 - b) = 0");
  return bit(kind::var, b, v);
}

lc bit::to_lc() const {
  switch (k_) {
    case kind::constant: return value_ ? lc(variable::one()) : lc();
    case kind::var: return lc(var_);
    case kind::negated: return lc(variable::one()) - var_;
  }
  return {};
}

bit bit::operator!() const {
  switch (k_) {
    case kind::constant: return constant(!value_);
    case kind::var: return bit(kind::negated, var_, !value_);
    case kind::negated: return bit(kind::var, var_, !value_);
  }
  return *this;
}

bit bit_xor(r1cs::constraint_system& cs, const bit& a, const bit& b) {
  if (a.is_constant()) return a.value_ ? !b : b;
  if (b.is_constant()) return b.value_ ? !a : a;
  // (not x) xor y = not (x xor y): work on the variables, fix the polarity after
  const bool flip = (a.k_ == bit::kind::negated) != (b.k_ == bit::kind::negated);
  if (a.var_ == b.var_) return bit::constant(flip);
  const bool xv = a.k_ == bit::kind::negated ? !a.value_ : a.value_;
  const bool yv = b.k_ == bit::kind::negated ? !b.value_ : b.value_;
  const variable r = cs.alloc_aux(xv != yv ? ff::fr_t::one() : ff::fr_t::zero());
  cs.enforce(lc(a.var_) * f(2), b.var_, lc(a.var_) + b.var_ - r, "(2x) y = x + y - (x xor y)");
  const bit out(bit::kind::var, r, xv != yv);
  return flip ? !out : out;
}

bit bit_and(r1cs::constraint_system& cs, const bit& a, const bit& b) {
  if (a.is_constant()) return a.value_ ? b : bit::constant(false);
  if (b.is_constant()) return b.value_ ? a : bit::constant(false);
  if (a.var_ == b.var_) return a.k_ == b.k_ ? a : bit::constant(false);
  const bool v = a.value_ && b.value_;
  const variable r = cs.alloc_aux(v ? ff::fr_t::one() : ff::fr_t::zero());
  cs.enforce(a.to_lc(), b.to_lc(), r, "a b = a and b");
  return bit(bit::kind::var, r, v);
}

bit bit_or(r1cs::constraint_system& cs, const bit& a, const bit& b) { return !bit_and(cs, !a, !b); }

bit bit_ch(r1cs::constraint_system& cs, const bit& e, const bit& f, const bit& g) {
  if (e.is_constant()) return e.value() ? f : g;
  if (f.is_constant() && g.is_constant()) {
    if (f.value() == g.value()) return f;
    return f.value() ? e : !e;
  }
  const bool v = e.value() ? f.value() : g.value();
  const variable r = cs.alloc_aux(v ? ff::fr_t::one() : ff::fr_t::zero());
  cs.enforce(e.to_lc(), f.to_lc() - g.to_lc(), lc(r) - g.to_lc(), "e (f - g) = ch - g");
  return bit::known_boolean(r, v);
}

bit bit_maj(r1cs::constraint_system& cs, const bit& a, const bit& b, const bit& c) {
  // a constant operand makes Maj an and (0) or an or (1) of the other two
  if (a.is_constant()) return a.value() ? bit_or(cs, b, c) : bit_and(cs, b, c);
  if (b.is_constant()) return b.value() ? bit_or(cs, a, c) : bit_and(cs, a, c);
  if (c.is_constant()) return c.value() ? bit_or(cs, a, b) : bit_and(cs, a, b);
  const bit ab = bit_and(cs, a, b);
  const bool v = (a.value() + b.value() + c.value()) >= 2;
  const variable r = cs.alloc_aux(v ? ff::fr_t::one() : ff::fr_t::zero());
  cs.enforce(c.to_lc(), a.to_lc() + b.to_lc() - ab.to_lc() * f(2), lc(r) - ab.to_lc(), "c (a + b - 2ab) = maj - ab");
  return bit::known_boolean(r, v);
}

}  // namespace cuzk::circuits
