// From a polynomial's evaluations on H = <ω> to its evaluations on the coset
// gH, in place and in natural order, as intt then coset_ntt but with no bit
// reversal and one pass fewer over memory: an inverse DIF leaves the
// coefficients a_j bit-reversed, a_j n^-1 g^j is applied where each lies, and
// a forward DIT takes them back to natural order,
//   V_i = Σ_j a_j (g ω^i)^j,  a_j = n^-1 Σ_l v_l ω^(-jl).
// The inverse's last in-block stages, the powers and the forward's first
// in-block stages run together, one block of B elements at a time in cache.
#pragma once

#include <span>

#include "curves/dispatch.hpp"
#include "poly/domain.hpp"

namespace cuzk::poly {

template <class C>
void coset_evaluations(const basic_domain<C>& d, std::span<ff::fr<C>> v, const ff::fr<C>& g);

#define CUZK_INSTANTIATE(C) \
  extern template void coset_evaluations(const basic_domain<C>&, std::span<ff::fr<C>>, const ff::fr<C>&);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::poly
