#include <stdexcept>
#include <string>

#include "backend/backend.hpp"

namespace cuzk::server {

std::unique_ptr<prover_backend> make_backend(std::string_view kind, int threads, std::string* note) {
  if (kind == "cpu") return make_cpu_backend(threads);
  if (kind == "cuda") throw std::invalid_argument("--backend cuda: this build has no CUDA backend yet");
  if (kind == "auto") {
    if (note) *note = "backend auto: no CUDA backend in this build, proving on the CPU";
    return make_cpu_backend(threads);
  }
  throw std::invalid_argument("--backend must be cpu, cuda or auto, not '" + std::string(kind) + "'");
}

}  // namespace cuzk::server
