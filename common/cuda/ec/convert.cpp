#include "cuda/ec/convert.hpp"

#include <cstring>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "curves/dispatch.hpp"
#include "msm/xyzz.hpp"

namespace cuzk::cuda {

namespace {

template <class Affine>
void pack(std::span<const Affine> in, std::span<std::byte> out) {
  using F = typename Affine::field_t;
  static_assert(std::is_trivially_copyable_v<F>);
  if (out.size() / (2 * sizeof(F)) < in.size())
    throw std::invalid_argument("cuda::to_device_layout: " + std::to_string(in.size()) + " points need " +
                                std::to_string(in.size() * 2 * sizeof(F)) + " bytes, not " +
                                std::to_string(out.size()));
  std::byte* o = out.data();
  for (const Affine& a : in) {
    if (a.infinity) {
      std::memset(o, 0, 2 * sizeof(F));
    } else {
      std::memcpy(o, &a.x, sizeof(F));
      std::memcpy(o + sizeof(F), &a.y, sizeof(F));
    }
    o += 2 * sizeof(F);
  }
}

template <class Affine>
Affine unpack(const std::byte* p) {
  using F = typename Affine::field_t;
  Affine a;
  std::memcpy(&a.x, p, sizeof(F));
  std::memcpy(&a.y, p + sizeof(F), sizeof(F));
  a.infinity = a.x.is_zero() && a.y.is_zero();
  if (a.infinity) a = Affine::identity();
  return a;
}

template <class Curve>
ec::jacobian<Curve> from_xyzz(const std::byte* p) {
  using F = typename Curve::field_t;
  msm::xyzz<Curve> x;
  std::memcpy(&x.X, p, sizeof(F));
  std::memcpy(&x.Y, p + sizeof(F), sizeof(F));
  std::memcpy(&x.ZZ, p + 2 * sizeof(F), sizeof(F));
  std::memcpy(&x.ZZZ, p + 3 * sizeof(F), sizeof(F));
  return x.to_jacobian();
}

}  // namespace

template <class Affine>
void to_device_layout(std::span<const Affine> in, std::span<std::byte> out) {
  pack(in, out);
}

template <class C>
ec::g1_affine<C> from_device_affine_g1(const std::byte* p) {
  return unpack<ec::g1_affine<C>>(p);
}
template <class C>
ec::g2_affine<C> from_device_affine_g2(const std::byte* p) {
  return unpack<ec::g2_affine<C>>(p);
}

template <class C>
ec::g1_jacobian<C> from_device_xyzz_g1(const std::byte* p) {
  return from_xyzz<ec::g1_group<C>>(p);
}
template <class C>
ec::g2_jacobian<C> from_device_xyzz_g2(const std::byte* p) {
  return from_xyzz<ec::g2_group<C>>(p);
}

#define CUZK_CONVERT_INSTANCES(C)                                                          \
  template void to_device_layout(std::span<const ec::g1_affine<C>>, std::span<std::byte>); \
  template void to_device_layout(std::span<const ec::g2_affine<C>>, std::span<std::byte>); \
  template ec::g1_affine<C> from_device_affine_g1<C>(const std::byte*);                    \
  template ec::g2_affine<C> from_device_affine_g2<C>(const std::byte*);                    \
  template ec::g1_jacobian<C> from_device_xyzz_g1<C>(const std::byte*);                    \
  template ec::g2_jacobian<C> from_device_xyzz_g2<C>(const std::byte*);
CUZK_CURVES(CUZK_CONVERT_INSTANCES)
#undef CUZK_CONVERT_INSTANCES

}  // namespace cuzk::cuda
