// 32-bit words of circuit bits, bits[i] of weight 2^i, and the word
// operations SHA-256 needs. Rotations and shifts only renumber bits.
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "circuits/boolean.hpp"

namespace cuzk::circuits {

struct word32 {
  std::array<bit, 32> bits;

  static word32 constant(std::uint32_t v);
  /* 32 new witness bits (32 constraints) */
  static word32 alloc(r1cs::constraint_system& cs, std::uint32_t v);

  std::uint32_t value() const;
  word32 rotr(unsigned n) const;
  word32 shr(unsigned n) const;
};

/* bitwise a xor b xor c: up to two constraints a bit, none where constants fold */
word32 word_xor3(r1cs::constraint_system& cs, const word32& a, const word32& b, const word32& c);
word32 word_ch(r1cs::constraint_system& cs, const word32& e, const word32& f, const word32& g);
word32 word_maj(r1cs::constraint_system& cs, const word32& a, const word32& b, const word32& c);

/* sum mod 2^32. The integer sum S (at most 35 bits for seven terms) is one
   linear combination; its bits r_i are new witness bits (k constraints for
   k = bit length of the largest possible S) and one constraint
   S = sum 2^i r_i ties them; the low 32 are the result. */
word32 word_add(r1cs::constraint_system& cs, std::span<const word32> terms);

}  // namespace cuzk::circuits
