// Bucket reduction: the window sum sum_{b=1}^{m} b B_b from the bucket sums,
// by running sums from the top (Pippenger; Bernstein, Doumen, Lange, Oosterwijk,
// "Faster batch forgery identification", 2012, section 4):
//   R_b = B_m + ... + B_b,   sum_b b B_b = R_m + R_{m-1} + ... + R_1.
// R changes only at non-empty buckets, so a run of g positions over which it
// is constant is added once as g R (double-and-add): with few points per
// bucket (small inputs, many chunks) the cost follows the non-empty buckets.
// Everything in XYZZ coordinates; the result in Jacobian. (Full windows go
// through bucket_reduce_batched.hpp instead.)
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>

#include "msm/xyzz.hpp"

namespace cuzk::msm {

/* sum_i (i + 1) B_i */
template <class Curve>
ec::jacobian<Curve> reduce_buckets(std::span<const ec::affine_point<typename Curve::field_t>> buckets) {
  xyzz<Curve> running, total;
  std::uint64_t run = 0;  // positions since R last changed, not yet in total
  auto flush = [&] {
    if (run == 0 || running.is_identity()) return;
    if (run == 1)
      total += running; /* total += R */
    else
      total += times(running, run); /* total += g R */
  };
  for (std::size_t i = buckets.size(); i-- > 0;) {
    if (!buckets[i].infinity) {
      flush();
      running += buckets[i]; /* R_b = R_{b+1} + B_b */
      run = 0;
    }
    ++run;
  }
  flush();
  return total.to_jacobian();
}

}  // namespace cuzk::msm
