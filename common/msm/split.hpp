// The scalar split of DESIGN.md §5 (as supraseal does): a proving witness is
// full of 0s and 1s (boolean wires, bit decompositions), so
//   sum_i k_i P_i = sum_{k_i = 1} P_i + sum_{k_i > 1} k_i P_i,
// zeros skipped, the ones summed by batch addition (batch_sum.hpp), and only
// the rest through Pippenger. Classifying also converts the scalars Pippenger
// needs to canonical integers, in parallel. Templated over the curve C
// (instantiated in split.cpp for BLS12-381 and BN254); the split itself is
// curve-free (indices and canonical 4-limb integers).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "curves/bls12_381.hpp"
#include "curves/bn254.hpp"
#include "ec/config.hpp"
#include "ff/fr.hpp"
#include "msm/options.hpp"

namespace cuzk::msm {

struct scalar_split {
  std::size_t zeros = 0;
  std::vector<std::uint32_t> ones;                // i with k_i = 1, increasing
  std::vector<std::uint32_t> others;              // i with k_i > 1, increasing
  std::vector<ec::scalar_limbs_t> other_scalars;  // k_i for those i, canonical, < r

  split_counts counts() const { return {zeros, ones.size(), others.size()}; }
};

/* Scalars of Fr(C) in Montgomery form. At most 2^32 - 1 of them (throws
   otherwise). */
template <class C>
scalar_split split_scalars(std::span<const ff::fr<C>> scalars);
/* Canonical integers, taken mod C's r (a value >= r counts as its residue:
   r is a zero, r + 1 a one). */
template <class C>
scalar_split split_scalars(std::span<const ec::scalar_limbs_t> scalars);

/* BLS12-381 */
inline scalar_split split_scalars(std::span<const ec::fr_t> scalars) {
  return split_scalars<curves::bls12_381>(scalars);
}
inline scalar_split split_scalars(std::span<const ec::scalar_limbs_t> scalars) {
  return split_scalars<curves::bls12_381>(scalars);
}

}  // namespace cuzk::msm
