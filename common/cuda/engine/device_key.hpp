// A proving key's bases on the device, uploaded once and kept in the layout
// the MSM kernels want, so a second proof with the same key copies only its
// a, b, c and witness split. From the key's SRS region when it has one
// (groth16::mapped_bases, registered: pinned speed), else packed on the host.
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuda/msm/msm.hpp"
#include "groth16/keys.hpp"

namespace cuzk::cuda {

class device_key {
 public:
  /* queues the copies on s; the caller synchronises s before use */
  device_key(const groth16::proving_key& pk, cudaStream_t s);

  /* the same key (same object, same sizes and δ) as the one uploaded */
  bool holds(const groth16::proving_key& pk) const;

  /* the bases' bytes on the device */
  static std::size_t bases_bytes(const groth16::proving_key& pk);
  /* bases and the MSM temporaries the five queries keep (an estimate, msm/workspace.hpp) */
  static std::size_t footprint(const groth16::proving_key& pk);
  std::size_t bytes() const { return bytes_; }
  std::size_t footprint_bytes() const { return footprint_; }

  msm::g1_bases a, b1, c, h;
  msm::g2_bases b2;

 private:
  const groth16::proving_key* pk_;
  std::uint32_t n_vars_, domain_size_;
  ec::g1_affine_t delta1_;
  std::size_t bytes_, footprint_;
};

/* One query's bases, from the key's mapped bytes (one queued copy) or packed from its points. */
msm::g1_bases upload_g1(std::span<const std::uint8_t> mapped, std::span<const ec::g1_affine_t> points, cudaStream_t s);
msm::g2_bases upload_g2(std::span<const std::uint8_t> mapped, std::span<const ec::g2_affine_t> points, cudaStream_t s);

/* Device memory one proof's buffers need beside the key (a, b, c, NTT scratch, H, z and its split). */
std::size_t working_bytes(const groth16::proving_key& pk);

}  // namespace cuzk::cuda
