#include "circuits/sha256_gadget.hpp"

#include "circuits/sha256.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::circuits {

template <class C>
std::array<basic_word32<C>, 8> sha256_compress(r1cs::basic_constraint_system<C>& cs,
                                               const std::array<basic_word32<C>, 8>& state,
                                               const std::array<basic_word32<C>, 16>& block) {
  using word32 = basic_word32<C>;
  std::array<word32, 64> w;
  {
    r1cs::scope s(cs, "schedule");
    for (int t = 0; t < 16; ++t) w[t] = block[t];
    for (int t = 16; t < 64; ++t) {
      r1cs::scope ts(cs, "w", t);
      const word32& x15 = w[t - 15];
      const word32& x2 = w[t - 2];
      const word32 s0 = word_xor3(cs, x15.rotr(7), x15.rotr(18), x15.shr(3));  // sigma0
      const word32 s1 = word_xor3(cs, x2.rotr(17), x2.rotr(19), x2.shr(10));   // sigma1
      const word32 terms[] = {s1, w[t - 7], s0, w[t - 16]};
      w[t] = word_add(cs, terms);
    }
  }
  auto [a, b, c, d, e, f, g, h] = state;
  for (int t = 0; t < 64; ++t) {
    r1cs::scope rs(cs, "round", t);
    const word32 S1 = word_xor3(cs, e.rotr(6), e.rotr(11), e.rotr(25));
    const word32 ch = word_ch(cs, e, f, g);
    const word32 S0 = word_xor3(cs, a.rotr(2), a.rotr(13), a.rotr(22));
    const word32 maj = word_maj(cs, a, b, c);
    const word32 k = word32::constant(sha256_k[t]);
    const word32 e_terms[] = {d, h, S1, ch, k, w[t]};        // d + T1
    const word32 a_terms[] = {h, S1, ch, k, w[t], S0, maj};  // T1 + T2
    const word32 new_e = word_add(cs, e_terms);
    const word32 new_a = word_add(cs, a_terms);
    h = g;
    g = f;
    f = e;
    e = new_e;
    d = c;
    c = b;
    b = a;
    a = new_a;
  }
  r1cs::scope fs(cs, "final");
  const std::array<word32, 8> working = {a, b, c, d, e, f, g, h};
  std::array<word32, 8> out;
  for (int i = 0; i < 8; ++i) {
    const word32 terms[] = {state[i], working[i]};
    out[i] = word_add(cs, terms);
  }
  return out;
}

#define CUZK_INSTANTIATE(C)                                                                      \
  template std::array<basic_word32<C>, 8> sha256_compress(r1cs::basic_constraint_system<C>&,     \
                                                          const std::array<basic_word32<C>, 8>&, \
                                                          const std::array<basic_word32<C>, 16>&);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::circuits
