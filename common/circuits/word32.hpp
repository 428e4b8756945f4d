// 32-bit words of circuit bits, bits[i] of weight 2^i, and the word
// operations SHA-256 needs. Rotations and shifts only renumber bits.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <type_traits>

#include "circuits/boolean.hpp"

namespace cuzk::circuits {

template <class C>
struct basic_word32 {
  std::array<basic_bit<C>, 32> bits;

  static basic_word32 constant(std::uint32_t v);
  /* 32 new witness bits (32 constraints) */
  static basic_word32 alloc(r1cs::basic_constraint_system<C>& cs, std::uint32_t v);

  std::uint32_t value() const;
  basic_word32 rotr(unsigned n) const;
  basic_word32 shr(unsigned n) const;
};

/* bitwise a xor b xor c: up to two constraints a bit, none where constants fold */
template <class C>
basic_word32<C> word_xor3(r1cs::basic_constraint_system<C>& cs, const basic_word32<C>& a, const basic_word32<C>& b,
                          const basic_word32<C>& c);
template <class C>
basic_word32<C> word_ch(r1cs::basic_constraint_system<C>& cs, const basic_word32<C>& e, const basic_word32<C>& f,
                        const basic_word32<C>& g);
template <class C>
basic_word32<C> word_maj(r1cs::basic_constraint_system<C>& cs, const basic_word32<C>& a, const basic_word32<C>& b,
                         const basic_word32<C>& c);

/* sum mod 2^32. The integer sum S (at most 35 bits for seven terms) is one
   linear combination; its bits r_i are new witness bits (k constraints for
   k = bit length of the largest possible S) and one constraint
   S = sum 2^i r_i ties them; the low 32 are the result. */
template <class C>
basic_word32<C> word_add(r1cs::basic_constraint_system<C>& cs,
                         std::type_identity_t<std::span<const basic_word32<C>>> terms);

}  // namespace cuzk::circuits
