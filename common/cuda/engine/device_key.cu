#include "cuda/engine/device_key.hpp"

#include <algorithm>

namespace cuzk::cuda {

namespace {

constexpr std::size_t g1_point = 96, g2_point = 192;

/* Pippenger's temporaries for n scalars: sort keys and values (two
   buffers each, 16 B per scalar and window, at most 2 GiB a group of
   windows), buckets and pieces. */
std::size_t msm_workspace(std::size_t n) {
  const std::size_t windows = 20;
  return std::min<std::size_t>(2 * 16 * n * windows, std::size_t(4) << 30) + (std::size_t(256) << 20);
}

}  // namespace

msm::g1_bases upload_g1(std::span<const std::uint8_t> mapped, std::span<const ec::g1_affine_t> points, cudaStream_t s) {
  if (!mapped.empty()) return msm::g1_bases::from_device_layout(mapped, s);
  return msm::g1_bases(points, s);
}

msm::g2_bases upload_g2(std::span<const std::uint8_t> mapped, std::span<const ec::g2_affine_t> points, cudaStream_t s) {
  if (!mapped.empty()) return msm::g2_bases::from_device_layout(mapped, s);
  return msm::g2_bases(points, s);
}

device_key::device_key(const groth16::proving_key& pk, cudaStream_t s)
    : a(upload_g1(pk.mapped.a, pk.a, s)), b1(upload_g1(pk.mapped.b1, pk.b1, s)), c(upload_g1(pk.mapped.c, pk.c, s)),
      h(upload_g1(pk.mapped.h, pk.h_query, s)), b2(upload_g2(pk.mapped.b2, pk.b2, s)), pk_(&pk),
      n_vars_(pk.n_vars), domain_size_(pk.domain_size), delta1_(pk.delta1), bytes_(bases_bytes(pk)),
      footprint_(footprint(pk)) {}

bool device_key::holds(const groth16::proving_key& pk) const {
  return &pk == pk_ && pk.n_vars == n_vars_ && pk.domain_size == domain_size_ && pk.delta1 == delta1_;
}

std::size_t device_key::bases_bytes(const groth16::proving_key& pk) {
  return (pk.a_count() + pk.b1_count() + pk.c_count() + pk.h_count()) * g1_point + pk.b2_count() * g2_point;
}

std::size_t device_key::footprint(const groth16::proving_key& pk) {
  return bases_bytes(pk) + 4 * msm_workspace(std::max<std::size_t>(pk.n_vars, pk.domain_size)) +
         msm_workspace(pk.n_vars);
}

std::size_t working_bytes(const groth16::proving_key& pk) {
  const std::size_t n = pk.domain_size, v = pk.n_vars;
  return 32 * (3 * n + 2 * n + n + v) + 4 * n + 40 * v + (std::size_t(64) << 20);
}

}  // namespace cuzk::cuda
