// CUDA errors as exceptions. Every runtime call goes through CUZK_CUDA_OK, which
// records the expression, file and line (sppark's CUDA_OK habit).
#pragma once

#include <cstddef>
#include <stdexcept>
#include <string>

#include <cuda_runtime_api.h>

namespace cuzk::cuda {

class error : public std::runtime_error {
 public:
  error(cudaError_t code, const std::string& what);
  /* "<expr> failed at <file>:<line>: <cudaGetErrorString> (<cudaGetErrorName>)" */
  error(cudaError_t code, const char* expr, const char* file, int line);

  cudaError_t code() const noexcept { return code_; }
  /* The context is unusable after this error: every later call fails the same
     way, and only a new process recovers (DESIGN §5: the worker exits). */
  bool sticky() const noexcept { return is_sticky(code_); }
  static bool is_sticky(cudaError_t code) noexcept;

 private:
  cudaError_t code_;
};

/* An allocation that does not fit the device-memory budget, or that cudaMalloc refused. */
class out_of_memory : public error {
 public:
  out_of_memory(std::string_view what, std::size_t needed, std::size_t free, std::size_t reserved);

  std::size_t needed() const noexcept { return needed_; }
  std::size_t free_bytes() const noexcept { return free_; }
  std::size_t reserved() const noexcept { return reserved_; }

 private:
  std::size_t needed_, free_, reserved_;
};

[[noreturn]] void throw_error(cudaError_t code, const char* expr, const char* file, int line);

}  // namespace cuzk::cuda

#define CUZK_CUDA_OK(expr)                                                                                         \
  do {                                                                                                             \
    const cudaError_t cuzk_cuda_status_ = (expr);                                                                  \
    if (cuzk_cuda_status_ != cudaSuccess) ::cuzk::cuda::throw_error(cuzk_cuda_status_, #expr, __FILE__, __LINE__); \
  } while (0)

/* After a kernel launch: a bad configuration (or an earlier asynchronous
   failure) is reported here rather than at the next synchronisation. */
#define CUZK_CUDA_LAUNCHED() CUZK_CUDA_OK(cudaGetLastError())
