// Number-theoretic transforms over Fr on a domain H = <ω> of size n = 2^k:
// in place, natural order in and out, parallel in the calling thread's TBB
// arena (see poly/threads.hpp to bound the thread count).
#pragma once

#include <span>

#include "poly/domain.hpp"

namespace cuzk::poly {

/* coefficients -> evaluations:  A_i = Σ_j a_j ω^(ij) */
void ntt(const domain& d, std::span<fr_t> a);

/* evaluations -> coefficients:  a_j = n^-1 Σ_i A_i ω^(-ij) */
void intt(const domain& d, std::span<fr_t> a);

/* coefficients -> evaluations on the coset gH:  A_i = Σ_j a_j (g ω^i)^j,
   i.e. a_j <- a_j g^j, then ntt. g = domain::coset_generator() is bellman's
   coset, g = d.odd_coset_shift() snarkjs's. */
void coset_ntt(const domain& d, std::span<fr_t> a, const fr_t& g);

/* evaluations on gH -> coefficients: intt, then a_j <- a_j g^-j */
void coset_intt(const domain& d, std::span<fr_t> a, const fr_t& g);

}  // namespace cuzk::poly
