#include "circuits/poseidon.hpp"

#include <stdexcept>

namespace cuzk::circuits {

namespace {

fr_t pow5(const fr_t& x) {
  const fr_t x2 = x.sqr();
  return x2.sqr() * x;  // x^5 = (x^2)^2 x
}

}  // namespace

std::array<fr_t, 3> poseidon_permute(const std::array<fr_t, 3>& state, const poseidon_params& p) {
  if (p.t != 3) throw std::invalid_argument("poseidon_permute: parameters are not for width 3");
  std::array<fr_t, 3> s = state;
  const unsigned half = p.r_f / 2;
  for (unsigned round = 0; round < p.rounds(); ++round) {
    for (unsigned i = 0; i < 3; ++i) s[i] += p.rc(round, i);
    const bool full = round < half || round >= half + p.r_p;
    for (unsigned i = 0; i < (full ? 3u : 1u); ++i) s[i] = pow5(s[i]);
    std::array<fr_t, 3> next{};
    for (unsigned i = 0; i < 3; ++i)
      for (unsigned j = 0; j < 3; ++j) next[i] += p.m(i, j) * s[j];
    s = next;
  }
  return s;
}

fr_t poseidon_hash2(const fr_t& l, const fr_t& r) { return poseidon_permute({fr_t::zero(), l, r})[0]; }

}  // namespace cuzk::circuits
