#include "engines/select.hpp"

#include <stdexcept>

#include "curves/dispatch.hpp"

#ifdef CUZK_HAVE_CUDA
#include "cuda/device.hpp"
#endif
#ifdef CUZK_CUDA_ENGINE
#include "cuda/engine/engine.hpp"
#endif
#ifdef CUZK_CUDA_SETUP
#include "cuda/setup/fixed_base_engine.hpp"
#endif

namespace cuzk::engines {

bool cuda_built() noexcept {
#ifdef CUZK_HAVE_CUDA
  return true;
#else
  return false;
#endif
}

int cuda_devices() noexcept {
#ifdef CUZK_HAVE_CUDA
  return cuda::device_count();
#else
  return 0;
#endif
}

std::vector<device> cuda_device_list() {
  std::vector<device> out;
#ifdef CUZK_HAVE_CUDA
  for (int d = 0, n = cuda::device_count(); d < n; ++d) {
    const cuda::device_info i = cuda::info(d);
    out.push_back({i.name, i.total_mem});
  }
#endif
  return out;
}

bool use_cuda(std::string_view kind, std::string* note) {
  if (kind == "cpu") return false;
  if (kind != "cuda" && kind != "auto")
    throw std::invalid_argument("--backend must be cpu, cuda or auto, not '" + std::string(kind) + "'");
#ifdef CUZK_CUDA_ENGINE
  if (cuda_devices() > 0) return true;
  if (kind == "cuda") throw std::invalid_argument("--backend cuda: no CUDA device is present");
  if (note) *note = "backend auto: no CUDA device present, proving on the CPU";
#else
  if (kind == "cuda")
    throw std::invalid_argument("--backend cuda: this build has no CUDA support (nvcc was not found)");
  if (note) *note = "backend auto: built without CUDA, proving on the CPU";
#endif
  return false;
}

template <class C>
std::unique_ptr<groth16::basic_engine<C>> make(std::string_view kind, int threads, std::string* note) {
  if (use_cuda(kind, note)) {
#ifdef CUZK_CUDA_ENGINE
    if (note) *note = kind == "auto" ? "backend auto: CUDA device 0" : "";
    return cuda::make_engine<C>(cuda::engine_options{});
#endif
  }
  return groth16::make_cpu_engine<C>(threads);
}

template <class C>
std::unique_ptr<groth16::basic_fixed_base_engine<C>> make_fixed_base(std::string_view kind, std::string* note) {
  if (kind == "cpu") return std::make_unique<groth16::basic_cpu_fixed_base_engine<C>>();
  std::string why;
#ifdef CUZK_CUDA_SETUP
  if (cuda_devices() > 0) return cuda::make_fixed_base_engine<C>();
  why = "no CUDA device is present";
#else
  why = "this build has no CUDA fixed-base engine";
#endif
  if (kind == "cuda") throw std::invalid_argument("--backend cuda: " + why);
  if (kind != "auto")
    throw std::invalid_argument("--backend must be cpu, cuda or auto, not '" + std::string(kind) + "'");
  if (note) *note = "backend auto: " + why + ", fixed-base multiplications on the CPU";
  return std::make_unique<groth16::basic_cpu_fixed_base_engine<C>>();
}

#define CUZK_ENGINES_SELECT(C)                                                                  \
  template std::unique_ptr<groth16::basic_engine<C>> make(std::string_view, int, std::string*); \
  template std::unique_ptr<groth16::basic_fixed_base_engine<C>> make_fixed_base(std::string_view, std::string*);
CUZK_CURVES(CUZK_ENGINES_SELECT)

}  // namespace cuzk::engines
