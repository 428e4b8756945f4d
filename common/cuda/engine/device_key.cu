#include "cuda/engine/device_key.hpp"

#include <algorithm>
#include <stdexcept>
#include <utility>

#include "cuda/error.hpp"
#include "cuda/msm/group.cuh"
#include "curves/dispatch.hpp"
#include "sizing/key_dims_of.hpp"

namespace cuzk::cuda {

namespace {

sizing::msm_shifts to_sizing(const msm::shifts& s) { return {s.copies, s.c}; }
msm::shifts of_sizing(const sizing::msm_shifts& s) { return {s.copies, s.c}; }
sizing::key_copies to_sizing(const key_shifts& k) {
  return {to_sizing(k.a), to_sizing(k.b1), to_sizing(k.b2), to_sizing(k.c), to_sizing(k.h)};
}

using sizing::dims_of;

static_assert(msm::group<ec::g1_affine<curves::bls12_381>>::point_bytes == 96 &&
                  msm::group<ec::g2_affine<curves::bls12_381>>::point_bytes == 192 &&
                  msm::group<ec::g1_affine<curves::bn254>>::point_bytes == 64 &&
                  msm::group<ec::g2_affine<curves::bn254>>::point_bytes == 128,
              "sizing::sizes_of must match the device's point sizes");
static_assert(msm::group<ec::g1_affine<curves::bls12_381>>::scalar_bits == 255 &&
                  msm::group<ec::g2_affine<curves::bls12_381>>::scalar_bits == 255 &&
                  msm::group<ec::g1_affine<curves::bn254>>::scalar_bits == 254 &&
                  msm::group<ec::g2_affine<curves::bn254>>::scalar_bits == 254,
              "sizing::sizes_of must match the device's scalar bits");

}  // namespace

std::string key_shifts::describe() const { return to_sizing(*this).describe(); }

template <class C>
key_shifts plan_key_shifts(const groth16::basic_proving_key<C>& pk, std::size_t allowance, int max_copies) {
  const sizing::key_copies k = sizing::plan_key_copies(dims_of(pk), allowance, max_copies);
  return {of_sizing(k.a), of_sizing(k.b1), of_sizing(k.b2), of_sizing(k.c), of_sizing(k.h)};
}

namespace {

/* The reader's bytes to device memory dst, through two pinned buffers: one fills while the other's copy runs. */
void copy_through_pinned(groth16::points_reader& r, std::byte* dst, std::size_t n, cudaStream_t s) {
  constexpr std::size_t chunk = std::size_t(64) << 20;
  const std::size_t each = std::min(chunk, n);
  struct pinned {
    void* p = nullptr;
    ~pinned() {
      if (p) (void)cudaFreeHost(p);
    }
  } buf[2];
  event copied[2];
  bool queued[2] = {false, false};
  for (auto& b : buf) CUZK_CUDA_OK(cudaHostAlloc(&b.p, each, cudaHostAllocPortable));
  try {
    for (std::size_t off = 0, k = 0; off < n; k ^= 1) {
      if (queued[k]) copied[k].sync();
      auto* host = static_cast<std::uint8_t*>(buf[k].p);
      const std::size_t got = r.next({host, std::min(each, n - off)});
      if (!got) throw std::runtime_error("a key file ended " + std::to_string(n - off) + " bytes before its section");
      CUZK_CUDA_OK(cudaMemcpyAsync(dst + off, host, got, cudaMemcpyHostToDevice, s));
      copied[k].record(s);
      queued[k] = true;
      off += got;
    }
    CUZK_CUDA_OK(cudaStreamSynchronize(s));
  } catch (...) {
    (void)cudaStreamSynchronize(s);  // no copy may still read a buffer freed on the way out
    throw;
  }
  r.finish();
}

}  // namespace

bool points_released(const groth16::mapped_bases& m) {
  return m.source && (m.source->released(m.a) || m.source->released(m.b1) || m.source->released(m.b2) ||
                      m.source->released(m.c) || m.source->released(m.h));
}

template <class Affine>
msm::device_bases<Affine> upload_bases(std::span<const std::uint8_t> mapped, const std::vector<Affine>& points,
                                       cudaStream_t s, unsigned room, const groth16::points_source* src) {
  if (!mapped.empty() && src && src->released(mapped)) {
    auto reader = src->open(mapped);
    return msm::device_bases<Affine>::from_filler(
        mapped.size(), [&](std::byte* dst) { copy_through_pinned(*reader, dst, mapped.size(), s); }, room);
  }
  if (!mapped.empty()) return msm::device_bases<Affine>::from_device_layout(mapped, s, room);
  return msm::device_bases<Affine>(std::span<const Affine>(points), s, room);
}

template <class C>
basic_device_key<C>::basic_device_key(const proving_key& pk, cudaStream_t s, const key_shifts& sh)
    : a(upload_bases(pk.mapped.a, pk.a, s, sh.a.copies, pk.mapped.source.get())),
      b1(upload_bases(pk.mapped.b1, pk.b1, s, sh.b1.copies, pk.mapped.source.get())),
      c(upload_bases(pk.mapped.c, pk.c, s, sh.c.copies, pk.mapped.source.get())),
      h(upload_bases(pk.mapped.h, pk.h_query, s, sh.h.copies, pk.mapped.source.get())),
      b2(upload_bases(pk.mapped.b2, pk.b2, s, sh.b2.copies, pk.mapped.source.get())),
      pk_(&pk),
      n_vars_(pk.n_vars),
      domain_size_(pk.domain_size),
      delta1_(pk.delta1),
      bytes_(bases_bytes(pk)),
      footprint_(footprint(pk, sh)),
      shifts_(sh) {
  CUZK_CUDA_OK(cudaStreamSynchronize(s));
  if (sh.total()) {
    h.shift(sh.h, s);
    c.shift(sh.c, s);
    a.shift(sh.a, s);
    b1.shift(sh.b1, s);
    b2.shift(sh.b2, s);
  }
  /* the MSM temporaries now: a key that does not fit fails here, not in a proof */
  h.prepare(h.size(), s);
  c.prepare(c.size(), s);
  a.prepare(a.size(), s);
  b1.prepare(b1.size(), s);
  b2.prepare(b2.size(), s);
}

template <class C>
std::size_t basic_device_key<C>::shifted_bytes() const {
  sizing::key_dims k;
  k.curve = C::id;
  k.a = a.size(), k.b1 = b1.size(), k.b2 = b2.size(), k.c = c.size(), k.h = h.size();
  return sizing::shifted_bytes(k, to_sizing(shifts_));
}

template <class C>
bool basic_device_key<C>::holds(const proving_key& pk) const {
  return &pk == pk_ && pk.n_vars == n_vars_ && pk.domain_size == domain_size_ && pk.delta1 == delta1_;
}

template <class C>
std::size_t basic_device_key<C>::bases_bytes(const proving_key& pk) {
  static_assert(proving_key::g1_bytes == msm::group<ec::g1_affine<C>>::point_bytes &&
                proving_key::g2_bytes == msm::group<ec::g2_affine<C>>::point_bytes);
  return sizing::bases_bytes(dims_of(pk));
}

template <class C>
std::size_t basic_device_key<C>::footprint(const proving_key& pk, const key_shifts& sh) {
  return sizing::key_footprint(dims_of(pk), to_sizing(sh));
}

template <class C>
std::size_t working_bytes(const groth16::basic_proving_key<C>& pk) {
  return sizing::working_bytes(dims_of(pk));
}

#define CUZK_DEVICE_KEY_INSTANCES(C)                                                                                \
  template class basic_device_key<C>;                                                                               \
  template key_shifts plan_key_shifts(const groth16::basic_proving_key<C>&, std::size_t, int);                      \
  template msm::basic_g1_bases<C> upload_bases(std::span<const std::uint8_t>, const std::vector<ec::g1_affine<C>>&, \
                                               cudaStream_t, unsigned, const groth16::points_source*);              \
  template msm::basic_g2_bases<C> upload_bases(std::span<const std::uint8_t>, const std::vector<ec::g2_affine<C>>&, \
                                               cudaStream_t, unsigned, const groth16::points_source*);              \
  template std::size_t working_bytes(const groth16::basic_proving_key<C>&);
CUZK_CURVES(CUZK_DEVICE_KEY_INSTANCES)
#undef CUZK_DEVICE_KEY_INSTANCES

}  // namespace cuzk::cuda
