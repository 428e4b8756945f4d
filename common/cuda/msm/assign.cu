// Bucket assignment with CUB (radix sort per window, run-length encode, scans)
// and the chunk plans of the accumulation levels; buckets.cuh has the layout.
#include "cuda/msm/assign.hpp"

#include <algorithm>
#include <initializer_list>

#include <cub/device/device_radix_sort.cuh>
#include <cub/device/device_run_length_encode.cuh>
#include <cub/device/device_scan.cuh>

#include "cuda/error.hpp"
#include "cuda/msm/plan.cuh"

namespace cuzk::cuda::msm {

namespace {

constexpr unsigned block = 256;
unsigned grid(std::size_t threads) { return unsigned((threads + block - 1) / block); }

__global__ void booth_keys(const uint4* __restrict__ k, const std::uint32_t* __restrict__ idx, std::uint32_t first,
                           std::uint32_t n, unsigned c, unsigned w0, unsigned wn, unsigned K, std::uint32_t stride,
                           std::uint32_t* __restrict__ keys, std::uint32_t* __restrict__ vals) {
  const std::uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  const uint4 lo = k[2 * std::size_t(i)], hi = k[2 * std::size_t(i) + 1];
  const std::uint32_t limbs[8] = {lo.x, lo.y, lo.z, lo.w, hi.x, hi.y, hi.z, hi.w};
  step::booth_keys(i, limbs, idx, first, n, c, w0, wn, K, stride, keys, vals);
}

__global__ void scatter_runs(const std::uint32_t* __restrict__ unique, const std::uint32_t* __restrict__ lengths,
                             const std::uint32_t* __restrict__ num_runs, unsigned c, std::uint32_t h1,
                             std::uint32_t* __restrict__ counts) {
  const std::uint32_t r = blockIdx.x * blockDim.x + threadIdx.x;
  if (r < *num_runs) step::scatter_run(r, unique, lengths, c, h1, counts);
}

__global__ void segment_pieces(const std::uint32_t* __restrict__ counts, const std::uint32_t* __restrict__ offsets,
                               std::uint32_t nb, std::uint32_t h1, std::uint32_t L,
                               std::uint32_t* __restrict__ pieces) {
  const std::uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b <= nb) step::segment_pieces(b, counts, offsets, nb, h1, L, pieces);
}

__global__ void next_chunks(const std::uint32_t* __restrict__ prev_chunks, const std::uint32_t* __restrict__ prev_first,
                            std::uint32_t nb, std::uint32_t L, std::uint32_t* __restrict__ counts,
                            std::uint32_t* __restrict__ offsets, std::uint32_t* __restrict__ chunks) {
  const std::uint32_t b = blockIdx.x * blockDim.x + threadIdx.x;
  if (b <= nb) step::next_chunks(b, prev_chunks, prev_first, nb, L, counts, offsets, chunks);
}

void exclusive_sum(workspace& ws, const std::uint32_t* in, std::uint32_t* out, std::size_t n, cudaStream_t st) {
  std::size_t bytes = 0;
  CUZK_CUDA_OK(cub::DeviceScan::ExclusiveSum(nullptr, bytes, in, out, n, st));
  ensure(ws.temp, bytes, "MSM scan temporaries");
  CUZK_CUDA_OK(cub::DeviceScan::ExclusiveSum(ws.temp.data(), bytes, in, out, n, st));
}

}  // namespace

void reserve_assign(workspace& ws, std::size_t n, unsigned c, unsigned wn, unsigned K, cudaStream_t st) {
  const std::size_t items = std::size_t(wn) * n;
  const unsigned vn = (wn + K - 1) / K;
  const std::uint32_t nb = vn * ((std::uint32_t(1) << (c - 1)) + 1);
  std::uint32_t* keys0 = ensure(ws.keys[0], items, "MSM bucket keys");
  std::uint32_t* keys1 = ensure(ws.keys[1], items, "MSM sorted bucket keys");
  std::uint32_t* vals0 = ensure(ws.vals[0], items, "MSM bucket entries");
  std::uint32_t* vals1 = ensure(ws.vals[1], items, "MSM sorted bucket entries");
  std::uint32_t* unique = ensure(ws.unique, nb, "MSM bucket runs");
  std::uint32_t* lengths = ensure(ws.lengths, nb, "MSM bucket run lengths");
  std::uint32_t* num_runs = ensure(ws.num_runs, 1, "MSM bucket run count");
  std::uint32_t* counts = ensure(ws.counts, nb + 1, "MSM bucket sizes");
  std::uint32_t* offsets = ensure(ws.offsets, nb + 1, "MSM bucket offsets");
  for (unsigned i = 0; i < 2; ++i) {
    ensure(ws.chunks[i], nb + 1, "MSM piece counts");
    ensure(ws.first[i], nb + 1, "MSM piece offsets");
  }
  ensure(ws.level_counts, nb + 1, "MSM piece counts");
  ensure(ws.level_offsets, nb + 1, "MSM piece offsets");
  /* a virtual window's K n entries share their bits above c: sorting each on bits
     [0, c) sorts them all (double-buffered: CUB's temporaries stay small) */
  std::size_t sort_bytes = 0, rle_bytes = 0, scan_bytes = 0;
  {
    cub::DoubleBuffer<std::uint32_t> k(keys0, keys1), v(vals0, vals1);
    CUZK_CUDA_OK(
        cub::DeviceRadixSort::SortPairs(nullptr, sort_bytes, k, v, std::size_t(std::min(K, wn)) * n, 0, int(c), st));
  }
  CUZK_CUDA_OK(cub::DeviceRunLengthEncode::Encode(nullptr, rle_bytes, keys1, unique, lengths, num_runs, items, st));
  CUZK_CUDA_OK(cub::DeviceScan::ExclusiveSum(nullptr, scan_bytes, counts, offsets, nb + 1, st));
  ensure(ws.temp, std::max({sort_bytes, rle_bytes, scan_bytes}), "MSM sort temporaries");
}

void assign_buckets(workspace& ws, const scalars& s, unsigned c, unsigned w0, unsigned wn, unsigned K,
                    std::uint32_t stride, cudaStream_t st) {
  const auto n = std::uint32_t(s.n);
  const std::size_t items = std::size_t(wn) * n;
  const unsigned vn = (wn + K - 1) / K;
  const std::uint32_t h1 = (std::uint32_t(1) << (c - 1)) + 1, nb = vn * h1;
  reserve_assign(ws, n, c, wn, K, st);
  std::uint32_t *keys0 = ws.keys[0].data(), *keys1 = ws.keys[1].data(), *vals0 = ws.vals[0].data(),
                *vals1 = ws.vals[1].data(), *unique = ws.unique.data(), *lengths = ws.lengths.data(),
                *num_runs = ws.num_runs.data(), *counts = ws.counts.data(), *offsets = ws.offsets.data();
  /* reserve_assign sized ws.temp for the sorts and the encoding (CUB takes more than it asks for) */
  booth_keys<<<grid(n), block, 0, st>>>(reinterpret_cast<const uint4*>(s.k), s.idx, s.first, n, c, w0, wn, K, stride,
                                        keys0, vals0);
  CUZK_CUDA_LAUNCHED();
  for (unsigned v0 = 0; v0 < vn; ++v0) {
    const std::size_t o = std::size_t(v0) * K * n, len = std::size_t(std::min(K, wn - v0 * K)) * n;
    cub::DoubleBuffer<std::uint32_t> k(keys0 + o, keys1 + o), v(vals0 + o, vals1 + o);
    std::size_t temp_bytes = ws.temp.size();
    CUZK_CUDA_OK(cub::DeviceRadixSort::SortPairs(ws.temp.data(), temp_bytes, k, v, len, 0, int(c), st));
    if (k.Current() != keys1 + o) {
      CUZK_CUDA_OK(cudaMemcpyAsync(keys1 + o, k.Current(), len * 4, cudaMemcpyDeviceToDevice, st));
      CUZK_CUDA_OK(cudaMemcpyAsync(vals1 + o, v.Current(), len * 4, cudaMemcpyDeviceToDevice, st));
    }
  }
  std::size_t temp_bytes = ws.temp.size();
  CUZK_CUDA_OK(
      cub::DeviceRunLengthEncode::Encode(ws.temp.data(), temp_bytes, keys1, unique, lengths, num_runs, items, st));
  CUZK_CUDA_OK(cudaMemsetAsync(counts, 0, (nb + 1) * sizeof(std::uint32_t), st));
  scatter_runs<<<grid(nb), block, 0, st>>>(unique, lengths, num_runs, c, h1, counts);
  CUZK_CUDA_LAUNCHED();
  exclusive_sum(ws, counts, offsets, nb + 1, st);
}

void plan_first_level(workspace& ws, std::uint32_t nb, std::uint32_t h1, std::uint32_t L, cudaStream_t st) {
  std::uint32_t* chunks = ensure(ws.chunks[0], nb + 1, "MSM piece counts");
  std::uint32_t* first = ensure(ws.first[0], nb + 1, "MSM piece offsets");
  segment_pieces<<<grid(nb + 1), block, 0, st>>>(ws.counts.data(), ws.offsets.data(), nb, h1, L, chunks);
  CUZK_CUDA_LAUNCHED();
  exclusive_sum(ws, chunks, first, nb + 1, st);
}

void plan_next_level(workspace& ws, unsigned prev, std::uint32_t nb, std::uint32_t L, cudaStream_t st) {
  const unsigned next = 1 - prev;
  std::uint32_t* chunks = ensure(ws.chunks[next], nb + 1, "MSM chunk counts");
  std::uint32_t* first = ensure(ws.first[next], nb + 1, "MSM chunk offsets");
  std::uint32_t* counts = ensure(ws.level_counts, nb + 1, "MSM piece counts");
  std::uint32_t* offsets = ensure(ws.level_offsets, nb + 1, "MSM piece offsets");
  next_chunks<<<grid(nb + 1), block, 0, st>>>(ws.chunks[prev].data(), ws.first[prev].data(), nb, L, counts, offsets,
                                              chunks);
  CUZK_CUDA_LAUNCHED();
  exclusive_sum(ws, chunks, first, nb + 1, st);
}

}  // namespace cuzk::cuda::msm
