// Device memory, streams and events: RAII over the CUDA runtime, every
// allocation checked against a budget first, so that a job that does not fit
// fails with out_of_memory naming what needed how much, never with a crash.
#pragma once

#include <atomic>
#include <cstddef>
#include <span>
#include <stdexcept>
#include <string>
#include <string_view>
#include <utility>

#include <cuda_runtime_api.h>

#include "cuda/error.hpp"

namespace cuzk::cuda {

/* One per device: an allocation must fit in cudaMemGetInfo's free bytes minus a reserve
   (kept for the CUDA runtime, CUB's temporary storage and other processes). */
class budget {
 public:
  explicit budget(std::size_t reserve_bytes = std::size_t(512) << 20) : reserve_(reserve_bytes) {}
  /* Throws out_of_memory: "<what> needs 1234.5 MiB of device memory; 567.8 MiB free (512.0 MiB kept in reserve)" */
  void check(std::size_t bytes, std::string_view what) const;
  std::size_t reserve() const { return reserve_.load(); }
  void set_reserve(std::size_t bytes) { reserve_.store(bytes); }

 private:
  std::atomic<std::size_t> reserve_;
};

/* Process-wide, for the current device. */
budget& default_budget();

namespace detail {
void* allocate(std::size_t bytes, std::string_view what, const budget& b);
void release(void* p) noexcept;
}  // namespace detail

/* RAII cudaMalloc/cudaFree of count T, move-only. */
template <class T>
class device_buffer {
 public:
  device_buffer() = default;
  device_buffer(std::size_t count, std::string_view what, const budget& b = default_budget())
      : p_(static_cast<T*>(detail::allocate(count * sizeof(T), what, b))), n_(count) {}
  device_buffer(device_buffer&& o) noexcept : p_(std::exchange(o.p_, nullptr)), n_(std::exchange(o.n_, 0)) {}
  device_buffer& operator=(device_buffer&& o) noexcept {
    if (this != &o) {
      detail::release(p_);
      p_ = std::exchange(o.p_, nullptr);
      n_ = std::exchange(o.n_, 0);
    }
    return *this;
  }
  device_buffer(const device_buffer&) = delete;
  device_buffer& operator=(const device_buffer&) = delete;
  ~device_buffer() { detail::release(p_); }

  T* data() { return p_; }
  const T* data() const { return p_; }
  std::size_t size() const { return n_; }
  std::size_t bytes() const { return n_ * sizeof(T); }
  bool empty() const { return n_ == 0; }

  /* cudaMemcpyAsync host to device into the first src.size() entries */
  void upload(std::span<const T> src, cudaStream_t s = 0) {
    if (src.size() > n_)
      throw std::length_error("device_buffer::upload: " + std::to_string(src.size()) + " entries into " +
                              std::to_string(n_));
    if (!src.empty()) CUZK_CUDA_OK(cudaMemcpyAsync(p_, src.data(), src.size_bytes(), cudaMemcpyHostToDevice, s));
  }
  /* device to host from the first dst.size() entries */
  void download(std::span<T> dst, cudaStream_t s = 0) const {
    if (dst.size() > n_)
      throw std::length_error("device_buffer::download: " + std::to_string(dst.size()) + " entries from " +
                              std::to_string(n_));
    if (!dst.empty()) CUZK_CUDA_OK(cudaMemcpyAsync(dst.data(), p_, dst.size_bytes(), cudaMemcpyDeviceToHost, s));
  }
  /* all bytes zero */
  void clear(cudaStream_t s = 0) {
    if (n_) CUZK_CUDA_OK(cudaMemsetAsync(p_, 0, bytes(), s));
  }

 private:
  T* p_ = nullptr;
  std::size_t n_ = 0;
};

/* A non-blocking stream (no implicit synchronisation with the legacy default stream). */
class stream {
 public:
  stream();
  stream(stream&& o) noexcept : s_(std::exchange(o.s_, nullptr)) {}
  stream& operator=(stream&& o) noexcept;
  stream(const stream&) = delete;
  stream& operator=(const stream&) = delete;
  ~stream();

  operator cudaStream_t() const { return s_; }
  void sync() const;

 private:
  cudaStream_t s_ = nullptr;
};

/* A timing event. */
class event {
 public:
  event();
  event(event&& o) noexcept : e_(std::exchange(o.e_, nullptr)) {}
  event& operator=(event&& o) noexcept;
  event(const event&) = delete;
  event& operator=(const event&) = delete;
  ~event();

  operator cudaEvent_t() const { return e_; }
  void record(cudaStream_t s = 0);
  void sync() const;
  /* milliseconds from a to b, both recorded and complete */
  static float ms(const event& a, const event& b);

 private:
  cudaEvent_t e_ = nullptr;
};

}  // namespace cuzk::cuda
