// A proving key on a GPU, as plain arithmetic (no CUDA): its bases, the
// shifted copies that fit beside them, the MSM temporaries it keeps, one
// proof's buffers, and the budget a device context works within. The CUDA
// engine (cuda/engine/device_key.cu, device_context.cu) and the node planner
// (cuzk plan) both call these, so what the planner says fits is what the
// server makes resident.
#pragma once

#include <cstdint>
#include <string>

#include "curves/curve_id.hpp"
#include "sizing/msm_memory.hpp"

namespace cuzk::sizing {

/* A key's shape: its curve and its bases per query (a .zkey's sections 5–9). */
struct key_dims {
  curves::curve_id curve = curves::curve_id::bls12_381;
  std::uint64_t n_vars = 0;  // witness length, ONE included
  std::uint64_t domain = 0;  // n, a power of two
  std::uint64_t a = 0, b1 = 0, b2 = 0, c = 0, h = 0;

  /* a = b1 = b2 = n_vars, c = n_vars − n_public − 1, h = domain (odd-coset
     H form, snarkjs's) or domain − 1 (coefficient form) */
  static key_dims of(curves::curve_id curve, std::uint64_t n_vars, std::uint64_t n_public, std::uint64_t domain,
                     bool coefficient_form = false);
};

/* Bytes of one affine point on the device and in a .zkey (two or four field
   elements of Fp), and the bits of r. */
struct curve_sizes {
  std::uint64_t g1 = 0, g2 = 0;
  unsigned scalar_bits = 0;
};
curve_sizes sizes_of(curves::curve_id c) noexcept;

/* The shifted copies (msm_shifts) each query keeps on the device. */
struct key_copies {
  msm_shifts a, b1, b2, c, h;
  unsigned total() const { return a.copies + b1.copies + b2.copies + c.copies + h.copies; }
  /* e.g. "h 11@22 l 11@22 a 11@22 b1 11@22 b2 5@22" (copies@window), or "none" */
  std::string describe() const;
};

/* the bases' bytes */
std::uint64_t bases_bytes(const key_dims& k);
/* bases, shifted copies and the MSM temporaries the five queries keep */
std::uint64_t key_footprint(const key_dims& k, const key_copies& sh = {});
/* the device bytes of the shifted copies' points */
std::uint64_t shifted_bytes(const key_dims& k, const key_copies& sh);
/* Device memory one proof's buffers need beside the key (a, b, c, NTT
   scratch, H, z and its split). */
std::uint64_t working_bytes(const key_dims& k);

/* Copies within `allowance` device bytes (the copies and the larger MSM
   temporaries they bring), at most max_copies a query (-1: as many as fold
   every window into one): H first, then L (the C query), A, B1 and B2, each
   with the most copies that still fit. */
key_copies plan_key_copies(const key_dims& k, std::uint64_t allowance, int max_copies);

/* What a device context's resident keys and workers' buffers may use: the
   configured budget (capped at the device's memory less the reserve), or
   when 0 that memory split between the contexts sharing the device. */
std::uint64_t device_budget(std::uint64_t total_mem, std::uint64_t reserve, std::uint64_t configured, unsigned sharers);
/* What making k resident asks of the budget: its footprint without copies
   and every worker's buffers. */
std::uint64_t resident_need(const key_dims& k, unsigned workers);
/* The device bytes the copies may take: what the budget and the device's
   free memory (free_now; the reserve stays free) leave after the need, less
   a margin of the reserve and a quarter of each worker's buffers (on the
   H200 a 2^25 key planned to the byte left 1.0 GiB free under the 2 GiB
   reserve once both workers allocated, and every proof failed). */
std::uint64_t copies_allowance(const key_dims& k, unsigned workers, std::uint64_t budget, std::uint64_t resident_bytes,
                               std::uint64_t free_now, std::uint64_t reserve);
/* The most proving workers whose buffers fit beside k resident (copies
   aside) within the budget; 0 when the key alone does not fit. */
unsigned workers_that_fit(const key_dims& k, std::uint64_t budget);

}  // namespace cuzk::sizing
