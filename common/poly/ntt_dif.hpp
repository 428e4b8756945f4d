// The decimation-in-frequency core of the NTT (Gentleman-Sande butterflies):
// natural order in, bit-reversed order out. Stages whose butterflies span more
// than one cache block stream over the whole array two at a time (radix-4
// passes); the remaining stages run block by block, in cache. Over the Fr of
// either curve (dif and bit_reverse are instantiated in ntt_dif.cpp for
// BLS12-381 and BN254).
#pragma once

#include <cstddef>
#include <span>

#include "poly/domain.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::poly::detail {

enum class direction { forward, inverse };

/* ζ^i for i in [0, half], ζ of order 2 half */
template <class F>
struct twiddle_view {
  const F* w;
  std::size_t half;
};

/* forward: (x, y) <- (x + y, (x - y) ζ^i)
   inverse: (x, y) <- (x + y, (x - y) ζ^-i) = (x + y, (y - x) ζ^(half - i)),  as ζ^half = -1 */
template <direction D, class F>
inline void butterfly(F& x, F& y, const twiddle_view<F>& t, std::size_t i) {
  F s = x + y;
  if constexpr (D == direction::forward)
    y = (x - y) * t.w[i];
  else
    y = (y - x) * t.w[t.half - i];
  x = s;
}

/* the j = 0 butterfly of either direction, ζ^0 = 1: (x, y) <- (x + y, x - y) */
template <class F>
inline void butterfly_unit(F& x, F& y) {
  F s = x + y;
  y = x - y;
  x = s;
}

/* All log2(n) DIF stages with ω (forward) or ω^-1 (inverse); output bit-reversed. */
template <class C>
void dif(const basic_domain<C>& d, std::span<ff::fr<C>> a, direction dir);

/* a[i] <-> a[rev_k(i)], then a[i] *= scale when scale is given */
template <class F>
void bit_reverse(std::span<F> a, unsigned log_n, const F* scale = nullptr);

#define CUZK_INSTANTIATE(C)                                                          \
  extern template void dif(const basic_domain<C>&, std::span<ff::fr<C>>, direction); \
  extern template void bit_reverse(std::span<ff::fr<C>>, unsigned, const ff::fr<C>*);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::poly::detail
