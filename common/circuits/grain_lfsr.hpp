// The Grain LFSR in self-shrinking mode that generates Poseidon's round
// constants and MDS matrix (Grassi et al., "Poseidon", eprint 2019/458,
// Appendix F; reference generate_parameters_grain.sage). The 80-bit state
// starts as field (2 bits) | S-box (4) | n (12) | t (12) | R_F (10) | R_P (10)
// | 30 ones, is clocked 160 times, and then yields bits by pairs: (1, b) gives
// b, (0, b) gives nothing.
#pragma once

#include <array>
#include <cstdint>

#include "ff/limbs.hpp"

namespace cuzk::circuits {

class grain_lfsr {
 public:
  /* field: 1 = GF(p); sbox: 0 = x^alpha */
  grain_lfsr(unsigned field, unsigned sbox, unsigned n, unsigned t, unsigned r_f, unsigned r_p);

  bool next_bit();
  /* n bits, the first one most significant (the script's int(bits, 2)) */
  ff::limbs::big<4> next_bits(unsigned n);

 private:
  /* b_{i+80} = b_{i+62} + b_{i+51} + b_{i+38} + b_{i+23} + b_{i+13} + b_i */
  bool clock();

  std::array<std::uint8_t, 80> s_{};
  unsigned head_ = 0;  // s_[head_] is the oldest bit, b_i
};

}  // namespace cuzk::circuits
