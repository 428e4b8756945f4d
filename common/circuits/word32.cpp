#include "circuits/word32.hpp"

#include <bit>

namespace cuzk::circuits {

using r1cs::variable;

template <class C>
basic_word32<C> basic_word32<C>::constant(std::uint32_t v) {
  basic_word32 w{};
  for (unsigned i = 0; i < 32; ++i) w.bits[i] = basic_bit<C>::constant((v >> i) & 1);
  return w;
}

template <class C>
basic_word32<C> basic_word32<C>::alloc(r1cs::basic_constraint_system<C>& cs, std::uint32_t v) {
  basic_word32 w = constant(0);
  for (unsigned i = 0; i < 32; ++i) w.bits[i] = basic_bit<C>::alloc(cs, (v >> i) & 1);
  return w;
}

template <class C>
std::uint32_t basic_word32<C>::value() const {
  std::uint32_t v = 0;
  for (unsigned i = 0; i < 32; ++i) v |= std::uint32_t(bits[i].value()) << i;
  return v;
}

template <class C>
basic_word32<C> basic_word32<C>::rotr(unsigned n) const {
  basic_word32 w = *this;
  for (unsigned i = 0; i < 32; ++i) w.bits[i] = bits[(i + n) % 32];
  return w;
}

template <class C>
basic_word32<C> basic_word32<C>::shr(unsigned n) const {
  basic_word32 w = constant(0);
  for (unsigned i = 0; i + n < 32; ++i) w.bits[i] = bits[i + n];
  return w;
}

namespace {

/* The word whose bit i is f(a_i, b_i, c_i), the bits taken from 0 to 31. */
template <class C, class F>
basic_word32<C> bitwise(const basic_word32<C>& a, const basic_word32<C>& b, const basic_word32<C>& c, F f) {
  basic_word32<C> w = a;
  for (unsigned i = 0; i < 32; ++i) w.bits[i] = f(a.bits[i], b.bits[i], c.bits[i]);
  return w;
}

}  // namespace

template <class C>
basic_word32<C> word_xor3(r1cs::basic_constraint_system<C>& cs, const basic_word32<C>& a, const basic_word32<C>& b,
                          const basic_word32<C>& c) {
  return bitwise(a, b, c,
                 [&](const auto& x, const auto& y, const auto& z) { return bit_xor(cs, bit_xor(cs, x, y), z); });
}

template <class C>
basic_word32<C> word_ch(r1cs::basic_constraint_system<C>& cs, const basic_word32<C>& e, const basic_word32<C>& f,
                        const basic_word32<C>& g) {
  return bitwise(e, f, g, [&](const auto& x, const auto& y, const auto& z) { return bit_ch(cs, x, y, z); });
}

template <class C>
basic_word32<C> word_maj(r1cs::basic_constraint_system<C>& cs, const basic_word32<C>& a, const basic_word32<C>& b,
                         const basic_word32<C>& c) {
  return bitwise(a, b, c, [&](const auto& x, const auto& y, const auto& z) { return bit_maj(cs, x, y, z); });
}

template <class C>
basic_word32<C> word_add(r1cs::basic_constraint_system<C>& cs,
                         std::type_identity_t<std::span<const basic_word32<C>>> terms) {
  using fr = ff::fr<C>;
  r1cs::basic_lc<C> sum;
  std::uint64_t value = 0, max = 0, constant = 0;
  bool any_variable = false;
  for (const auto& t : terms) {
    value += t.value();
    for (unsigned i = 0; i < 32; ++i) {
      const auto& b = t.bits[i];
      max += 1ull << i;
      if (b.is_constant()) {
        constant += std::uint64_t(b.value()) << i;
        max -= std::uint64_t(!b.value()) << i;
      } else {
        sum.add(b.to_lc(), fr::from_u64(1ull << i));
        any_variable = true;
      }
    }
  }
  if (!any_variable) return basic_word32<C>::constant(static_cast<std::uint32_t>(value));
  sum.add(variable::one(), fr::from_u64(constant));
  sum.compact();
  const unsigned n = static_cast<unsigned>(std::bit_width(max));
  basic_word32<C> out = basic_word32<C>::constant(0);
  r1cs::basic_lc<C> bits_lc;
  for (unsigned i = 0; i < n; ++i) {
    const auto r = basic_bit<C>::alloc(cs, (value >> i) & 1);
    bits_lc.add(r.to_lc(), fr::from_u64(1ull << i));
    if (i < 32) out.bits[i] = r;
  }
  cs.enforce(sum, variable::one(), bits_lc, "sum = sum 2^i r_i");
  return out;
}

#define CUZK_CIRCUITS_WORD32(C)                                                                                        \
  template struct basic_word32<C>;                                                                                     \
  template basic_word32<C> word_xor3(r1cs::basic_constraint_system<C>&, const basic_word32<C>&,                        \
                                     const basic_word32<C>&, const basic_word32<C>&);                                  \
  template basic_word32<C> word_ch(r1cs::basic_constraint_system<C>&, const basic_word32<C>&, const basic_word32<C>&,  \
                                   const basic_word32<C>&);                                                            \
  template basic_word32<C> word_maj(r1cs::basic_constraint_system<C>&, const basic_word32<C>&, const basic_word32<C>&, \
                                    const basic_word32<C>&);                                                           \
  template basic_word32<C> word_add<C>(r1cs::basic_constraint_system<C>&, std::span<const basic_word32<C>>);
CUZK_CIRCUITS_WORD32(curves::bls12_381)
CUZK_CIRCUITS_WORD32(curves::bn254)

}  // namespace cuzk::circuits
