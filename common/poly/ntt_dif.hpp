// The decimation-in-frequency core of the NTT (Gentleman-Sande butterflies):
// natural order in, bit-reversed order out. Stages whose butterflies span more
// than one cache block stream over the whole array two at a time (radix-4
// passes); the remaining stages run block by block, in cache.
#pragma once

#include <cstddef>
#include <span>

#include "poly/domain.hpp"

namespace cuzk::poly::detail {

enum class direction { forward, inverse };

/* ζ^i for i in [0, half], ζ of order 2 half */
struct twiddle_view {
  const fr_t* w;
  std::size_t half;
};

/* forward: (x, y) <- (x + y, (x - y) ζ^i)
   inverse: (x, y) <- (x + y, (x - y) ζ^-i) = (x + y, (y - x) ζ^(half - i)),  as ζ^half = -1 */
template <direction D>
inline void butterfly(fr_t& x, fr_t& y, const twiddle_view& t, std::size_t i) {
  fr_t s = x + y;
  if constexpr (D == direction::forward)
    y = (x - y) * t.w[i];
  else
    y = (y - x) * t.w[t.half - i];
  x = s;
}

/* the j = 0 butterfly of either direction, ζ^0 = 1: (x, y) <- (x + y, x - y) */
inline void butterfly_unit(fr_t& x, fr_t& y) {
  fr_t s = x + y;
  y = x - y;
  x = s;
}

/* All log2(n) DIF stages with ω (forward) or ω^-1 (inverse); output bit-reversed. */
void dif(const domain& d, std::span<fr_t> a, direction dir);

/* a[i] <-> a[rev_k(i)], then a[i] *= scale when scale is given */
void bit_reverse(std::span<fr_t> a, unsigned log_n, const fr_t* scale = nullptr);

}  // namespace cuzk::poly::detail
