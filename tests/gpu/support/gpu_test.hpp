// What every GPU test needs: skip without a device, move host vectors to the
// device and back (synchronously), and view CPU field arrays as device ones.
#pragma once

#include <gtest/gtest.h>

#include <span>
#include <type_traits>
#include <vector>

#include "cuda/device.hpp"
#include "cuda/error.hpp"
#include "cuda/memory.hpp"

/* First line of every GPU test: reported SKIPPED (not passed) where there is no device. */
#define CUZK_REQUIRE_GPU()                                                   \
  do {                                                                       \
    if (::cuzk::cuda::device_count() == 0) GTEST_SKIP() << "no CUDA device"; \
  } while (0)

namespace cuzk::test {

/* cudaDeviceSynchronize, throwing cuda::error (a kernel's failure shows up here). */
void sync_device();

template <class T>
cuda::device_buffer<T> to_device(std::span<const T> host) {
  cuda::device_buffer<T> d(host.size(), "test input");
  d.upload(host);
  sync_device();
  return d;
}
template <class T>
cuda::device_buffer<T> to_device(const std::vector<T>& host) {
  return to_device(std::span<const T>(host));
}

template <class T>
std::vector<T> to_host(const cuda::device_buffer<T>& d) {
  std::vector<T> host(d.size());
  d.download(host);
  sync_device();
  return host;
}

/* A device array of the CPU type (cuzk::ff::fp_t) as the device type (cuda::fp_t): same bytes. */
template <class Device, class Host>
Device* as_device_type(cuda::device_buffer<Host>& d) {
  static_assert(sizeof(Device) == sizeof(Host) && std::is_trivially_copyable_v<Host>);
  return reinterpret_cast<Device*>(d.data());
}

/* Blocks of 256 threads covering n. */
inline unsigned blocks_for(std::size_t n, unsigned threads = 256) { return unsigned((n + threads - 1) / threads); }

}  // namespace cuzk::test
