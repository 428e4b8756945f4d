#include <array>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>

#include "cuda/error.hpp"
#include "cuda/ntt/device_powers.hpp"
#include "cuda/ntt/launch.hpp"
#include "cuda/ntt/ntt.hpp"
#include "cuda/ntt/powers.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::cuda::ntt {
namespace {

int current_device() {
  int dev = 0;
  CUZK_CUDA_OK(cudaGetDevice(&dev));
  return dev;
}

/* a power table pair on the device, uploaded and complete before first use */
template <class C>
struct resident_powers {
  device_buffer<ff::fr<C>> lo, hi;
  detail::factor_fn fn;

  explicit resident_powers(const detail::power_tables<C>& t)
      : lo(t.lo.size(), "NTT power table"), hi(t.hi.size(), "NTT power table") {
    CUZK_CUDA_OK(cudaMemcpy(lo.data(), t.lo.data(), lo.bytes(), cudaMemcpyHostToDevice));
    CUZK_CUDA_OK(cudaMemcpy(hi.data(), t.hi.data(), hi.bytes(), cudaMemcpyHostToDevice));
    fn = t.at(lo.data(), hi.data());
  }
};

}  // namespace

template <class C>
basic_tables<C>::basic_tables(unsigned log_n, poly::root_family f)
    : log_n_(log_n),
      family_(f),
      omega_(poly::primitive_root<C>(log_n, f)),
      size_inv_(fr::from_u64(2).pow(std::uint64_t(log_n)).inverse()),
      tw_((std::size_t{1} << log_n) / 2 + 1, "NTT twiddles") {
  if (log_n > detail::max_log_n) throw std::invalid_argument("NTT of 2^" + std::to_string(log_n) + " elements");
  /* ω^i = lo[i mod 2^h] hi[i >> h] from two small tables */
  const resident_powers<C> seed(detail::power_tables<C>(log_n, omega_, fr::one()));
  cudaStream_t s = nullptr;
  CUZK_CUDA_OK(cudaStreamCreateWithFlags(&s, cudaStreamNonBlocking));
  try {
    detail::launch_powers<C>(tw_.data(), tw_.size(), seed.fn, s);
    CUZK_CUDA_OK(cudaStreamSynchronize(s));
  } catch (...) {
    cudaStreamDestroy(s);
    throw;
  }
  CUZK_CUDA_OK(cudaStreamDestroy(s));
}

template <class C>
const basic_tables<C>& basic_tables<C>::get(unsigned log_n, poly::root_family f) {
  if (log_n > detail::max_log_n) throw std::invalid_argument("NTT of 2^" + std::to_string(log_n) + " elements");
  static std::mutex mu;
  static std::map<std::tuple<int, unsigned, poly::root_family>, std::unique_ptr<basic_tables>> cache;
  const auto key = std::make_tuple(current_device(), log_n, f);
  std::lock_guard lock(mu);
  auto& slot = cache[key];
  if (!slot) slot = std::make_unique<basic_tables>(log_n, f);
  return *slot;
}

#define CUZK_INSTANTIATE(C) template class basic_tables<C>;
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

namespace detail {

template <class C>
factor_fn device_powers(unsigned log_n, const ff::fr<C>& g, const ff::fr<C>& c) {
  using bytes = std::array<std::uint64_t, 4>;
  static std::mutex mu;
  static std::map<std::tuple<int, unsigned, bytes, bytes>, std::unique_ptr<resident_powers<C>>> cache;
  const auto key = std::make_tuple(current_device(), log_n, bytes(g.l), bytes(c.l));
  std::lock_guard lock(mu);
  auto& slot = cache[key];
  if (!slot) slot = std::make_unique<resident_powers<C>>(power_tables<C>(log_n, g, c));
  return slot->fn;
}

#define CUZK_INSTANTIATE(C) template factor_fn device_powers<C>(unsigned, const ff::fr<C>&, const ff::fr<C>&);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace detail
}  // namespace cuzk::cuda::ntt
