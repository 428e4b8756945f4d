#include "circuits/word32.hpp"

#include <bit>

namespace cuzk::circuits {

using r1cs::lc;
using r1cs::variable;

word32 word32::constant(std::uint32_t v) {
  word32 w{};
  for (unsigned i = 0; i < 32; ++i) w.bits[i] = bit::constant((v >> i) & 1);
  return w;
}

word32 word32::alloc(r1cs::constraint_system& cs, std::uint32_t v) {
  word32 w = constant(0);
  for (unsigned i = 0; i < 32; ++i) w.bits[i] = bit::alloc(cs, (v >> i) & 1);
  return w;
}

std::uint32_t word32::value() const {
  std::uint32_t v = 0;
  for (unsigned i = 0; i < 32; ++i) v |= std::uint32_t(bits[i].value()) << i;
  return v;
}

word32 word32::rotr(unsigned n) const {
  word32 w = *this;
  for (unsigned i = 0; i < 32; ++i) w.bits[i] = bits[(i + n) % 32];
  return w;
}

word32 word32::shr(unsigned n) const {
  word32 w = constant(0);
  for (unsigned i = 0; i + n < 32; ++i) w.bits[i] = bits[i + n];
  return w;
}

word32 word_xor3(r1cs::constraint_system& cs, const word32& a, const word32& b, const word32& c) {
  word32 w = a;
  for (unsigned i = 0; i < 32; ++i) w.bits[i] = bit_xor(cs, bit_xor(cs, a.bits[i], b.bits[i]), c.bits[i]);
  return w;
}

word32 word_ch(r1cs::constraint_system& cs, const word32& e, const word32& f, const word32& g) {
  word32 w = e;
  for (unsigned i = 0; i < 32; ++i) w.bits[i] = bit_ch(cs, e.bits[i], f.bits[i], g.bits[i]);
  return w;
}

word32 word_maj(r1cs::constraint_system& cs, const word32& a, const word32& b, const word32& c) {
  word32 w = a;
  for (unsigned i = 0; i < 32; ++i) w.bits[i] = bit_maj(cs, a.bits[i], b.bits[i], c.bits[i]);
  return w;
}

word32 word_add(r1cs::constraint_system& cs, std::span<const word32> terms) {
  lc sum;
  std::uint64_t value = 0, max = 0, constant = 0;
  bool any_variable = false;
  for (const word32& t : terms) {
    value += t.value();
    for (unsigned i = 0; i < 32; ++i) {
      const bit& b = t.bits[i];
      max += 1ull << i;
      if (b.is_constant()) {
        constant += std::uint64_t(b.value()) << i;
        max -= std::uint64_t(!b.value()) << i;
      } else {
        sum.add(b.to_lc(), ff::fr_t::from_u64(1ull << i));
        any_variable = true;
      }
    }
  }
  if (!any_variable) return word32::constant(static_cast<std::uint32_t>(value));
  sum.add(variable::one(), ff::fr_t::from_u64(constant));
  sum.compact();
  const unsigned n = static_cast<unsigned>(std::bit_width(max));
  word32 out = word32::constant(0);
  lc bits_lc;
  for (unsigned i = 0; i < n; ++i) {
    const bit r = bit::alloc(cs, (value >> i) & 1);
    bits_lc.add(r.to_lc(), ff::fr_t::from_u64(1ull << i));
    if (i < 32) out.bits[i] = r;
  }
  cs.enforce(sum, variable::one(), bits_lc, "sum = sum 2^i r_i");
  return out;
}

}  // namespace cuzk::circuits
