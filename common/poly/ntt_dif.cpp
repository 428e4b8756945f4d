#include "poly/ntt_dif.hpp"

#include <utility>

#include <tbb/parallel_for.h>

namespace cuzk::poly::detail {
namespace {

/* every stage of O over a, its blocks of B elements in cache (ntt_stages.hpp) */
template <order O, direction D, class C>
void transform(const basic_domain<C>& d, std::span<ff::fr<C>> a) {
  const auto t = stage_tables<C>::of(d);
  const std::size_t len = std::size_t{1} << t.b;
  auto blocks = [&] {
    tbb::parallel_for(tbb::blocked_range<std::size_t>(0, a.size() / len, 1), [&](const auto& r) {
      for (std::size_t blk = r.begin(); blk < r.end(); ++blk) block_stages<O, D>(a.data() + blk * len, len, t.block);
    });
  };
  if constexpr (O == order::dif) {
    if (t.k > t.b) outer_stages<O, D>(a.data(), t.k, t.b, t.full);
    blocks();
  } else {
    blocks();
    if (t.k > t.b) outer_stages<O, D>(a.data(), t.k, t.b, t.full);
  }
}

}  // namespace

template <class C>
void dif(const basic_domain<C>& d, std::span<ff::fr<C>> a, direction dir) {
  if (a.size() < 2) return;
  if (dir == direction::forward)
    transform<order::dif, direction::forward>(d, a);
  else
    transform<order::dif, direction::inverse>(d, a);
}

template <class C>
void dit(const basic_domain<C>& d, std::span<ff::fr<C>> a, direction dir) {
  if (a.size() < 2) return;
  if (dir == direction::forward)
    transform<order::dit, direction::forward>(d, a);
  else
    transform<order::dit, direction::inverse>(d, a);
}

template <class F>
void bit_reverse(std::span<F> a, unsigned log_n, const F* scale) {
  if (log_n == 0) {
    if (scale && !a.empty()) a[0] *= *scale;
    return;
  }
  /* the pair (i, rev(i)) belongs to the task holding the smaller index */
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, a.size(), 4096), [&](const auto& r) {
    for (std::size_t i = r.begin(); i < r.end(); ++i) {
      const std::size_t j = reverse_bits(std::uint32_t(i), log_n);
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
  template void dit(const basic_domain<C>&, std::span<ff::fr<C>>, direction); \
  template void bit_reverse(std::span<ff::fr<C>>, unsigned, const ff::fr<C>*);
CUZK_POLY_NTT_DIF(curves::bls12_381)
CUZK_POLY_NTT_DIF(curves::bn254)
#undef CUZK_POLY_NTT_DIF

}  // namespace cuzk::poly::detail
