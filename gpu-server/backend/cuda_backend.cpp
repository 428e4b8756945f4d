#include "backend/cuda_backend.hpp"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <vector>

#include "cuda/device.hpp"
#include "cuda/engine/engine.hpp"
#include "cuda/error.hpp"
#include "poly/threads.hpp"

namespace cuzk::server {

namespace {

using clock = std::chrono::steady_clock;

double since(clock::time_point t) { return std::chrono::duration<double>(clock::now() - t).count(); }
double gib(std::size_t bytes) { return double(bytes) / double(1ULL << 30); }

/* groth16::prove on the CUDA engine, which keeps the key's bases resident
   (by proving-key pointer) and copies a, b, c and z from the slot: from the
   registered pool at pinned speed, or (--no-register) through heap memory. */
class cuda_backend final : public prover_backend {
 public:
  cuda_backend(const backend_options& opt, fault_plan faults)
      : threads_(opt.threads), device_(opt.device), register_(opt.register_pool), faults_(faults) {
    try {
      cuda::engine_options eo;
      eo.device = device_;
      engine_ = cuda::make_engine(eo);
      const auto d = cuda::info(device_);
      spdlog::info("CUDA device {}: {}, {} SMs, {:.1f} GiB ({:.1f} GiB free), compute capability {}.{}", device_, d.name,
                   d.sms, gib(d.total_mem), gib(d.free_mem), d.cc_major, d.cc_minor);
    } catch (const cuda::error& e) {
      throw std::runtime_error("cannot use CUDA device " + std::to_string(device_) + ": " + e.what());
    }
  }

  ~cuda_backend() override {
    if (lost_) {  // the context is unusable: every call would fail; the process's end frees it all
      (void)engine_.release();
      return;
    }
    engine_.reset();
    for (void* p : registered_)
      if (const cudaError_t e = cudaHostUnregister(p); e != cudaSuccess)
        spdlog::warn("cudaHostUnregister of a pool chunk: {} ({})", cudaGetErrorString(e), cudaGetErrorName(e));
  }

  std::string_view name() const override { return "cuda"; }

  void attach_pool(std::span<const std::span<std::uint8_t>> chunks) override {
    if (!register_) {
      spdlog::info("--no-register: the pool is not registered with CUDA; a, b, c and z go through heap memory");
      return;
    }
    CUZK_CUDA_OK(cudaSetDevice(device_));
    std::size_t total = 0;
    const auto t0 = clock::now();
    for (std::size_t i = 0; i < chunks.size(); ++i) {
      const auto& c = chunks[i];
      if (c.empty()) continue;
      const cudaError_t e = cudaHostRegister(c.data(), c.size(), cudaHostRegisterPortable);
      if (e != cudaSuccess) {
        (void)cudaGetLastError();
        throw std::runtime_error("cannot register the pool's payload with CUDA (cudaHostRegister of chunk " +
                                 std::to_string(i + 1) + " of " + std::to_string(chunks.size()) + ", " +
                                 std::to_string(c.size()) + " bytes): " + cudaGetErrorString(e) + " (" +
                                 cudaGetErrorName(e) + "); start with --no-register to prove without it");
      }
      registered_.push_back(c.data());
      total += c.size();
    }
    const double s = since(t0);
    spdlog::info("registered the pool's payload with CUDA: {} chunk(s), {:.2f} GiB in {:.3f} s ({:.3f} s/GiB)",
                 registered_.size(), gib(total), s, total ? s / gib(total) : 0.0);
  }

  prove_output prove(const prove_input& in) override {
    prove_output out;
    try {
      switch (faults_.next()) {
        case fault_plan::kind::transient:
          throw cuda::error(cudaErrorLaunchOutOfResources, "injected transient CUDA error (CUZK_CUDA_FAULT)");
        case fault_plan::kind::sticky:
          throw cuda::error(cudaErrorIllegalAddress, "injected sticky CUDA error (CUZK_CUDA_FAULT)");
        case fault_plan::kind::none: break;
      }
      std::span<const fr_t> a = in.a, b = in.b, c = in.c, z = in.z;
      if (!register_) {  // the old way: the bytes are in pageable heap memory when the engine copies them
        const auto t = clock::now();
        const std::size_t n = in.a.size();
        heap_.resize(3 * n + in.z.size());
        std::memcpy(heap_.data(), in.a.data(), in.a.size_bytes());
        std::memcpy(heap_.data() + n, in.b.data(), in.b.size_bytes());
        std::memcpy(heap_.data() + 2 * n, in.c.data(), in.c.size_bytes());
        std::memcpy(heap_.data() + 3 * n, in.z.data(), in.z.size_bytes());
        a = {heap_.data(), n};
        b = {heap_.data() + n, n};
        c = {heap_.data() + 2 * n, n};
        z = {heap_.data() + 3 * n, in.z.size()};
        out.stage = since(t);
      }
      out.proof = poly::with_threads(threads_, [&] {
        return groth16::prove(*engine_, in.pk, z, a, b, c, in.rs, &out.timings);
      });
    } catch (const cuda::error& e) {
      bool sticky = e.sticky();
      if (!sticky) {  // the device idle again before the retry, and no sticky error hiding behind this one
        const cudaError_t s = cudaDeviceSynchronize();
        sticky = s != cudaSuccess && cuda::error::is_sticky(s);
        if (!sticky) (void)cudaGetLastError();
      }
      lost_ = lost_ || sticky;
      throw device_fault("CUDA device " + std::to_string(device_) + ": " + e.what(), sticky);
    }
    return out;
  }

 private:
  int threads_, device_;
  bool register_;
  fault_plan faults_;
  bool lost_ = false;
  std::unique_ptr<groth16::engine> engine_;
  std::vector<void*> registered_;
  std::vector<fr_t> heap_;
};

}  // namespace

int cuda_device_count() noexcept { return cuda::device_count(); }

std::unique_ptr<prover_backend> make_cuda_backend(const backend_options& opt, fault_plan faults) {
  return std::make_unique<cuda_backend>(opt, faults);
}

}  // namespace cuzk::server
