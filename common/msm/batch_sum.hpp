// Sum of many affine points (the bases whose scalar is 1) by a tree of
// batch-affine additions: each round adds the second half onto the first,
//   s_j <- s_j + s_{j+h},  j < h = floor(m / 2),
// all h additions sharing one inversion (Montgomery's trick; eight at a time
// where the CPU has IFMA, lane_batch.hpp), so a point costs about 6
// multiplications instead of a mixed addition's 11. The last few points are
// added in Jacobian coordinates.
// Parallel over chunks of points, each chunk a tree of its own.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <span>
#include <vector>

#include <tbb/blocked_range.h>
#include <tbb/parallel_reduce.h>

#include "ec/batch_affine.hpp"
#include "msm/lane_batch.hpp"

namespace cuzk::msm {

namespace detail {
/* Rounds stop below this many points: one inversion then costs more than
   mixed additions. */
constexpr std::size_t batch_sum_tail = 32;
constexpr std::size_t batch_sum_chunk = std::size_t(1) << 14;

template <class Curve>
ec::jacobian<Curve> tree_sum(std::vector<ec::affine_point<typename Curve::field_t>>& s) {
  using field_t = typename Curve::field_t;
  using affine_t = ec::affine_point<field_t>;
  lane_batch<field_t> lanes;
  std::vector<std::uint32_t> chords;
  std::size_t m = s.size();
  while (m > batch_sum_tail) {
    const std::size_t h = m / 2;
    const std::span<affine_t> lo(s.data(), h);
    const std::span<const affine_t> hi(s.data() + h, h);
    if (!lane_add_affine<field_t>(lanes, chords, lo, hi)) ec::batch_add_affine<field_t>(lo, hi);
    if (m & 1) s[h] = s[m - 1];  // the odd one out waits for the next round
    m = h + (m & 1);
  }
  ec::jacobian<Curve> sum;
  for (std::size_t i = 0; i < m; ++i) sum += s[i];
  return sum;
}
}  // namespace detail

/* sum_i P_{idx[i] - first} (every P_i when idx is null, with count = bases.size()); Base: ec::affine_point or
   ec::packed_affine */
template <class Curve, class Base>
ec::jacobian<Curve> batch_sum(std::span<const Base> bases, const std::uint32_t* idx, std::size_t count,
                              std::uint32_t first = 0) {
  using jac_t = ec::jacobian<Curve>;
  using affine_t = ec::affine_point<typename Curve::field_t>;
  if (count == 0) return {};
  return tbb::parallel_reduce(
      tbb::blocked_range<std::size_t>(0, count, detail::batch_sum_chunk), jac_t{},
      [&](const tbb::blocked_range<std::size_t>& r, jac_t acc) {
        std::vector<affine_t> s;
        s.reserve(r.size());
        for (std::size_t i = r.begin(); i != r.end(); ++i) {
          const Base& p = bases[idx ? idx[i] - first : i];
          if (!ec::is_infinity(p)) s.push_back({ec::x_of(p), ec::y_of(p), false});
        }
        return acc + detail::tree_sum<Curve>(s);
      },
      [](const jac_t& a, const jac_t& b) { return a + b; });
}

template <class Curve>
ec::jacobian<Curve> batch_sum(std::span<const ec::affine_point<typename Curve::field_t>> points) {
  return batch_sum<Curve, ec::affine_point<typename Curve::field_t>>(points, nullptr, points.size());
}

}  // namespace cuzk::msm
