// The SHA-256 compression function (FIPS 180-4 §6.2.2) in the circuit, on
// words of bits (word32.hpp); K and H0 enter as constants and fold away.
// Per block, about 27,000 constraints: the schedule (sigma0/sigma1 as
// xor3 of rotations and a shift, four-term additions), 64 rounds (Sigma1, Ch,
// Sigma0, Maj, and the additions e' = d + T1, a' = T1 + T2 taken as one
// six- and one seven-term sum), and the eight final additions.
#pragma once

#include <array>

#include "circuits/word32.hpp"

namespace cuzk::circuits {

template <class C>
std::array<basic_word32<C>, 8> sha256_compress(r1cs::basic_constraint_system<C>& cs,
                                               const std::array<basic_word32<C>, 8>& state,
                                               const std::array<basic_word32<C>, 16>& block);

}  // namespace cuzk::circuits
