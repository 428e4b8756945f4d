// msm.hpp for G1.
#include "msm/msm.hpp"
#include "msm/msm_impl.hpp"

namespace cuzk::msm {

using curve = ec::g1_curve;

g1_jacobian_t msm_g1(std::span<const g1_affine_t> bases, std::span<const fr_t> scalars, const options& opt,
                     stats* st) {
  return detail::msm<curve>(bases, scalars, opt, st);
}
g1_jacobian_t msm_g1(std::span<const g1_affine_t> bases, std::span<const scalar_limbs_t> scalars,
                     const options& opt, stats* st) {
  return detail::msm<curve>(bases, scalars, opt, st);
}
g1_jacobian_t msm_g1(std::span<const g1_affine_t> bases, std::span<const std::uint32_t> ones,
                     std::span<const std::uint32_t> others, std::span<const scalar_limbs_t> other_scalars,
                     std::uint32_t first, const options& opt, stats* st) {
  return detail::presplit_msm<curve>(bases, ones, others, other_scalars, first, opt, st);
}
g1_jacobian_t pippenger_g1(std::span<const g1_affine_t> bases, std::span<const scalar_limbs_t> scalars,
                           const options& opt, stats* st) {
  return detail::plain_msm<curve>(bases, scalars, opt, st);
}
g1_jacobian_t sum_g1(std::span<const g1_affine_t> points, int threads) {
  return detail::with_threads(threads, [&] { return batch_sum<curve>(points); });
}

}  // namespace cuzk::msm
