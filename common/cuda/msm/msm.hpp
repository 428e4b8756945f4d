// Multi-scalar multiplication on the device, G1 and G2 of BLS12-381 and BN254:
// Pippenger's bucket method with signed digits (pippenger.cuh) and the sum of
// the bases whose scalar is one (reduce.cuh). Bases are uploaded once and stay
// resident; each bases object caches the temporaries of its MSMs (a
// workspace, reused across calls; one call at a time per bases object, others
// wait). The four groups are instantiated one translation unit each
// (group_msm.cu.in).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <mutex>
#include <span>

#include <cuda_runtime_api.h>

#include "cuda/memory.hpp"
#include "curves/bls12_381.hpp"
#include "curves/bn254.hpp"
#include "ec/config.hpp"

namespace cuzk::cuda::msm {

struct workspace;

/* Precomputed shifted copies of a query's bases: copy k of base P is 2^(kc) P,
   k = 0 .. copies, so that one Pippenger window of c bits in each group of
   copies + 1 windows reads copy k instead of doubling its sum k c times
   afterwards: ceil(W / (copies + 1)) bucket reductions instead of W.
   copies = 0: the bases alone, plain Pippenger. */
struct shifts {
  unsigned copies = 0;
  unsigned c = 0;
  friend bool operator==(const shifts&, const shifts&) = default;
};

/* The CPU group (ec::g1_group<C> or ec::g2_group<C>) whose affine points are Affine. */
template <class Affine>
struct group_of;
template <class P>
struct group_of<ec::affine_point<ff::mont_field<P>>> {
  using type = ec::g1_group<typename P::curve>;
};
template <class C>
struct group_of<ec::affine_point<ff::fp2<C>>> {
  using type = ec::g2_group<C>;
};
template <class Affine>
using jacobian_of = ec::jacobian<typename group_of<Affine>::type>;

/* A key's bases on the device, in the layout the kernels want (x, y; the
   point at infinity is (0, 0)): two field elements a point, 96 B in G1 and
   192 B in G2 of BLS12-381, 64 B and 128 B on BN254. Affine is the CPU's
   ec::g1_affine<C> or ec::g2_affine<C>. */
template <class Affine>
class device_bases {
 public:
  /* room: shifted copies to leave room for (shift() fills them in place) */
  explicit device_bases(std::span<const Affine> host, cudaStream_t s = 0, unsigned room = 0);
  /* Bytes already in the device layout (a .zkey's points section,
     groth16::mapped_bases): one copy queued on s, which the caller
     synchronises before the bases are used. */
  static device_bases from_device_layout(std::span<const std::uint8_t> bytes, cudaStream_t s, unsigned room = 0);
  /* The same bytes written by fill (to the device address it gets, all `bytes` of them, before it returns):
     a key whose points come from its file a buffer at a time. */
  static device_bases from_filler(std::size_t bytes, const std::function<void(std::byte* device)>& fill,
                                  unsigned room = 0);
  device_bases(device_bases&&) noexcept;
  device_bases& operator=(device_bases&&) noexcept;
  ~device_bases();

  std::size_t size() const { return n_; }
  /* copy 0 (the bases) then the shifted copies, n points each */
  const std::byte* data() const { return points_.data(); }
  const shifts& shifted() const { return shifts_; }
  /* the device bytes of the points, copies included */
  std::size_t bytes() const { return points_.size(); }

  /* Computes sh.copies shifted copies on the device, 2^c times the one before
     (c doublings, then to affine with one inversion per run of points), and
     keeps them resident; replaces any copies already made. Blocks until done. */
  void shift(const shifts& sh, cudaStream_t s);

  /* Allocates now the temporaries of a Pippenger of n scalars (cuda::out_of_memory
     here rather than in a proof's MSM) */
  void prepare(std::size_t n, cudaStream_t s) const;

  /* the cached temporaries; hold lock() while using them */
  workspace& scratch() const { return *ws_; }
  std::mutex& lock() const { return *mutex_; }

 private:
  device_bases() = default;
  std::size_t n_ = 0;
  shifts shifts_;
  device_buffer<std::byte> points_;
  std::unique_ptr<workspace> ws_;
  std::unique_ptr<std::mutex> mutex_;
};

template <class C>
using basic_g1_bases = device_bases<ec::g1_affine<C>>;
template <class C>
using basic_g2_bases = device_bases<ec::g2_affine<C>>;

/* The scalars of one MSM, on the device: scalar i (canonical, below the r of
   the bases' curve) goes with base idx[i] - first, or base i when idx is null. */
struct scalars {
  const ec::scalar_limbs_t* k;
  const std::uint32_t* idx;
  std::uint32_t first = 0;
  std::size_t n;
};

/* sum_i k_i base(i) by Pippenger: signed digits, buckets assigned by CUB radix
   sort / run-length encode / scan, XYZZ bucket sums, running-sum reduction on
   the device; the windows are combined on the host. With shifted copies the
   windows fold into ceil(W / (copies + 1)) virtual ones when the cost model
   (plain_cost, shifted_cost) says it pays. Blocks until done. */
/* Where a Pippenger's device time went (CUDA events on its stream, summed over
   its groups of windows), for benchmarks: bucket assignment (keys, sort,
   run-length encoding, scans), accumulation (every level) and reduction. */
struct phase_times {
  double assign_ms = 0, accumulate_ms = 0, reduce_ms = 0;
};

template <class Affine>
jacobian_of<Affine> pippenger(const device_bases<Affine>& b, const scalars& s, cudaStream_t st,
                              phase_times* times = nullptr);

/* sum_i base(idx[i] - first) (base i when idx is null), by a parallel tree of
   XYZZ additions. Blocks until done. */
template <class Affine>
jacobian_of<Affine> sum(const device_bases<Affine>& b, const std::uint32_t* idx, std::uint32_t first, std::size_t n,
                        cudaStream_t st);

/* The window size Pippenger uses for n scalars below 2^scalar_bits (r has 255
   bits on BLS12-381, 254 on BN254; exposed for tests and benchmarks). */
unsigned window_bits(std::size_t n, unsigned scalar_bits = 255);

/* The cost model behind the windows, in point additions: W(c) windows of n
   bucket additions, a reduction of 2^(c-1) buckets (about three additions
   each) and a fixed cost per (virtual) window, its sort and launches. */
double plain_cost(std::size_t n, unsigned c, unsigned scalar_bits);
double shifted_cost(std::size_t n, const shifts& sh, unsigned scalar_bits);

/* The window for shifted copies of n bases, at most max_copies of them (the
   copies stop at W(c) - 1: then one virtual window holds every window). */
shifts plan_shifts(std::size_t n, unsigned max_copies, unsigned scalar_bits = 255);

/* The largest window the device uses (its buckets: 2^(c-1) per virtual window) */
inline constexpr unsigned max_shifted_window = 22;
/* the bases and their copies, all of them: (copies + 1) n below this */
inline constexpr std::size_t max_shifted_points = std::size_t(1) << 31;

/* Device bytes of Pippenger's temporaries for n scalars (msm/workspace.hpp),
   xyzz_bytes a bucket, plain or over shifted copies. */
std::size_t workspace_bytes(std::size_t n, const shifts& sh, std::size_t xyzz_bytes, unsigned scalar_bits = 255);

}  // namespace cuzk::cuda::msm
