// Inputs for the device MSM tests and the CPU reference they are checked
// against (msm::pippenger_g1/g2, msm::sum_g1/g2), typed over G1 and G2.
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <vector>

#include "cuda/memory.hpp"
#include "cuda/msm/msm.hpp"
#include "ec/batch_affine.hpp"
#include "ec/config.hpp"
#include "ec/scalar_mul.hpp"
#include "ff/limbs.hpp"
#include "msm/msm.hpp"
#include "random.hpp"

namespace cuzk::cuda::msm::test {

using ec::scalar_limbs_t;

/* uniform below r, by rejection on 255 bits */
inline scalar_limbs_t random_scalar(std::mt19937_64& g) {
  for (;;) {
    scalar_limbs_t k{g(), g(), g(), g() >> 1};
    if (ff::limbs::less(k, ff::fr_params::modulus)) return k;
  }
}
inline std::vector<scalar_limbs_t> random_scalars(std::mt19937_64& g, std::size_t n) {
  std::vector<scalar_limbs_t> v(n);
  for (auto& k : v) k = random_scalar(g);
  return v;
}
inline scalar_limbs_t small_scalar(std::uint64_t v) { return {v, 0, 0, 0}; }
/* r - 1 */
inline scalar_limbs_t minus_one() {
  scalar_limbs_t k = ff::fr_params::modulus;
  k[0] -= 1;
  return k;
}

/* tests/support's group (random points and bases) with the device bases type */
template <class Curve, class Bases>
struct group : cuzk::test::group<Curve> {
  using bases_t = Bases;
};

struct g1 : group<ec::g1_curve, g1_bases> {
  static jac_t cpu(std::span<const aff_t> b, std::span<const scalar_limbs_t> k) { return cuzk::msm::pippenger_g1(b, k); }
  static jac_t cpu_sum(std::span<const aff_t> p) { return cuzk::msm::sum_g1(p); }
};
struct g2 : group<ec::g2_curve, g2_bases> {
  static jac_t cpu(std::span<const aff_t> b, std::span<const scalar_limbs_t> k) { return cuzk::msm::pippenger_g2(b, k); }
  static jac_t cpu_sum(std::span<const aff_t> p) { return cuzk::msm::sum_g2(p); }
};

template <class T>
device_buffer<T> to_device(std::span<const T> v, const char* what) {
  device_buffer<T> d(std::max<std::size_t>(v.size(), 1), what);
  d.upload(v);
  return d;
}

/* the bases the scalars go with: bases[idx[i] - first], or bases[i] */
template <class A>
std::vector<A> selected(std::span<const A> bases, std::span<const std::uint32_t> idx, std::uint32_t first,
                        std::size_t n) {
  std::vector<A> out(n);
  for (std::size_t i = 0; i < n; ++i) out[i] = bases[idx.empty() ? i : idx[i] - first];
  return out;
}

/* Pippenger on the device against the CPU, results compared in affine form */
template <class G>
void expect_pippenger(const typename G::bases_t& dev_bases, std::span<const typename G::aff_t> bases,
                      std::span<const scalar_limbs_t> k, std::span<const std::uint32_t> idx = {},
                      std::uint32_t first = 0) {
  auto dk = to_device(k, "test scalars");
  auto di = to_device(idx, "test indices");
  const scalars s{dk.data(), idx.empty() ? nullptr : di.data(), first, k.size()};
  const auto got = pippenger(dev_bases, s, 0);
  const auto sel = selected(bases, idx, first, k.size());
  const auto want = G::cpu(sel, k);
  EXPECT_EQ(got.to_affine(), want.to_affine()) << "n = " << k.size() << ", c = " << window_bits(k.size());
}

template <class G>
void expect_sum(const typename G::bases_t& dev_bases, std::span<const typename G::aff_t> bases,
                std::span<const std::uint32_t> idx, std::uint32_t first, std::size_t n) {
  auto di = to_device(idx, "test indices");
  const auto got = sum(dev_bases, idx.empty() ? nullptr : di.data(), first, n, 0);
  const auto want = G::cpu_sum(selected(bases, idx, first, n));
  EXPECT_EQ(got.to_affine(), want.to_affine()) << "n = " << n;
}

inline std::vector<std::uint32_t> bit_reversed(unsigned log_n) {
  std::vector<std::uint32_t> v(std::size_t(1) << log_n);
  for (std::uint32_t i = 0; i < v.size(); ++i) {
    std::uint32_t r = 0;
    for (unsigned b = 0; b < log_n; ++b) r |= ((i >> b) & 1) << (log_n - 1 - b);
    v[i] = r;
  }
  return v;
}

}  // namespace cuzk::cuda::msm::test
