#include <stdexcept>
#include <string>

#include "backend/backend.hpp"
#include "backend/fault.hpp"
#include "engines/select.hpp"
#ifdef CUZK_CUDA_BACKEND
#include "backend/cuda_backend.hpp"
#endif

namespace cuzk::server {

std::unique_ptr<prover_backend> make_backend(const backend_options& opt, std::string* note) {
  const auto faults = fault_plan::from_env();
#ifdef CUZK_CUDA_BACKEND
  const int present = cuda_device_count();
  if (opt.kind == "cuda" || opt.kind == "auto")
    for (int d : opt.gpus)
      if (d < 0 || d >= present)
        throw std::invalid_argument("--gpus: no CUDA device " + std::to_string(d) + " (" + std::to_string(present) +
                                    " present)");
#endif
  if (engines::use_cuda(opt.kind, note)) {
#ifdef CUZK_CUDA_BACKEND
    if (note && opt.kind == "auto") *note = "backend auto: " + std::to_string(present) + " CUDA device(s)";
    return make_cuda_backend(opt, faults);
#endif
  }
  return with_faults(make_cpu_backend(opt.threads), faults);
}

}  // namespace cuzk::server
