// The glue behind msm.hpp, templated over the group G (ec::g1_group<C>,
// ec::g2_group<C>); g{1,2}_msm_{bls12_381,bn254}.cpp instantiate
// group_msm<G> with it, one group each.
#pragma once

#include <stdexcept>
#include <utility>

#include <tbb/parallel_invoke.h>
#include <tbb/task_arena.h>

#include "ec/scalar.hpp"
#include "msm/batch_sum.hpp"
#include "msm/msm.hpp"
#include "msm/pippenger.hpp"
#include "msm/split.hpp"
#include "poly/threads.hpp"

namespace cuzk::msm::detail {

using poly::with_threads;

inline void check_sizes(std::size_t bases, std::size_t scalars) {
  if (bases != scalars) throw std::invalid_argument("msm: bases and scalars differ in length");
}

/* indices increasing (as split_scalars makes them), all in [first, first + bases) */
inline void check_split(std::size_t bases, std::span<const std::uint32_t> ones, std::span<const std::uint32_t> others,
                        std::size_t other_scalars, std::uint32_t first) {
  if (others.size() != other_scalars)
    throw std::invalid_argument("msm: a split needs one scalar per index of the others");
  auto in_range = [&](std::span<const std::uint32_t> idx) {
    return idx.empty() || (idx.front() >= first && std::size_t(idx.back() - first) < bases);
  };
  if (!in_range(ones) || !in_range(others)) throw std::invalid_argument("msm: a split index is outside the bases");
}

/* sum_{k_i = 1} P_{i - first} + Pippenger over the k_i > 1, the two halves concurrently */
template <class G, class B>
ec::jacobian<G> presplit_msm(std::span<const B> bases, std::span<const std::uint32_t> ones,
                             std::span<const std::uint32_t> others, std::span<const ec::scalar_limbs_t> other_scalars,
                             std::uint32_t first, const options& opt, stats* st) {
  check_split(bases.size(), ones, others, other_scalars.size(), first);
  return with_threads(opt.threads, [&] {
    if (st) st->split = {bases.size() - ones.size() - others.size(), ones.size(), others.size()};
    ec::jacobian<G> sum_ones, rest;
    tbb::parallel_invoke([&] { sum_ones = batch_sum<G, B>(bases, ones.data(), ones.size(), first); },
                         [&] { rest = pippenger<G>(bases, others.data(), first, other_scalars, opt, st); });
    return sum_ones + rest;
  });
}

/* Scalar: ff::fr<C> or ec::scalar_limbs_t */
template <class G, class B, class Scalar>
ec::jacobian<G> split_msm(std::span<const B> bases, std::span<const Scalar> scalars, const options& opt, stats* st) {
  check_sizes(bases.size(), scalars.size());
  return with_threads(opt.threads, [&] {
    const scalar_split s = split_scalars<typename G::curve>(scalars);
    options inner = opt;
    inner.threads = 0;  // already in the arena
    return presplit_msm<G, B>(bases, s.ones, s.others, s.other_scalars, 0, inner, st);
  });
}

/* every scalar through Pippenger */
template <class G, class B>
ec::jacobian<G> plain_msm(std::span<const B> bases, std::span<const ec::scalar_limbs_t> scalars, const options& opt,
                          stats* st) {
  check_sizes(bases.size(), scalars.size());
  return with_threads(opt.threads, [&] {
    std::vector<ec::scalar_limbs_t> reduced(scalars.size());
    tbb::parallel_for(std::size_t(0), scalars.size(),
                      [&](std::size_t i) { reduced[i] = ec::reduce_mod_r<typename G::curve>(scalars[i]); });
    if (st) st->split = {0, 0, scalars.size()};
    return pippenger<G>(bases, nullptr, 0, reduced, opt, st);
  });
}

template <class G, class B>
ec::jacobian<G> plain_msm(std::span<const B> bases, std::span<const ff::fr<typename G::curve>> scalars,
                          const options& opt, stats* st) {
  check_sizes(bases.size(), scalars.size());
  return with_threads(opt.threads, [&] {
    std::vector<ec::scalar_limbs_t> canonical(scalars.size());
    tbb::parallel_for(std::size_t(0), scalars.size(), [&](std::size_t i) { canonical[i] = scalars[i].to_canonical(); });
    if (st) st->split = {0, 0, scalars.size()};
    return pippenger<G>(bases, nullptr, 0, canonical, opt, st);
  });
}

template <class G, class B, class Scalar>
ec::jacobian<G> any_msm(std::span<const B> bases, std::span<const Scalar> scalars, const options& opt, stats* st) {
  return opt.split ? split_msm<G, B>(bases, scalars, opt, st) : plain_msm<G, B>(bases, scalars, opt, st);
}

}  // namespace cuzk::msm::detail

namespace cuzk::msm {

template <class G>
auto group_msm<G>::msm(std::span<const affine_t> bases, std::span<const scalar_t> scalars, const options& opt,
                       stats* st) -> jacobian_t {
  return detail::any_msm<G>(bases, scalars, opt, st);
}
template <class G>
auto group_msm<G>::msm(std::span<const affine_t> bases, std::span<const scalar_limbs_t> scalars, const options& opt,
                       stats* st) -> jacobian_t {
  return detail::any_msm<G>(bases, scalars, opt, st);
}
template <class G>
auto group_msm<G>::msm(std::span<const affine_t> bases, std::span<const std::uint32_t> ones,
                       std::span<const std::uint32_t> others, std::span<const scalar_limbs_t> other_scalars,
                       std::uint32_t first, const options& opt, stats* st) -> jacobian_t {
  return detail::presplit_msm<G>(bases, ones, others, other_scalars, first, opt, st);
}
template <class G>
auto group_msm<G>::msm_packed(std::span<const packed_t> bases, std::span<const std::uint32_t> ones,
                              std::span<const std::uint32_t> others, std::span<const scalar_limbs_t> other_scalars,
                              std::uint32_t first, const options& opt, stats* st) -> jacobian_t {
  return detail::presplit_msm<G>(bases, ones, others, other_scalars, first, opt, st);
}
template <class G>
auto group_msm<G>::msm_packed(std::span<const packed_t> bases, std::span<const scalar_t> scalars, const options& opt,
                              stats* st) -> jacobian_t {
  return detail::any_msm<G>(bases, scalars, opt, st);
}
template <class G>
auto group_msm<G>::pippenger(std::span<const affine_t> bases, std::span<const scalar_limbs_t> scalars,
                             const options& opt, stats* st) -> jacobian_t {
  return detail::plain_msm<G>(bases, scalars, opt, st);
}
template <class G>
auto group_msm<G>::sum(std::span<const affine_t> points, int threads) -> jacobian_t {
  return detail::with_threads(threads, [&] { return batch_sum<G>(points); });
}
template <class G>
auto group_msm<G>::sum_packed(std::span<const packed_t> points, int threads) -> jacobian_t {
  return detail::with_threads(threads, [&] { return batch_sum<G, packed_t>(points, nullptr, points.size()); });
}

}  // namespace cuzk::msm
