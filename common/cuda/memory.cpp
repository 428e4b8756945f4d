#include "cuda/memory.hpp"

#include <array>
#include <memory>
#include <mutex>

namespace cuzk::cuda {

void budget::check(std::size_t bytes, std::string_view what) const {
  std::size_t free = 0, total = 0;
  CUZK_CUDA_OK(cudaMemGetInfo(&free, &total));
  const std::size_t reserve = reserve_.load();
  if (bytes > free || free - bytes < reserve) throw out_of_memory(what, bytes, free, reserve);
}

budget& default_budget() {
  constexpr int max_devices = 64;
  static std::array<std::unique_ptr<budget>, max_devices> budgets;
  static std::mutex m;
  int d = 0;
  CUZK_CUDA_OK(cudaGetDevice(&d));
  if (d < 0 || d >= max_devices)
    throw error(cudaErrorInvalidDevice, "cuda::default_budget: device " + std::to_string(d));
  std::lock_guard lock(m);
  if (!budgets[d]) budgets[d] = std::make_unique<budget>();
  return *budgets[d];
}

namespace detail {

void* allocate(std::size_t bytes, std::string_view what, const budget& b) {
  if (bytes == 0) return nullptr;
  b.check(bytes, what);
  void* p = nullptr;
  const cudaError_t e = cudaMalloc(&p, bytes);
  if (e == cudaErrorMemoryAllocation) {  // another allocation won the race since the check
    cudaGetLastError();
    std::size_t free = 0, total = 0;
    cudaMemGetInfo(&free, &total);
    throw out_of_memory(what, bytes, free, b.reserve());
  }
  CUZK_CUDA_OK(e);
  return p;
}

void release(void* p) noexcept {
  if (p) cudaFree(p);
}

}  // namespace detail

stream::stream() { CUZK_CUDA_OK(cudaStreamCreateWithFlags(&s_, cudaStreamNonBlocking)); }

stream& stream::operator=(stream&& o) noexcept {
  if (this != &o) {
    if (s_) cudaStreamDestroy(s_);
    s_ = std::exchange(o.s_, nullptr);
  }
  return *this;
}

stream::~stream() {
  if (s_) cudaStreamDestroy(s_);
}

void stream::sync() const { CUZK_CUDA_OK(cudaStreamSynchronize(s_)); }

event::event() { CUZK_CUDA_OK(cudaEventCreate(&e_)); }

event& event::operator=(event&& o) noexcept {
  if (this != &o) {
    if (e_) cudaEventDestroy(e_);
    e_ = std::exchange(o.e_, nullptr);
  }
  return *this;
}

event::~event() {
  if (e_) cudaEventDestroy(e_);
}

void event::record(cudaStream_t s) { CUZK_CUDA_OK(cudaEventRecord(e_, s)); }

void event::sync() const { CUZK_CUDA_OK(cudaEventSynchronize(e_)); }

float event::ms(const event& a, const event& b) {
  float t = 0;
  CUZK_CUDA_OK(cudaEventElapsedTime(&t, a.e_, b.e_));
  return t;
}

}  // namespace cuzk::cuda
