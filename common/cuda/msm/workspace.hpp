// The temporaries of a device MSM, cached per bases object and grown to the
// largest call seen (msm.hpp: device_bases::scratch()).
#pragma once

#include <cstddef>
#include <cstdint>

#include "cuda/memory.hpp"

namespace cuzk::cuda::msm {

struct workspace {
  /* bucket assignment: (key, value) before and after the sort, runs, dense counts and offsets */
  device_buffer<std::uint32_t> keys[2], vals[2], unique, lengths, num_runs, counts, offsets;
  /* accumulation levels: chunk counts and their scans, ping-pong; a level's bucket counts and offsets */
  device_buffer<std::uint32_t> chunks[2], first[2], level_counts, level_offsets;
  /* CUB temporary storage; XYZZ buckets, pieces (ping-pong), window shares (ping-pong) and the reduction's
     segment sums R_j, a level's buckets (ping-pong) */
  device_buffer<std::byte> temp, buckets, pieces[2], shares[2], runs[2];
};

/* b holds at least n entries (its contents are lost when it grows) */
template <class T>
T* ensure(device_buffer<T>& b, std::size_t n, const char* what) {
  if (b.size() < n) {
    b = device_buffer<T>();
    b = device_buffer<T>(n, what);
  }
  return b.data();
}

}  // namespace cuzk::cuda::msm
