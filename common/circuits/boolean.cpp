#include "circuits/boolean.hpp"

namespace cuzk::circuits {

using r1cs::variable;

namespace {

template <class C>
ff::fr<C> f(std::uint64_t v) {
  return ff::fr<C>::from_u64(v);
}

template <class C>
ff::fr<C> as_fr(bool v) {
  return v ? ff::fr<C>::one() : ff::fr<C>::zero();
}

}  // namespace

template <class C>
basic_bit<C> basic_bit<C>::alloc(cs_t& cs, bool v) {
  using lc = r1cs::basic_lc<C>;
  const variable b = cs.alloc_aux(as_fr<C>(v));
  cs.enforce(b, lc(variable::one()) - b, lc(), "b (1 - b) = 0");
  return basic_bit(kind::var, b, v);
}

template <class C>
r1cs::basic_lc<C> basic_bit<C>::to_lc() const {
  using lc = r1cs::basic_lc<C>;
  switch (k_) {
    case kind::constant:
      return value_ ? lc(variable::one()) : lc();
    case kind::var:
      return lc(var_);
    case kind::negated:
      return lc(variable::one()) - var_;
  }
  return {};
}

template <class C>
basic_bit<C> basic_bit<C>::operator!() const {
  switch (k_) {
    case kind::constant:
      return constant(!value_);
    case kind::var:
      return basic_bit(kind::negated, var_, !value_);
    case kind::negated:
      return basic_bit(kind::var, var_, !value_);
  }
  return *this;
}

template <class C>
basic_bit<C> bit_xor(r1cs::basic_constraint_system<C>& cs, const basic_bit<C>& a, const basic_bit<C>& b) {
  using bit = basic_bit<C>;
  using lc = r1cs::basic_lc<C>;
  if (a.is_constant()) return a.value_ ? !b : b;
  if (b.is_constant()) return b.value_ ? !a : a;
  // (not x) xor y = not (x xor y): work on the variables, fix the polarity after
  const bool flip = (a.k_ == bit::kind::negated) != (b.k_ == bit::kind::negated);
  if (a.var_ == b.var_) return bit::constant(flip);
  const bool xv = a.k_ == bit::kind::negated ? !a.value_ : a.value_;
  const bool yv = b.k_ == bit::kind::negated ? !b.value_ : b.value_;
  const variable r = cs.alloc_aux(as_fr<C>(xv != yv));
  cs.enforce(lc(a.var_) * f<C>(2), b.var_, lc(a.var_) + b.var_ - r, "(2x) y = x + y - (x xor y)");
  const bit out(bit::kind::var, r, xv != yv);
  return flip ? !out : out;
}

template <class C>
basic_bit<C> bit_and(r1cs::basic_constraint_system<C>& cs, const basic_bit<C>& a, const basic_bit<C>& b) {
  using bit = basic_bit<C>;
  if (a.is_constant()) return a.value_ ? b : bit::constant(false);
  if (b.is_constant()) return b.value_ ? a : bit::constant(false);
  if (a.var_ == b.var_) return a.k_ == b.k_ ? a : bit::constant(false);
  const bool v = a.value_ && b.value_;
  const variable r = cs.alloc_aux(as_fr<C>(v));
  cs.enforce(a.to_lc(), b.to_lc(), r, "a b = a and b");
  return bit(bit::kind::var, r, v);
}

template <class C>
basic_bit<C> bit_or(r1cs::basic_constraint_system<C>& cs, const basic_bit<C>& a, const basic_bit<C>& b) {
  return !bit_and(cs, !a, !b);
}

template <class C>
basic_bit<C> bit_ch(r1cs::basic_constraint_system<C>& cs, const basic_bit<C>& e, const basic_bit<C>& f,
                    const basic_bit<C>& g) {
  using lc = r1cs::basic_lc<C>;
  if (e.is_constant()) return e.value() ? f : g;
  if (f.is_constant() && g.is_constant()) {
    if (f.value() == g.value()) return f;
    return f.value() ? e : !e;
  }
  const bool v = e.value() ? f.value() : g.value();
  const variable r = cs.alloc_aux(as_fr<C>(v));
  cs.enforce(e.to_lc(), f.to_lc() - g.to_lc(), lc(r) - g.to_lc(), "e (f - g) = ch - g");
  return basic_bit<C>::known_boolean(r, v);
}

template <class C>
basic_bit<C> bit_maj(r1cs::basic_constraint_system<C>& cs, const basic_bit<C>& a, const basic_bit<C>& b,
                     const basic_bit<C>& c) {
  using lc = r1cs::basic_lc<C>;
  // a constant operand makes Maj an and (0) or an or (1) of the other two
  if (a.is_constant()) return a.value() ? bit_or(cs, b, c) : bit_and(cs, b, c);
  if (b.is_constant()) return b.value() ? bit_or(cs, a, c) : bit_and(cs, a, c);
  if (c.is_constant()) return c.value() ? bit_or(cs, a, b) : bit_and(cs, a, b);
  const basic_bit<C> ab = bit_and(cs, a, b);
  const bool v = (a.value() + b.value() + c.value()) >= 2;
  const variable r = cs.alloc_aux(as_fr<C>(v));
  cs.enforce(c.to_lc(), a.to_lc() + b.to_lc() - ab.to_lc() * f<C>(2), lc(r) - ab.to_lc(), "c (a + b - 2ab) = maj - ab");
  return basic_bit<C>::known_boolean(r, v);
}

#define CUZK_CIRCUITS_BOOLEAN(C)                                                                              \
  template class basic_bit<C>;                                                                                \
  template basic_bit<C> bit_xor(r1cs::basic_constraint_system<C>&, const basic_bit<C>&, const basic_bit<C>&); \
  template basic_bit<C> bit_and(r1cs::basic_constraint_system<C>&, const basic_bit<C>&, const basic_bit<C>&); \
  template basic_bit<C> bit_or(r1cs::basic_constraint_system<C>&, const basic_bit<C>&, const basic_bit<C>&);  \
  template basic_bit<C> bit_ch(r1cs::basic_constraint_system<C>&, const basic_bit<C>&, const basic_bit<C>&,   \
                               const basic_bit<C>&);                                                          \
  template basic_bit<C> bit_maj(r1cs::basic_constraint_system<C>&, const basic_bit<C>&, const basic_bit<C>&,  \
                                const basic_bit<C>&);
CUZK_CIRCUITS_BOOLEAN(curves::bls12_381)
CUZK_CIRCUITS_BOOLEAN(curves::bn254)

}  // namespace cuzk::circuits
