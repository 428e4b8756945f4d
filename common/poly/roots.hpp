// Two-adic roots of unity of Fr. r - 1 = 2^32 t (t odd), so Fr holds
// primitive 2^k-th roots for k <= 32: x^(t 2^(32-k)) for a non-residue x.
// Which non-residue matters wherever evaluations are stored in domain order
// (snarkjs's H query), so the family is explicit.
#pragma once

#include "ff/fr.hpp"

namespace cuzk::poly {

using ff::fr_t;

enum class root_family {
  bellman,  // 7^t: fr_params::root_of_unity (bellman, bellperson, supraseal, arkworks)
  snarkjs,  // 5^t: ffjavascript's Fr.w, 5 the smallest quadratic non-residue
};

inline constexpr unsigned max_log_size = ff::fr_params::two_adicity;  // 32

/* the quadratic non-residue x of the family (7 or 5) */
fr_t root_base(root_family f);
/* x^t: a primitive 2^32-th root of unity */
fr_t two_adic_root(root_family f);
/* (x^t)^(2^(32-k)): a primitive 2^k-th root, k <= 32 */
fr_t primitive_root(unsigned log_order, root_family f);

}  // namespace cuzk::poly
