// Host memory registered with CUDA (cudaHostRegister, portable: every device
// copies from it at pinned speed), each range once for the life of the
// registry, which also keeps the memory's owner (a mapping) alive until it
// has unregistered it: memory must never be unmapped while registered.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <span>

namespace cuzk::cuda {

class host_registry {
 public:
  host_registry() = default;
  host_registry(const host_registry&) = delete;
  host_registry& operator=(const host_registry&) = delete;
  ~host_registry();

  /* Registers the pages under `bytes` (read-only when asked: the GPU only
     reads them) unless a registered range holds them already. Whole pages:
     `bytes` must lie in a mapping of its own (a file, an SRS region), never
     on the heap, where the pages would take in neighbouring allocations and
     a later copy from one of those fails (cudaErrorInvalidValue). Returns the
     seconds it took (0 when already registered); throws cuda::error. */
  double add(std::span<const std::uint8_t> bytes, std::shared_ptr<const void> owner, bool read_only);
  bool holds(const void* p, std::size_t n) const;
  /* Unregisters the range that holds p (no copy from it may be in flight); false when none does. */
  bool remove(const void* p);
  std::size_t bytes() const;

 private:
  struct range {
    std::size_t size;
    std::shared_ptr<const void> owner;
  };
  mutable std::mutex mu_;
  std::map<std::uintptr_t, range> ranges_;  // by page-aligned start
};

}  // namespace cuzk::cuda
