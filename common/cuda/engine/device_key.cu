#include "cuda/engine/device_key.hpp"

#include <algorithm>

namespace cuzk::cuda {

namespace {

/* Pippenger's temporaries for n scalars: sort keys and values (two
   buffers each, 16 B per scalar and window, at most 2 GiB a group of
   windows), buckets and pieces. */
std::size_t msm_workspace(std::size_t n) {
  const std::size_t windows = 20;
  return std::min<std::size_t>(2 * 16 * n * windows, std::size_t(4) << 30) + (std::size_t(256) << 20);
}

}  // namespace

template <class Affine>
msm::device_bases<Affine> upload_bases(std::span<const std::uint8_t> mapped, const std::vector<Affine>& points,
                                       cudaStream_t s) {
  if (!mapped.empty()) return msm::device_bases<Affine>::from_device_layout(mapped, s);
  return msm::device_bases<Affine>(std::span<const Affine>(points), s);
}

template <class C>
basic_device_key<C>::basic_device_key(const proving_key& pk, cudaStream_t s)
    : a(upload_bases(pk.mapped.a, pk.a, s)), b1(upload_bases(pk.mapped.b1, pk.b1, s)),
      c(upload_bases(pk.mapped.c, pk.c, s)), h(upload_bases(pk.mapped.h, pk.h_query, s)),
      b2(upload_bases(pk.mapped.b2, pk.b2, s)), pk_(&pk), n_vars_(pk.n_vars), domain_size_(pk.domain_size),
      delta1_(pk.delta1), bytes_(bases_bytes(pk)), footprint_(footprint(pk)) {}

template <class C>
bool basic_device_key<C>::holds(const proving_key& pk) const {
  return &pk == pk_ && pk.n_vars == n_vars_ && pk.domain_size == domain_size_ && pk.delta1 == delta1_;
}

template <class C>
std::size_t basic_device_key<C>::bases_bytes(const proving_key& pk) {
  return (pk.a_count() + pk.b1_count() + pk.c_count() + pk.h_count()) * proving_key::g1_bytes +
         pk.b2_count() * proving_key::g2_bytes;
}

template <class C>
std::size_t basic_device_key<C>::footprint(const proving_key& pk) {
  return bases_bytes(pk) + 4 * msm_workspace(std::max<std::size_t>(pk.n_vars, pk.domain_size)) +
         msm_workspace(pk.n_vars);
}

template <class C>
std::size_t working_bytes(const groth16::basic_proving_key<C>& pk) {
  const std::size_t n = pk.domain_size, v = pk.n_vars;
  return 32 * (3 * n + 2 * n + n + v) + 4 * n + 40 * v + (std::size_t(64) << 20);
}

#define CUZK_DEVICE_KEY_INSTANCES(C)                                                                         \
  template class basic_device_key<C>;                                                                        \
  template msm::basic_g1_bases<C> upload_bases(std::span<const std::uint8_t>, const std::vector<ec::g1_affine<C>>&, \
                                               cudaStream_t);                                                \
  template msm::basic_g2_bases<C> upload_bases(std::span<const std::uint8_t>, const std::vector<ec::g2_affine<C>>&, \
                                               cudaStream_t);                                                \
  template std::size_t working_bytes(const groth16::basic_proving_key<C>&);
CUZK_DEVICE_KEY_INSTANCES(curves::bls12_381)
CUZK_DEVICE_KEY_INSTANCES(curves::bn254)
#undef CUZK_DEVICE_KEY_INSTANCES

}  // namespace cuzk::cuda
