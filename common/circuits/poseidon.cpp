#include "circuits/poseidon.hpp"
#include "curves/dispatch.hpp"

#include <stdexcept>

namespace cuzk::circuits {

namespace {

template <class F>
F pow5(const F& x) {
  const F x2 = x.sqr();
  return x2.sqr() * x;  // x^5 = (x^2)^2 x
}

}  // namespace

template <class C>
std::array<ff::fr<C>, 3> poseidon_permute(const std::array<ff::fr<C>, 3>& state, const basic_poseidon_params<C>& p) {
  using fr = ff::fr<C>;
  if (p.t != 3) throw std::invalid_argument("poseidon_permute: parameters are not for width 3");
  std::array<fr, 3> s = state;
  const unsigned half = p.r_f / 2;
  for (unsigned round = 0; round < p.rounds(); ++round) {
    for (unsigned i = 0; i < 3; ++i) s[i] += p.rc(round, i);
    const bool full = round < half || round >= half + p.r_p;
    for (unsigned i = 0; i < (full ? 3u : 1u); ++i) s[i] = pow5(s[i]);
    std::array<fr, 3> next{};
    for (unsigned i = 0; i < 3; ++i)
      for (unsigned j = 0; j < 3; ++j) next[i] += p.m(i, j) * s[j];
    s = next;
  }
  return s;
}

template <class C>
ff::fr<C> poseidon_hash2(const ff::fr<C>& l, const ff::fr<C>& r) {
  return poseidon_permute<C>({ff::fr<C>::zero(), l, r})[0];
}

#define CUZK_INSTANTIATE(C)                                                               \
  template std::array<ff::fr<C>, 3> poseidon_permute<C>(const std::array<ff::fr<C>, 3>&,  \
                                                        const basic_poseidon_params<C>&); \
  template ff::fr<C> poseidon_hash2<C>(const ff::fr<C>&, const ff::fr<C>&);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::circuits
