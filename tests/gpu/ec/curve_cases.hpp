// Inputs for the device-curve tests: chains of additions whose operands hit
// every special case (an operand at infinity, P + P, P + (-P)), built on the
// CPU curve (common/ec, common/msm/xyzz.hpp), and the moves between the CPU
// and device types, for G1 and G2 of both curves.
#pragma once

#include <bit>
#include <cstddef>
#include <cstring>
#include <random>
#include <span>
#include <string>
#include <vector>

#include "cuda/ec/convert.hpp"
#include "cuda/ec/curves.cuh"
#include "curves_under_test.hpp"
#include "msm/xyzz.hpp"
#include "random.hpp"

namespace cuzk::test {

template <class C>
struct g1_types {
  using curve = ec::g1_group<C>;
  using field = cuda::fp<C>;
  static constexpr const char* name = "G1";
  static ec::g1_jacobian<C> from_xyzz(const std::byte* p) { return cuda::from_device_xyzz_g1<C>(p); }
  static ec::g1_affine<C> from_affine(const std::byte* p) { return cuda::from_device_affine_g1<C>(p); }
};
template <class C>
struct g2_types {
  using curve = ec::g2_group<C>;
  using field = cuda::fp2<C>;
  static constexpr const char* name = "G2";
  static ec::g2_jacobian<C> from_xyzz(const std::byte* p) { return cuda::from_device_xyzz_g2<C>(p); }
  static ec::g2_affine<C> from_affine(const std::byte* p) { return cuda::from_device_affine_g2<C>(p); }
};
using curve_types = ::testing::Types<g1_types<curves::bls12_381>, g2_types<curves::bls12_381>, g1_types<curves::bn254>,
                                     g2_types<curves::bn254>>;
/* Bls12_381_G1, ..., Bn254_G2 */
struct group_names {
  template <class T>
  static std::string GetName(int) {
    return std::string(curve_name<typename T::curve::curve>) + "_" + T::name;
  }
};

template <class T>
struct curve_io {
  using C = typename T::curve;
  using F = typename T::field;
  using cpu_affine = ec::affine_point<typename C::field_t>;
  using cpu_jacobian = ec::jacobian<C>;
  using cpu_xyzz = msm::xyzz<C>;
  using dev_affine = cuda::affine<F>;
  using dev_xyzz = cuda::xyzz<F>;

  static dev_affine to_device(const cpu_affine& a) {
    std::byte b[sizeof(dev_affine)];
    cuda::to_device_layout(std::span<const cpu_affine>(&a, 1), b);
    dev_affine d;
    std::memcpy(&d, b, sizeof d);
    return d;
  }
  static std::vector<dev_affine> to_device(const std::vector<cpu_affine>& v) {
    std::vector<dev_affine> d(v.size());
    cuda::to_device_layout(std::span<const cpu_affine>(v), std::as_writable_bytes(std::span<dev_affine>(d)));
    return d;
  }
  static cpu_affine to_cpu(const dev_affine& d) { return T::from_affine(reinterpret_cast<const std::byte*>(&d)); }
  static dev_xyzz to_device(const cpu_xyzz& x) {
    return {std::bit_cast<F>(x.X), std::bit_cast<F>(x.Y), std::bit_cast<F>(x.ZZ), std::bit_cast<F>(x.ZZZ)};
  }
  static cpu_jacobian to_cpu(const dev_xyzz& d) { return T::from_xyzz(reinterpret_cast<const std::byte*>(&d)); }

  /* n affine operands for a madd chain from the identity: mostly random points,
     and (a quarter each of the rest) infinity, the running sum itself (doubling)
     and its negation (back to infinity). Returns the CPU's final sum. */
  static cpu_xyzz madd_chain(std::mt19937_64& g, const std::vector<cpu_affine>& pool, std::size_t n,
                             std::vector<cpu_affine>& ops) {
    cpu_xyzz acc;
    for (std::size_t k = 0; k < n; ++k) {
      cpu_affine q;
      switch (g() % 8) {
        case 0:
          q = cpu_affine::identity();
          break;
        case 1:
          q = acc.to_jacobian().to_affine();
          break;  // P + P (or infinity + infinity)
        case 2:
          q = -acc.to_jacobian().to_affine();
          break;  // P + (-P)
        default:
          q = pool[g() % pool.size()];
      }
      ops.push_back(q);
      acc += q;
    }
    return acc;
  }

  /* a random XYZZ representation of p: (X t^2, Y t^3, ZZ t^2, ZZZ t^3) */
  static cpu_xyzz rescaled(std::mt19937_64& g, const cpu_xyzz& p) {
    using cf = typename C::field_t;
    const cf t = random_field<cf>(g), t2 = t.sqr(), t3 = t2 * t;
    return {p.X * t2, p.Y * t3, p.ZZ * t2, p.ZZZ * t3};
  }
  static cpu_xyzz from_cpu_affine(const cpu_affine& a) {
    cpu_xyzz x;
    x += a;
    return x;
  }

  /* pairs (p, q) for add(xyzz): random, q at infinity, p at infinity, q = p, q = -p */
  static void xyzz_pairs(std::mt19937_64& g, const std::vector<cpu_affine>& pool, std::size_t n,
                         std::vector<cpu_xyzz>& p, std::vector<cpu_xyzz>& q) {
    for (std::size_t k = 0; k < n; ++k) {
      const cpu_xyzz a = rescaled(g, from_cpu_affine(pool[g() % pool.size()]));
      cpu_xyzz b = rescaled(g, from_cpu_affine(pool[g() % pool.size()]));
      switch (k % 8) {
        case 0:
          b = cpu_xyzz{};
          break;
        case 1:
          p.push_back(cpu_xyzz{});
          q.push_back(b);
          continue;
        case 2:
          b = rescaled(g, a);
          break;
        case 3:
          b = rescaled(g, a);
          b.Y = -b.Y;
          break;
        default:
          break;
      }
      p.push_back(a);
      q.push_back(b);
    }
  }

  /* affine pairs for add_with_inverse: random, infinity on either side, P + P, P + (-P) */
  static void affine_pairs(std::mt19937_64& g, const std::vector<cpu_affine>& pool, std::size_t n,
                           std::vector<cpu_affine>& p, std::vector<cpu_affine>& q) {
    for (std::size_t k = 0; k < n; ++k) {
      cpu_affine a = pool[g() % pool.size()], b = pool[g() % pool.size()];
      switch (k % 8) {
        case 0:
          b = cpu_affine::identity();
          break;
        case 1:
          a = cpu_affine::identity();
          break;
        case 2:
          b = a;
          break;
        case 3:
          b = -a;
          break;
        case 4:
          a = b = cpu_affine::identity();
          break;
        default:
          break;
      }
      p.push_back(a);
      q.push_back(b);
    }
  }
};

}  // namespace cuzk::test
