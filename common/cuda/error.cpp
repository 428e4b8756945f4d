#include "cuda/error.hpp"

#include <cstdio>
#include <string_view>

namespace cuzk::cuda {

namespace {

std::string mib(std::size_t bytes) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.1f MiB", double(bytes) / double(1 << 20));
  return buf;
}

}  // namespace

error::error(cudaError_t code, const std::string& what) : std::runtime_error(what), code_(code) {}

error::error(cudaError_t code, const char* expr, const char* file, int line)
    : error(code, std::string(expr) + " failed at " + file + ":" + std::to_string(line) + ": " +
                      cudaGetErrorString(code) + " (" + cudaGetErrorName(code) + ")") {}

/* The errors the CUDA runtime documents as leaving the context in an
   inconsistent state ("the process must be terminated and relaunched"). */
bool error::is_sticky(cudaError_t code) noexcept {
  switch (code) {
    case cudaErrorIllegalAddress:
    case cudaErrorLaunchFailure:
    case cudaErrorLaunchTimeout:
    case cudaErrorHardwareStackError:
    case cudaErrorIllegalInstruction:
    case cudaErrorMisalignedAddress:
    case cudaErrorInvalidAddressSpace:
    case cudaErrorInvalidPc:
    case cudaErrorECCUncorrectable:
    case cudaErrorNvlinkUncorrectable:
    case cudaErrorAssert:
    case cudaErrorExternalDevice:
    case cudaErrorContextIsDestroyed:
    case cudaErrorUnknown:
      return true;
    default:
      return false;
  }
}

out_of_memory::out_of_memory(std::string_view what, std::size_t needed, std::size_t free, std::size_t reserved)
    : error(cudaErrorMemoryAllocation, std::string(what) + " needs " + mib(needed) + " of device memory; " + mib(free) +
                                           " free (" + mib(reserved) + " kept in reserve)"),
      needed_(needed),
      free_(free),
      reserved_(reserved) {}

void throw_error(cudaError_t code, const char* expr, const char* file, int line) {
  if (!error::is_sticky(code)) cudaGetLastError();  // so that the next CUZK_CUDA_LAUNCHED does not report it again
  throw error(code, expr, file, line);
}

}  // namespace cuzk::cuda
