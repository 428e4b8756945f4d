// Inputs for the device MSM tests and the CPU reference they are checked
// against (msm::g1_msm<C>/g2_msm<C>: pippenger and sum), typed over G1 and G2
// of both curves.
#pragma once

#include <cstdint>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "cuda/memory.hpp"
#include "cuda/msm/msm.hpp"
#include "curves_under_test.hpp"
#include "ec/batch_affine.hpp"
#include "ec/config.hpp"
#include "ec/scalar_mul.hpp"
#include "ff/limbs.hpp"
#include "msm/booth.hpp"
#include "msm/msm.hpp"
#include "random.hpp"

namespace cuzk::cuda::msm::test {

using ec::scalar_limbs_t;

inline scalar_limbs_t small_scalar(std::uint64_t v) { return {v, 0, 0, 0}; }

/* tests/support's group (random points and bases) of G1 or G2 of a curve,
   with the device bases type, the CPU reference and the scalars below its r */
template <class Curve>
struct group : cuzk::test::group<Curve> {
  using base = cuzk::test::group<Curve>;
  using typename base::C;
  using bases_t = device_bases<typename base::aff_t>;
  static constexpr const char* group_name = Curve::name;

  /* uniform below r, by rejection on r's bit length */
  static scalar_limbs_t random_scalar(std::mt19937_64& g) {
    constexpr unsigned top = C::fr_params::bits - 192;
    for (;;) {
      scalar_limbs_t k{g(), g(), g(), g() >> (64 - top)};
      if (ff::limbs::less(k, C::fr_params::modulus)) return k;
    }
  }
  static std::vector<scalar_limbs_t> random_scalars(std::mt19937_64& g, std::size_t n) {
    std::vector<scalar_limbs_t> v(n);
    for (auto& k : v) k = random_scalar(g);
    return v;
  }
  /* r - 1 */
  static scalar_limbs_t minus_one() {
    scalar_limbs_t k = C::fr_params::modulus;
    k[0] -= 1;
    return k;
  }

  static typename base::jac_t cpu(std::span<const typename base::aff_t> b, std::span<const scalar_limbs_t> k) {
    return cuzk::msm::group_msm<Curve>::pippenger(b, k);
  }
  static typename base::jac_t cpu_sum(std::span<const typename base::aff_t> p) {
    return cuzk::msm::group_msm<Curve>::sum(p);
  }
};
template <class C>
using g1 = group<ec::g1_group<C>>;
template <class C>
using g2 = group<ec::g2_group<C>>;
using all_groups = ::testing::Types<g1<curves::bls12_381>, g2<curves::bls12_381>, g1<curves::bn254>, g2<curves::bn254>>;
/* Bls12_381_G1, ..., Bn254_G2 */
struct group_names {
  template <class G>
  static std::string GetName(int) {
    return std::string(cuzk::test::curve_name<typename G::C>) + "_" + G::group_name;
  }
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
  EXPECT_EQ(got.to_affine(), want.to_affine())
      << "n = " << k.size() << ", c = " << window_bits(k.size(), cuzk::msm::scalar_bits<typename G::C>);
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
