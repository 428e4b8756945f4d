#include "ec/subgroup.hpp"

namespace cuzk::ec {

namespace {
/* Out of line: inlining both chains of in_subgroup into one body measured
   about 15% slower. */
[[gnu::noinline]] g1_jacobian_t times_x_abs(const g1_jacobian_t& p) { return mul_by_x_abs(p); }
}  // namespace

bool in_subgroup_bls12_381(const g1_jacobian_t& p) {
  g1_jacobian_t xx = times_x_abs(times_x_abs(p)); /* [x^2]P */
  return phi(p) == -xx;                           /* phi(P) = -[x^2]P */
}

}  // namespace cuzk::ec
