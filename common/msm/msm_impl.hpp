// The glue behind msm.hpp, templated over the curve; g1_msm.cpp and
// g2_msm.cpp instantiate it.
#pragma once

#include <stdexcept>
#include <utility>

#include <tbb/parallel_invoke.h>
#include <tbb/task_arena.h>

#include "ec/scalar.hpp"
#include "msm/batch_sum.hpp"
#include "msm/pippenger.hpp"
#include "msm/split.hpp"

namespace cuzk::msm::detail {

template <class F>
decltype(auto) in_arena(int threads, F&& f) {
  if (threads <= 0) return std::forward<F>(f)();
  tbb::task_arena arena(threads);
  return arena.execute(std::forward<F>(f));
}

inline void check_sizes(std::size_t bases, std::size_t scalars) {
  if (bases != scalars) throw std::invalid_argument("msm: bases and scalars differ in length");
}

/* sum_{k_i = 1} P_i + Pippenger over the k_i > 1, the two halves concurrently */
template <class Curve, class Scalar>
ec::jacobian<Curve> split_msm(std::span<const ec::affine_point<typename Curve::field_t>> bases,
                              std::span<const Scalar> scalars, const options& opt, stats* st) {
  check_sizes(bases.size(), scalars.size());
  return in_arena(opt.threads, [&] {
    const scalar_split s = split_scalars(scalars);
    if (st) st->split = s.counts();
    ec::jacobian<Curve> ones, rest;
    tbb::parallel_invoke([&] { ones = batch_sum<Curve>(bases, s.ones.data(), s.ones.size()); },
                         [&] { rest = pippenger<Curve>(bases, s.others.data(), s.other_scalars, opt, st); });
    return ones + rest;
  });
}

/* every scalar through Pippenger */
template <class Curve>
ec::jacobian<Curve> plain_msm(std::span<const ec::affine_point<typename Curve::field_t>> bases,
                              std::span<const ec::scalar_limbs_t> scalars, const options& opt, stats* st) {
  check_sizes(bases.size(), scalars.size());
  return in_arena(opt.threads, [&] {
    std::vector<ec::scalar_limbs_t> reduced(scalars.size());
    tbb::parallel_for(std::size_t(0), scalars.size(), [&](std::size_t i) { reduced[i] = ec::reduce_mod_r(scalars[i]); });
    if (st) st->split = {0, 0, scalars.size()};
    return pippenger<Curve>(bases, nullptr, reduced, opt, st);
  });
}

template <class Curve>
ec::jacobian<Curve> plain_msm(std::span<const ec::affine_point<typename Curve::field_t>> bases,
                              std::span<const ec::fr_t> scalars, const options& opt, stats* st) {
  check_sizes(bases.size(), scalars.size());
  return in_arena(opt.threads, [&] {
    std::vector<ec::scalar_limbs_t> canonical(scalars.size());
    tbb::parallel_for(std::size_t(0), scalars.size(), [&](std::size_t i) { canonical[i] = scalars[i].to_canonical(); });
    if (st) st->split = {0, 0, scalars.size()};
    return pippenger<Curve>(bases, nullptr, canonical, opt, st);
  });
}

template <class Curve, class Scalar>
ec::jacobian<Curve> msm(std::span<const ec::affine_point<typename Curve::field_t>> bases,
                        std::span<const Scalar> scalars, const options& opt, stats* st) {
  return opt.split ? split_msm<Curve>(bases, scalars, opt, st) : plain_msm<Curve>(bases, scalars, opt, st);
}

}  // namespace cuzk::msm::detail
