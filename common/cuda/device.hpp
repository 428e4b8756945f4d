// The CUDA devices of this machine.
#pragma once

#include <cstddef>
#include <string>

namespace cuzk::cuda {

/* 0 when there is no driver, no device, or any CUDA error: never throws. */
int device_count() noexcept;

struct device_info {
  int id;
  std::string name;
  int sms;
  std::size_t total_mem, free_mem;
  int cc_major, cc_minor;
};

/* Properties and current free memory of one device (throws cuda::error). */
device_info info(int device);

}  // namespace cuzk::cuda
