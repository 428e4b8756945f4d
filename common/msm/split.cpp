#include "msm/split.hpp"

#include <algorithm>
#include <stdexcept>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

#include "ec/scalar.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::msm {

namespace {

enum class kind : std::uint8_t { zero, one, other };

/* Two passes over blocks: count each block's kinds, then (with the prefix
   counts known) write each block's indices in place, so the output is in
   index order without any locking. classify(i, canonical&) returns the kind
   and fills canonical for the others. */
template <class Classify>
scalar_split split_blocks(std::size_t n, Classify classify) {
  if (n >= 0xffffffffu) throw std::length_error("msm: at most 2^32 - 1 scalars");
  const std::size_t block =
      std::max<std::size_t>(4096, n / (16 * std::size_t(tbb::this_task_arena::max_concurrency())) + 1);
  const std::size_t blocks = (n + block - 1) / block;
  std::vector<std::size_t> n_ones(blocks + 1), n_others(blocks + 1);
  std::vector<kind> kinds(n);
  tbb::parallel_for(std::size_t(0), blocks, [&](std::size_t b) {
    std::size_t ones = 0, others = 0;
    ec::scalar_limbs_t unused;
    for (std::size_t i = b * block; i < std::min(n, (b + 1) * block); ++i) {
      kinds[i] = classify(i, unused, false);
      ones += kinds[i] == kind::one;
      others += kinds[i] == kind::other;
    }
    n_ones[b + 1] = ones;
    n_others[b + 1] = others;
  });
  for (std::size_t b = 0; b < blocks; ++b) {
    n_ones[b + 1] += n_ones[b];
    n_others[b + 1] += n_others[b];
  }
  scalar_split s;
  s.ones.resize(n_ones[blocks]);
  s.others.resize(n_others[blocks]);
  s.other_scalars.resize(n_others[blocks]);
  s.zeros = n - s.ones.size() - s.others.size();
  tbb::parallel_for(std::size_t(0), blocks, [&](std::size_t b) {
    std::size_t o = n_ones[b], r = n_others[b];
    for (std::size_t i = b * block; i < std::min(n, (b + 1) * block); ++i) {
      if (kinds[i] == kind::one) {
        s.ones[o++] = std::uint32_t(i);
      } else if (kinds[i] == kind::other) {
        s.others[r] = std::uint32_t(i);
        classify(i, s.other_scalars[r++], true);
      }
    }
  });
  return s;
}

}  // namespace

template <class C>
scalar_split split_scalars(std::span<const ff::fr<C>> scalars) {
  return split_blocks(scalars.size(), [&](std::size_t i, ec::scalar_limbs_t& out, bool convert) {
    const ff::fr<C>& k = scalars[i];
    if (k.is_zero()) return kind::zero;
    if (k.is_one()) return kind::one;
    if (convert) out = k.to_canonical(); /* k = mont(kR, 1) */
    return kind::other;
  });
}

template <class C>
scalar_split split_scalars(std::span<const ec::scalar_limbs_t> scalars) {
  return split_blocks(scalars.size(), [&](std::size_t i, ec::scalar_limbs_t& out, bool convert) {
    const ec::scalar_limbs_t k = ec::reduce_mod_r<C>(scalars[i]);
    if (ff::limbs::is_zero(k)) return kind::zero;
    if (k == ec::scalar_limbs_t{1, 0, 0, 0}) return kind::one;
    if (convert) out = k;
    return kind::other;
  });
}

#define CUZK_INSTANTIATE(C)                                           \
  template scalar_split split_scalars<C>(std::span<const ff::fr<C>>); \
  template scalar_split split_scalars<C>(std::span<const ec::scalar_limbs_t>);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::msm
