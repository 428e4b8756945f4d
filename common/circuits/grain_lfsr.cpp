#include "circuits/grain_lfsr.hpp"

namespace cuzk::circuits {

grain_lfsr::grain_lfsr(unsigned field, unsigned sbox, unsigned n, unsigned t, unsigned r_f, unsigned r_p) {
  unsigned k = 0;
  auto put = [&](unsigned value, unsigned width) {
    for (unsigned i = width; i-- > 0;) s_[k++] = static_cast<std::uint8_t>((value >> i) & 1);
  };
  put(field, 2);
  put(sbox, 4);
  put(n, 12);
  put(t, 12);
  put(r_f, 10);
  put(r_p, 10);
  while (k < 80) s_[k++] = 1;
  for (int i = 0; i < 160; ++i) clock();
}

bool grain_lfsr::clock() {
  auto b = [&](unsigned i) { return s_[(head_ + i) % 80]; };
  const std::uint8_t nb = b(62) ^ b(51) ^ b(38) ^ b(23) ^ b(13) ^ b(0);
  s_[head_] = nb;  // drop b_i, append b_{i+80}
  head_ = (head_ + 1) % 80;
  return nb;
}

bool grain_lfsr::next_bit() {
  while (!clock()) clock();
  return clock();
}

ff::limbs::big<4> grain_lfsr::next_bits(unsigned n) {
  ff::limbs::big<4> v{};
  for (unsigned i = n; i-- > 0;)
    if (next_bit()) v[i / 64] |= 1ull << (i % 64);
  return v;
}

}  // namespace cuzk::circuits
