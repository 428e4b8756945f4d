#include "engines/select.hpp"

#include <stdexcept>

#ifdef CUZK_CUDA_ENGINE
#include "cuda/device.hpp"
#include "cuda/engine/engine.hpp"
#endif

namespace cuzk::engines {

int cuda_devices() noexcept {
#ifdef CUZK_CUDA_ENGINE
  return cuda::device_count();
#else
  return 0;
#endif
}

template <class C>
std::unique_ptr<groth16::basic_engine<C>> make(std::string_view kind, int threads, std::string* note) {
  if (kind == "cpu") return groth16::make_cpu_engine<C>(threads);
  if (kind == "cuda" || kind == "auto") {
#ifdef CUZK_CUDA_ENGINE
    if (cuda_devices() > 0) {
      if (note) *note = kind == "auto" ? "backend auto: CUDA device 0" : "";
      return cuda::make_engine<C>(cuda::engine_options{});
    }
    if (kind == "cuda") throw std::invalid_argument("--backend cuda: no CUDA device is present");
    if (note) *note = "backend auto: no CUDA device present, proving on the CPU";
#else
    if (kind == "cuda") throw std::invalid_argument("--backend cuda: this build has no CUDA support (nvcc was not found)");
    if (note) *note = "backend auto: built without CUDA, proving on the CPU";
#endif
    return groth16::make_cpu_engine<C>(threads);
  }
  throw std::invalid_argument("--backend must be cpu, cuda or auto, not '" + std::string(kind) + "'");
}

template std::unique_ptr<groth16::basic_engine<curves::bls12_381>> make(std::string_view, int, std::string*);
template std::unique_ptr<groth16::basic_engine<curves::bn254>> make(std::string_view, int, std::string*);

}  // namespace cuzk::engines
