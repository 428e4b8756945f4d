// Runs fixed matrices (a circom .r1cs) with a full assignment (its .wtns)
// through any constraint system, so circom circuits take the same paths as
// native ones: proving into a slot, checking, counting.
#pragma once

#include <span>
#include <type_traits>

#include "r1cs/constraint_system.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::r1cs {

/* Wire w becomes input w for w <= n_public, else aux w - n_public - 1. z has
   n_wires values with z[0] = 1; it may be empty where !cs.needs_values(). */
template <class C>
void replay(basic_constraint_system<C>& cs, const std::type_identity_t<basic_matrices<C>>& m,
            std::span<const ff::fr<C>> z);

}  // namespace cuzk::r1cs
