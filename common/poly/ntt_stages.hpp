// The stages of an NTT of n = 2^k elements, for both orders of work:
//   DIF (Gentleman-Sande): stages m = n/2 ... 1, natural order in, bit-reversed out,
//     (x, y) <- (x + y, (x - y) ζ)
//   DIT (Cooley-Tukey):    stages m = 1 ... n/2, bit-reversed order in, natural out,
//     (x, y) <- (x + y ζ, x - y ζ)
// with ζ = ω_{2m}^j = ω^(j n/2m) for the butterfly (j, j + m) of a group of 2m
// (ω^-1 for the inverse transform). An inverse DIF followed by a forward DIT
// needs no bit reversal between them (coset_evaluations.hpp).
// Where the work goes, for n = R B elements seen as R rows of B = 2^block_log:
//   stages m < B     within one row, row by row in cache (block_stages)
//   stages m >= B    between rows of one column, a group of columns at a time
//                    gathered into a buffer (column_stages): one pass over
//                    memory for up to log2(max_rows) stages, where streaming
//                    radix-4 passes took one pass per two stages (radix4_pass,
//                    kept for the stages above those at 2^28)
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/enumerable_thread_specific.h>
#include <tbb/parallel_for.h>

namespace cuzk::poly::detail {

enum class direction { forward, inverse };

/* the low `bits` bits of v reversed, 1 <= bits <= 32 */
inline std::uint32_t reverse_bits(std::uint32_t v, unsigned bits) {
  v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
  v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
  v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(v) >> (32 - bits);
}
enum class order { dif, dit };

/* ζ^i for i in [0, half], ζ of order 2 half */
template <class F>
struct twiddle_view {
  const F* w;
  std::size_t half;
  /* ζ^i (forward) or ζ^-i = -ζ^(half - i) (inverse), i < half; the inverse's sign is the butterfly's */
  template <direction D>
  const F& at(std::size_t i) const {
    return D == direction::forward ? w[i] : w[half - i];
  }
};

/* DIF forward: (x, y) <- (x + y, (x - y) ζ^i)
   DIF inverse: (x, y) <- (x + y, (x - y) ζ^-i) = (x + y, (y - x) ζ^(half - i))
   DIT forward: (x, y) <- (x + y ζ^i, x - y ζ^i)
   DIT inverse: (x, y) <- (x + y ζ^-i, x - y ζ^-i) = (x - y ζ^(half - i), x + y ζ^(half - i)) */
template <order O, direction D, class F>
__attribute__((always_inline)) inline void butterfly(F& x, F& y, const twiddle_view<F>& t, std::size_t i) {
  if constexpr (O == order::dif) {
    F s = x + y;
    y = (D == direction::forward ? x - y : y - x) * t.template at<D>(i);
    x = s;
  } else {
    const F v = y * t.template at<D>(i);
    if constexpr (D == direction::forward) {
      y = x - v;
      x = x + v;
    } else {
      y = x + v;
      x = x - v;
    }
  }
}

/* the j = 0 butterfly of every kind, ζ^0 = 1: (x, y) <- (x + y, x - y) */
template <class F>
__attribute__((always_inline)) inline void butterfly_unit(F& x, F& y) {
  F s = x + y;
  y = x - y;
  x = s;
}

/* the stages m = len/2 ... 1 (DIF) or 1 ... len/2 (DIT) of one block of
   len = 2 tw.half elements; the first butterfly of each group needs no product */
template <order O, direction D, class F>
void block_stages(F* x, std::size_t len, const twiddle_view<F>& tw) {
  auto stage = [&](std::size_t m) {
    const std::size_t s = tw.half / m;
    for (std::size_t g = 0; g < len; g += 2 * m) {
      butterfly_unit(x[g], x[g + m]);
      for (std::size_t j = 1; j < m; ++j) butterfly<O, D>(x[g + j], x[g + j + m], tw, j * s);
    }
  };
  if constexpr (O == order::dif)
    for (std::size_t m = len / 2; m >= 1; m /= 2) stage(m);
  else
    for (std::size_t m = 1; m < len; m *= 2) stage(m);
}

constexpr std::size_t pass_grain = 1024;  // butterfly groups per task

/* two stages m = 2q and q (DIF) or q and 2q (DIT) in one streaming pass over
   quads (j, j + q, j + 2q, j + 3q) in groups of 4q:
   m = 2q pairs (0,2) with ω_{4q}^j and (1,3) with ω_{4q}^(j+q),
   m = q  pairs (0,1) and (2,3) with ω_{2q}^j = ω_{4q}^(2j);  ω_{4q} = ζ^(half/2q) */
template <order O, direction D, class F>
void radix4_pass(F* a, std::size_t n, std::size_t q, const twiddle_view<F>& tw) {
  const std::size_t s = tw.half / (2 * q);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n / 4, pass_grain), [&](const auto& r) {
    for (std::size_t t = r.begin(); t < r.end(); ++t) {
      const std::size_t j = t % q;
      F* x = a + (t / q) * 4 * q + j;
      auto wide = [&] {
        butterfly<O, D>(x[0], x[2 * q], tw, j * s);
        butterfly<O, D>(x[q], x[3 * q], tw, (j + q) * s);
      };
      auto narrow = [&] {
        butterfly<O, D>(x[0], x[q], tw, 2 * j * s);
        butterfly<O, D>(x[2 * q], x[3 * q], tw, 2 * j * s);
      };
      if constexpr (O == order::dif) {
        wide();
        narrow();
      } else {
        narrow();
        wide();
      }
    }
  });
}

/* One stage over the whole array (an odd stage left over by radix4_pass). */
template <order O, direction D, class F>
void radix2_pass(F* a, std::size_t n, std::size_t m, const twiddle_view<F>& tw) {
  const std::size_t s = tw.half / m;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n / 2, pass_grain), [&](const auto& r) {
    for (std::size_t t = r.begin(); t < r.end(); ++t) {
      const std::size_t j = t % m, base = (t / m) * 2 * m + j;
      butterfly<O, D>(a[base], a[base + m], tw, j * s);
    }
  });
}

/* Columns gathered per task: 16 elements (512 bytes, whole cache lines) of each row. */
constexpr std::size_t column_group = 16;

/* The stages m = B ... (rows/2) B of `segments` consecutive segments of
   rows x B elements, rows a power of two: in each segment element r B + c
   pairs with (r + m/B) B + c. A task copies 16 columns of a segment
   (rows x 16 elements) into a buffer, runs those stages there and copies
   them back, so the rows' power-of-two stride cannot thrash the cache.
   ζ's index j·(half/m) has j = (r mod (m/B)) B + c, the element's place in
   its group of 2m, the same in every segment. */
template <order O, direction D, class F>
void column_stages(F* a, std::size_t segments, std::size_t rows, std::size_t B, const twiddle_view<F>& tw) {
  if (rows < 2) return;
  const std::size_t cg = std::min(column_group, B), groups = B / cg;
  tbb::enumerable_thread_specific<std::vector<F>> buffers;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, segments * groups, 1), [&](const auto& range) {
    std::vector<F>& buf = buffers.local();
    buf.resize(rows * cg);
    for (std::size_t t = range.begin(); t < range.end(); ++t) {
      F* seg = a + (t / groups) * rows * B;
      const std::size_t c0 = (t % groups) * cg;
      for (std::size_t r = 0; r < rows; ++r) std::copy_n(seg + r * B + c0, cg, buf.data() + r * cg);
      auto stage = [&](std::size_t rm) { /* m = rm B */
                                         const std::size_t s = tw.half / (rm * B);
                                         for (std::size_t r = 0; r < rows; ++r) {
                                           if (r & rm) continue;
                                           F* x = buf.data() + r * cg;
                                           F* y = x + rm * cg;
                                           const std::size_t j0 = (r & (rm - 1)) * B + c0;
                                           for (std::size_t c = 0; c < cg; ++c)
                                             butterfly<O, D>(x[c], y[c], tw, (j0 + c) * s);
                                         }
      };
      if constexpr (O == order::dif)
        for (std::size_t rm = rows / 2; rm >= 1; rm /= 2) stage(rm);
      else
        for (std::size_t rm = 1; rm < rows; rm *= 2) stage(rm);
      for (std::size_t r = 0; r < rows; ++r) std::copy_n(buf.data() + r * cg, cg, seg + r * B + c0);
    }
  });
}

/* At most this many rows per column buffer: 2^9 x 16 elements, 256 KiB of Fr. */
constexpr unsigned max_column_log = 9;

/* The stages m >= B of an array of n = 2^k elements, B = 2^b (b < k): the
   lowest max_column of them by column_stages, any above those by radix-4
   (and one radix-2) streaming passes, in the order O needs. */
template <order O, direction D, class F>
void outer_stages(F* a, unsigned k, unsigned b, const twiddle_view<F>& tw, unsigned max_column = max_column_log) {
  const std::size_t n = std::size_t{1} << k, B = std::size_t{1} << b;
  const unsigned column_log = std::min(k - b, max_column);
  const std::size_t rows = std::size_t{1} << column_log, segments = n / (rows * B);
  unsigned streamed = k - b - column_log;
  auto streaming = [&] {
    /* DIF: from m = n/2 down; DIT: from m = rows B up */
    if constexpr (O == order::dif) {
      std::size_t m = n / 2;
      if (streamed % 2) radix2_pass<O, D>(a, n, m, tw), m /= 2;
      for (unsigned left = streamed / 2; left > 0; --left, m /= 4) radix4_pass<O, D>(a, n, m / 2, tw);
    } else {
      std::size_t m = rows * B;
      for (unsigned left = streamed / 2; left > 0; --left, m *= 4) radix4_pass<O, D>(a, n, m, tw);
      if (streamed % 2) radix2_pass<O, D>(a, n, m, tw);
    }
  };
  if constexpr (O == order::dif) {
    streaming();
    column_stages<O, D>(a, segments, rows, B, tw);
  } else {
    column_stages<O, D>(a, segments, rows, B, tw);
    streaming();
  }
}

}  // namespace cuzk::poly::detail
