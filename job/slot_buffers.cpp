#include "job/slot_buffers.hpp"

#include <string>

#include "job/spec.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::job {

template <class C>
groth16::basic_buffer_view<C> slot_buffers(const shm::slot_payload& p, const groth16::basic_proving_key<C>& pk) {
  using fr_t = ff::fr<C>;
  static_assert(sizeof(fr_t) == 32);
  if (p.domain < pk.domain_size || p.witness < pk.n_vars)
    throw job_error("the slot (domain " + std::to_string(p.domain) + ", witness " + std::to_string(p.witness) +
                    ") is too small for the key (domain " + std::to_string(pk.domain_size) + ", witness " +
                    std::to_string(pk.n_vars) + ")");
  // Slot payloads are 2 MiB aligned and hold 32-byte elements: fr_t's layout.
  auto fr = [](std::span<std::uint8_t> b, std::size_t n) {
    return std::span<fr_t>(reinterpret_cast<fr_t*>(b.data()), n);
  };
  return {fr(p.a, pk.domain_size), fr(p.b, pk.domain_size), fr(p.c, pk.domain_size), fr(p.z, pk.n_vars)};
}

#define CUZK_INSTANTIATE(C) \
  template groth16::basic_buffer_view<C> slot_buffers(const shm::slot_payload&, const groth16::basic_proving_key<C>&);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::job
