#include "poly/ntt_dif.hpp"

#include <utility>

#include <tbb/parallel_for.h>

namespace cuzk::poly::detail {
namespace {

constexpr std::size_t pass_grain = 1024;  // butterfly groups per task

/* one stage over the whole array, butterflies (j, j + m) in groups of 2m:
   ω_{2m}^j = ω^(j n/2m) = tw[j half/m] */
template <direction D, class F>
void radix2_pass(std::span<F> a, std::size_t m, const twiddle_view<F>& tw) {
  const std::size_t s = tw.half / m;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, a.size() / 2, pass_grain), [&](const auto& r) {
    for (std::size_t t = r.begin(); t < r.end(); ++t) {
      const std::size_t j = t % m, base = (t / m) * 2 * m + j;
      butterfly<D>(a[base], a[base + m], tw, j * s);
    }
  });
}

/* two stages in one pass over quads (j, j + q, j + 2q, j + 3q) in groups of 4q:
   stage m = 2q pairs (0,2) with ω_{4q}^j and (1,3) with ω_{4q}^(j+q),
   stage m = q  pairs (0,1) and (2,3) with ω_{2q}^j = ω_{4q}^(2j);  ω_{4q} = ω^(half/2q) */
template <direction D, class F>
void radix4_pass(std::span<F> a, std::size_t q, const twiddle_view<F>& tw) {
  const std::size_t s = tw.half / (2 * q);
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, a.size() / 4, pass_grain), [&](const auto& r) {
    for (std::size_t t = r.begin(); t < r.end(); ++t) {
      const std::size_t j = t % q;
      F* x = a.data() + (t / q) * 4 * q + j;
      butterfly<D>(x[0], x[2 * q], tw, j * s);
      butterfly<D>(x[q], x[3 * q], tw, (j + q) * s);
      butterfly<D>(x[0], x[q], tw, 2 * j * s);
      butterfly<D>(x[2 * q], x[3 * q], tw, 2 * j * s);
    }
  });
}

/* every stage m = L/2 ... 1 of one block of L = 2 tw.half elements; the
   first butterfly of each group (about n of the (n/2) log n) needs no product */
template <direction D, class F>
void block_stages(F* x, std::size_t len, const twiddle_view<F>& tw) {
  for (std::size_t m = len / 2, s = 1; m >= 1; m /= 2, s *= 2)
    for (std::size_t g = 0; g < len; g += 2 * m) {
      butterfly_unit(x[g], x[g + m]);
      for (std::size_t j = 1; j < m; ++j) butterfly<D>(x[g + j], x[g + j + m], tw, j * s);
    }
}

template <direction D, class C>
void dif_impl(const basic_domain<C>& d, std::span<ff::fr<C>> a) {
  using F = ff::fr<C>;
  const unsigned k = d.log_size();
  const unsigned b = k < basic_domain<C>::block_log ? k : basic_domain<C>::block_log;
  const auto full = d.twiddles();
  const twiddle_view<F> tw{full.data(), full.size() - 1};

  /* stages m = n/2 ... B, streaming; an odd count starts with one radix-2 stage */
  unsigned outer = k - b;
  std::size_t m = a.size() / 2;
  if (outer % 2) {
    radix2_pass<D>(a, m, tw);
    m /= 2;
    --outer;
  }
  for (; outer > 0; outer -= 2, m /= 4) radix4_pass<D>(a, m / 2, tw);

  /* stages m = B/2 ... 1, block by block */
  const auto bt = d.block_twiddles();
  const twiddle_view<F> btw{bt.data(), bt.size() - 1};
  const std::size_t len = std::size_t{1} << b;
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, a.size() / len, 1), [&](const auto& r) {
    for (std::size_t blk = r.begin(); blk < r.end(); ++blk) block_stages<D>(a.data() + blk * len, len, btw);
  });
}

inline std::uint32_t reverse32(std::uint32_t v) {
  v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
  v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
  v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
  return __builtin_bswap32(v);
}

}  // namespace

template <class C>
void dif(const basic_domain<C>& d, std::span<ff::fr<C>> a, direction dir) {
  if (a.size() < 2) return;
  if (dir == direction::forward)
    dif_impl<direction::forward>(d, a);
  else
    dif_impl<direction::inverse>(d, a);
}

template <class F>
void bit_reverse(std::span<F> a, unsigned log_n, const F* scale) {
  if (log_n == 0) {
    if (scale && !a.empty()) a[0] *= *scale;
    return;
  }
  const unsigned shift = 32 - log_n;
  /* the pair (i, rev(i)) belongs to the task holding the smaller index */
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, a.size(), 4096), [&](const auto& r) {
    for (std::size_t i = r.begin(); i < r.end(); ++i) {
      const std::size_t j = reverse32(std::uint32_t(i)) >> shift;
      if (i < j) {
        std::swap(a[i], a[j]);
        if (scale) a[i] *= *scale, a[j] *= *scale;
      } else if (i == j && scale) {
        a[i] *= *scale;
      }
    }
  });
}

#define CUZK_POLY_NTT_DIF(C)                                                  \
  template void dif(const basic_domain<C>&, std::span<ff::fr<C>>, direction); \
  template void bit_reverse(std::span<ff::fr<C>>, unsigned, const ff::fr<C>*);
CUZK_POLY_NTT_DIF(curves::bls12_381)
CUZK_POLY_NTT_DIF(curves::bn254)
#undef CUZK_POLY_NTT_DIF

}  // namespace cuzk::poly::detail
