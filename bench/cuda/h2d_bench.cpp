// cuzk-h2d-bench: how fast a, b, c reach the GPU (issue 11). In one run, the
// same bytes copied host → device from a pool slot registered with
// cudaHostRegister (as cuzk-gpu-server does), from cudaHostAlloc memory, and
// from pageable heap memory; and the pool's registration in seconds per GiB.
//   cuzk-h2d-bench [--log2 24] [--slots 2] [--reps 10] [--hugepages DIR]
// Prints one line per measurement and a verdict line (target: registered >= 0.95 x cudaHostAlloc).
#include <unistd.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <stdexcept>
#include <string>
#include <vector>

#include <cuda_runtime_api.h>

#include "cuda/error.hpp"
#include "shm/region.hpp"
#include "shm/slot_table.hpp"

namespace shm = cuzk::shm;

namespace {

using clock_type = std::chrono::steady_clock;

double seconds_since(clock_type::time_point t) { return std::chrono::duration<double>(clock_type::now() - t).count(); }

/* GB/s (10^9 bytes) of `reps` copies of the three spans to `dst`, timed by CUDA events on one stream. */
double h2d_gbps(void* dst, const std::vector<std::pair<const void*, std::size_t>>& src, int reps, cudaStream_t s) {
  cudaEvent_t a, b;
  CUZK_CUDA_OK(cudaEventCreate(&a));
  CUZK_CUDA_OK(cudaEventCreate(&b));
  std::size_t bytes = 0;
  auto once = [&] {
    auto* d = static_cast<std::uint8_t*>(dst);
    for (const auto& [p, n] : src) {
      CUZK_CUDA_OK(cudaMemcpyAsync(d, p, n, cudaMemcpyHostToDevice, s));
      d += n;
    }
  };
  once();  // warm-up
  CUZK_CUDA_OK(cudaStreamSynchronize(s));
  CUZK_CUDA_OK(cudaEventRecord(a, s));
  for (int r = 0; r < reps; ++r) {
    once();
    for (const auto& x : src) bytes += x.second;
  }
  CUZK_CUDA_OK(cudaEventRecord(b, s));
  CUZK_CUDA_OK(cudaEventSynchronize(b));
  float ms = 0;
  CUZK_CUDA_OK(cudaEventElapsedTime(&ms, a, b));
  CUZK_CUDA_OK(cudaEventDestroy(a));
  CUZK_CUDA_OK(cudaEventDestroy(b));
  return double(bytes) / (double(ms) * 1e6);
}

int run(int argc, char** argv) {
  unsigned log2 = 24, slots = 2;
  int reps = 10;
  std::string hugepages;
  for (int i = 1; i + 1 < argc; i += 2) {
    const std::string k = argv[i], v = argv[i + 1];
    if (k == "--log2")
      log2 = unsigned(std::stoul(v));
    else if (k == "--slots")
      slots = unsigned(std::stoul(v));
    else if (k == "--reps")
      reps = std::stoi(v);
    else if (k == "--hugepages")
      hugepages = v;
    else
      throw std::invalid_argument("unknown option " + k);
  }
  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) {
    std::printf("h2d SKIPPED: no CUDA device\n");
    return 0;
  }
  CUZK_CUDA_OK(cudaSetDevice(0));
  const std::string name = "cuzk-h2d-bench-" + std::to_string(::getpid());
  shm::region_config cfg;
  cfg.with_name(name).with_slots({slots, 1ULL << log2, 0}).with_leases(4).with_jobs(4);
  if (!hugepages.empty()) cfg.with_hugepages(hugepages);
  std::string why;
  const auto t_create = clock_type::now();
  auto r = shm::region::create(cfg, &why);
  if (!r) throw std::runtime_error("cannot create the bench pool " + name + ": " + why);
  const double create_s = seconds_since(t_create);
  struct cleanup {
    shm::region_location where;
    ~cleanup() { (void)shm::region::destroy(where, true); }
  } destroy_at_exit{{name, hugepages}};

  // registration, as the server does it: the payload in chunks of at most 64 GiB cut at slot boundaries
  const auto chunks = r->payload_chunks(64ULL << 30);
  std::size_t pool_bytes = 0;
  const auto t_reg = clock_type::now();
  for (const auto& c : chunks) {
    CUZK_CUDA_OK(cudaHostRegister(c.data(), c.size(), cudaHostRegisterPortable));
    pool_bytes += c.size();
  }
  const double reg_s = seconds_since(t_reg);
  const double gib = double(pool_bytes) / double(1ULL << 30);

  shm::slot_table table(*r);
  const auto p = table.payload(0);
  if (!p) throw std::runtime_error("the bench pool has no slot 0");
  const std::size_t n = std::size_t(32) << log2;  // one of a, b, c: 2^log2 elements of 32 bytes
  const std::vector<std::pair<const void*, std::size_t>> slot_src{{p->a.data(), n}, {p->b.data(), n}, {p->c.data(), n}};
  void* dev = nullptr;
  CUZK_CUDA_OK(cudaMalloc(&dev, 3 * n));
  cudaStream_t s;
  CUZK_CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));

  const double registered = h2d_gbps(dev, slot_src, reps, s);
  void* pinned = nullptr;
  CUZK_CUDA_OK(cudaHostAlloc(&pinned, 3 * n, cudaHostAllocPortable));
  std::memset(pinned, 1, 3 * n);
  auto* pb = static_cast<std::uint8_t*>(pinned);
  const double hostalloc = h2d_gbps(dev, {{pb, n}, {pb + n, n}, {pb + 2 * n, n}}, reps, s);
  std::vector<std::uint8_t> heap(3 * n, 1);
  const double pageable = h2d_gbps(dev, {{heap.data(), n}, {heap.data() + n, n}, {heap.data() + 2 * n, n}}, reps, s);

  const auto t_unreg = clock_type::now();
  for (const auto& c : chunks) CUZK_CUDA_OK(cudaHostUnregister(c.data()));
  const double unreg_s = seconds_since(t_unreg);
  CUZK_CUDA_OK(cudaFreeHost(pinned));
  CUZK_CUDA_OK(cudaFree(dev));
  CUZK_CUDA_OK(cudaStreamDestroy(s));

  const char* pages = hugepages.empty() ? "4KiB" : "huge";
  std::printf("h2d copy %.0f MiB (a, b, c of 2^%u), %d reps, device 0\n", 3.0 * double(n) / (1 << 20), log2, reps);
  std::printf("h2d registered-pool-slot  %8.2f GB/s\n", registered);
  std::printf("h2d cudaHostAlloc         %8.2f GB/s\n", hostalloc);
  std::printf("h2d pageable-heap         %8.2f GB/s\n", pageable);
  std::printf(
      "register pool %s pages %.2f GiB in %zu chunk(s): %.3f s, %.3f s/GiB (unregister %.3f s; create+touch %.2f s)\n",
      pages, gib, chunks.size(), reg_s, reg_s / gib, unreg_s, create_s);
  const double ratio = registered / hostalloc;
  std::printf("h2d verdict registered/hostalloc %.3f (target >= 0.95) %s; pageable/hostalloc %.3f\n", ratio,
              ratio >= 0.95 ? "PASS" : "MISS", pageable / hostalloc);
  return 0;
}

}  // namespace

int main(int argc, char** argv) {
  try {
    return run(argc, argv);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuzk-h2d-bench: %s\n", e.what());
    return 1;
  }
}
