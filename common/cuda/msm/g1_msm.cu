// msm.hpp for G1.
#include "cuda/msm/pippenger.cuh"

namespace cuzk::cuda::msm {

template class device_bases<ec::g1_affine_t>;

ec::g1_jacobian_t pippenger(const g1_bases& b, const scalars& s, cudaStream_t st) { return pippenger_impl(b, s, st); }

ec::g1_jacobian_t sum(const g1_bases& b, const std::uint32_t* idx, std::uint32_t first, std::size_t n,
                      cudaStream_t st) {
  return sum_impl(b, idx, first, n, st);
}

}  // namespace cuzk::cuda::msm
