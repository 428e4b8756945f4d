#include <stdexcept>
#include <string>

#include "backend/backend.hpp"
#include "backend/fault.hpp"
#ifdef CUZK_CUDA_BACKEND
#include "backend/cuda_backend.hpp"
#endif

namespace cuzk::server {

std::unique_ptr<prover_backend> make_backend(const backend_options& opt, std::string* note) {
  const auto faults = fault_plan::from_env();
  const std::string_view kind = opt.kind;
  if (kind == "cuda" || kind == "auto") {
#ifdef CUZK_CUDA_BACKEND
    const int present = cuda_device_count();
    for (int d : opt.gpus)
      if (d < 0 || d >= present)
        throw std::invalid_argument("--gpus: no CUDA device " + std::to_string(d) + " (" + std::to_string(present) +
                                    " present)");
    if (present > 0) {
      if (note && kind == "auto") *note = "backend auto: " + std::to_string(present) + " CUDA device(s)";
      return make_cuda_backend(opt, faults);
    }
    if (kind == "cuda") throw std::invalid_argument("--backend cuda: no CUDA device is present");
    if (note) *note = "backend auto: no CUDA device present, proving on the CPU";
#else
    if (kind == "cuda") throw std::invalid_argument("--backend cuda: this build has no CUDA support (nvcc was not found)");
    if (note) *note = "backend auto: built without CUDA, proving on the CPU";
#endif
    return with_faults(make_cpu_backend(opt.threads), faults);
  }
  if (kind == "cpu") return with_faults(make_cpu_backend(opt.threads), faults);
  throw std::invalid_argument("--backend must be cpu, cuda or auto, not '" + std::string(kind) + "'");
}

}  // namespace cuzk::server
