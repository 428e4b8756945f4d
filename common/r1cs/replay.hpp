// Runs fixed matrices (a circom .r1cs) with a full assignment (its .wtns)
// through any constraint system, so circom circuits take the same paths as
// native ones: proving into a slot, checking, counting.
#pragma once

#include <span>

#include "r1cs/constraint_system.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::r1cs {

/* Wire w becomes input w for w <= n_public, else aux w - n_public - 1. z has
   n_wires values with z[0] = 1; it may be empty where !cs.needs_values(). */
void replay(constraint_system& cs, const matrices& m, std::span<const fr_t> z);

}  // namespace cuzk::r1cs
