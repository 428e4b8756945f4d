// Eight elements of Fp2 = Fp[u] / (u^2 + 1) at once, on ifma.hpp's Fp lanes:
//   (a0 + a1 u)(b0 + b1 u) = (a0 b0 − a1 b1) + ((a0 + a1)(b0 + b1) − a0 b0 − a1 b1) u
//   (a0 + a1 u)^2 = (a0 + a1)(a0 − a1) + 2 a0 a1 u
// and lane_type<F>, which names the lane form of a field (Fp or Fp2) for
// the code generic over both (msm/lane_batch.hpp).
#pragma once

#include "ff/fp2.hpp"
#include "ff/ifma.hpp"

namespace cuzk::ff::ifma {

template <class C>
struct lanes2 {
  using P = typename C::fp_params;
  lanes<P> c0, c1;

  void set(unsigned lane, const fp2<C>& x) {
    c0.set(lane, x.c0);
    c1.set(lane, x.c1);
  }
  fp2<C> get(unsigned lane) const { return {c0.get(lane), c1.get(lane)}; }
};

template <class F>
struct lane_type {
  static constexpr bool exists = false;
};
template <class P>
struct lane_type<mont_field<P>> {
  static constexpr bool exists = CUZK_FF_IFMA && fits<P>;
  using mem = lanes<P>;
};
template <class C>
struct lane_type<fp2<C>> {
  static constexpr bool exists = CUZK_FF_IFMA && fits<typename C::fp_params>;
  using mem = lanes2<C>;
};

#if CUZK_FF_IFMA
template <class C>
struct vec2 {
  using P = typename C::fp_params;
  vec<P> c0, c1;
};

template <class C>
CUZK_IFMA_INLINE vec2<C> load(const lanes2<C>& m) {
  return {load(m.c0), load(m.c1)};
}
template <class C>
CUZK_IFMA_INLINE void store(lanes2<C>& m, const vec2<C>& v) {
  store(m.c0, v.c0);
  store(m.c1, v.c1);
}
template <class C>
CUZK_IFMA_INLINE vec2<C> add(const vec2<C>& a, const vec2<C>& b) {
  return {add(a.c0, b.c0), add(a.c1, b.c1)};
}
template <class C>
CUZK_IFMA_INLINE vec2<C> sub(const vec2<C>& a, const vec2<C>& b) {
  return {sub(a.c0, b.c0), sub(a.c1, b.c1)};
}
template <class C>
CUZK_IFMA_INLINE vec2<C> mul(const vec2<C>& a, const vec2<C>& b) {
  const auto v0 = mul(a.c0, b.c0), v1 = mul(a.c1, b.c1);
  const auto s = mul(add(a.c0, a.c1), add(b.c0, b.c1));
  return {sub(v0, v1), sub(sub(s, v0), v1)};
}
template <class C>
CUZK_IFMA_INLINE vec2<C> negate_where(__mmask8 where, const vec2<C>& v) {
  return {negate_where(where, v.c0), negate_where(where, v.c1)};
}
/* c0 at addr_i + offset, c1 after it */
template <class C>
CUZK_IFMA_INLINE vec2<C> gather2(__m512i addr, std::size_t offset) {
  using P = typename C::fp_params;
  return {gather<P>(addr, offset), gather<P>(addr, offset + 8 * P::n_limbs)};
}
template <class C>
CUZK_IFMA_INLINE void scatter(__m512i addr, std::size_t offset, const vec2<C>& v) {
  scatter(addr, offset, v.c0);
  scatter(addr, offset + 8 * C::fp_params::n_limbs, v.c1);
}
template <class C>
CUZK_IFMA_INLINE vec2<C> sqr(const vec2<C>& a) {
  const auto m = mul(a.c0, a.c1);
  return {mul(add(a.c0, a.c1), sub(a.c0, a.c1)), add(m, m)};
}
#endif

}  // namespace cuzk::ff::ifma
