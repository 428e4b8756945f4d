// A proving key's bases on the device, uploaded once and kept in the layout
// the MSM kernels want, so a second proof with the same key copies only its
// a, b, c and witness split. From the key's SRS region when it has one
// (groth16::mapped_bases, registered: pinned speed), else packed on the host.
// Over a curve C; instantiated for every curve.
#pragma once

#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <vector>

#include "cuda/msm/msm.hpp"
#include "groth16/keys.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::cuda {

/* The shifted copies (msm::shifts) each query keeps on the device. */
struct key_shifts {
  msm::shifts a, b1, b2, c, h;
  unsigned total() const { return a.copies + b1.copies + b2.copies + c.copies + h.copies; }
  /* e.g. "h 11@22 l 11@22 a 11@22 b1 11@22 b2 5@22" (copies@window), or "none" */
  std::string describe() const;
};

/* Copies for a key within `allowance` device bytes (the copies and the larger
   MSM temporaries they bring), at most max_copies a query (-1: as many as
   fold every window into one): H first, then L (the C query), A, B1 and B2,
   each with the most copies that still fit. */
template <class C>
key_shifts plan_key_shifts(const groth16::basic_proving_key<C>& pk, std::size_t allowance, int max_copies);

template <class C>
class basic_device_key {
 public:
  using curve = C;
  using proving_key = groth16::basic_proving_key<C>;

  /* copies the bases, makes the shifted copies and allocates the MSM
     temporaries (blocking; cuda::out_of_memory when they do not fit) */
  basic_device_key(const proving_key& pk, cudaStream_t s, const key_shifts& sh = {});

  /* the same key (same object, same sizes and δ) as the one uploaded */
  bool holds(const proving_key& pk) const;

  /* the bases' bytes on the device */
  static std::size_t bases_bytes(const proving_key& pk);
  /* bases, shifted copies and the MSM temporaries the five queries keep (msm::workspace_bytes) */
  static std::size_t footprint(const proving_key& pk, const key_shifts& sh = {});
  std::size_t bytes() const { return bytes_; }
  std::size_t footprint_bytes() const { return footprint_; }
  const key_shifts& shifts() const { return shifts_; }
  /* the device bytes of the shifted copies' points */
  std::size_t shifted_bytes() const;

  msm::basic_g1_bases<C> a, b1, c, h;
  msm::basic_g2_bases<C> b2;

 private:
  const proving_key* pk_;
  std::uint32_t n_vars_, domain_size_;
  ec::g1_affine<C> delta1_;
  std::size_t bytes_, footprint_;
  key_shifts shifts_;
};

/* One query's bases, from the key's mapped bytes (one queued copy), from its
   file when its region released them (src: through pinned buffers, checked
   against the hash the region recorded; blocking), or packed from its points. */
template <class Affine>
msm::device_bases<Affine> upload_bases(std::span<const std::uint8_t> mapped, const std::vector<Affine>& points,
                                       cudaStream_t s, unsigned room = 0, const groth16::points_source* src = nullptr);

/* true: the key's points are no longer in host memory (host_copy = drop): it must stay resident */
bool points_released(const groth16::mapped_bases& m);

/* Device memory one proof's buffers need beside the key (a, b, c, NTT scratch, H, z and its split). */
template <class C>
std::size_t working_bytes(const groth16::basic_proving_key<C>& pk);

#define CUZK_INSTANTIATE(C) extern template class basic_device_key<C>;
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::cuda
