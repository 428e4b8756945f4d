#include "cuda/host_register.hpp"

#include <unistd.h>

#include <chrono>
#include <cstdio>

#include <cuda_runtime_api.h>

#include "cuda/error.hpp"

namespace cuzk::cuda {

namespace {

std::uintptr_t page() { return static_cast<std::uintptr_t>(::sysconf(_SC_PAGESIZE)); }

}  // namespace

host_registry::~host_registry() {
  for (const auto& [start, r] : ranges_)
    if (const cudaError_t e = cudaHostUnregister(reinterpret_cast<void*>(start)); e != cudaSuccess)
      std::fprintf(stderr, "cudaHostUnregister of %zu bytes: %s (%s)\n", r.size, cudaGetErrorString(e),
                   cudaGetErrorName(e));
}

bool host_registry::holds(const void* p, std::size_t n) const {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  std::lock_guard lk(mu_);
  auto it = ranges_.upper_bound(a);
  if (it == ranges_.begin()) return false;
  --it;
  return a >= it->first && a + n <= it->first + it->second.size;
}

bool host_registry::remove(const void* p) {
  const auto a = reinterpret_cast<std::uintptr_t>(p);
  std::shared_ptr<const void> owner;  // released after the lock: it may unmap
  std::lock_guard lk(mu_);
  auto it = ranges_.upper_bound(a);
  if (it == ranges_.begin()) return false;
  --it;
  if (a < it->first || a >= it->first + it->second.size) return false;
  if (const cudaError_t e = cudaHostUnregister(reinterpret_cast<void*>(it->first)); e != cudaSuccess) {
    (void)cudaGetLastError();
    throw error(e, "cudaHostUnregister of " + std::to_string(it->second.size) + " bytes");
  }
  owner = std::move(it->second.owner);
  ranges_.erase(it);
  return true;
}

std::size_t host_registry::bytes() const {
  std::lock_guard lk(mu_);
  std::size_t n = 0;
  for (const auto& [start, r] : ranges_) n += r.size;
  return n;
}

double host_registry::add(std::span<const std::uint8_t> bytes, std::shared_ptr<const void> owner, bool read_only) {
  if (bytes.empty() || holds(bytes.data(), bytes.size())) return 0;
  /* whole pages: a mapping's pages are all there, and a range registers at most once */
  const std::uintptr_t pg = page();
  const auto lo = reinterpret_cast<std::uintptr_t>(bytes.data()) / pg * pg;
  const auto hi = (reinterpret_cast<std::uintptr_t>(bytes.data()) + bytes.size() + pg - 1) / pg * pg;
  const auto t0 = std::chrono::steady_clock::now();
  unsigned flags = cudaHostRegisterPortable | (read_only ? cudaHostRegisterReadOnly : 0u);
  cudaError_t e = cudaHostRegister(reinterpret_cast<void*>(lo), hi - lo, flags);
  if (e != cudaSuccess) {
    (void)cudaGetLastError();
    throw error(e, "cudaHostRegister of " + std::to_string(hi - lo) + " bytes");
  }
  std::lock_guard lk(mu_);
  ranges_[lo] = {hi - lo, std::move(owner)};
  return std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
}

}  // namespace cuzk::cuda
