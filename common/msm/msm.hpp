// Multi-scalar multiplication in G1 and G2: sum_i k_i P_i for affine bases P_i
// (the proving key's queries) and scalars k_i (a witness).
//   msm_g1 / msm_g2   the entry points: zeros skipped, ones summed by batch
//                     addition, the rest by Pippenger (split.hpp, pippenger.hpp)
//   pippenger_g1/_g2  Pippenger alone, every scalar through the buckets
// Scalars are fr_t (Montgomery form) or canonical 256-bit integers (taken mod
// r). Bases must be on the curve; points at infinity are allowed. The result
// is Jacobian. Multithreaded with oneTBB: in the caller's arena, or in one of
// options::threads threads. Variable time.
#pragma once

#include <cstdint>
#include <span>

#include "ec/config.hpp"
#include "msm/options.hpp"

namespace cuzk::msm {

using ec::fr_t;
using ec::g1_affine_t;
using ec::g1_jacobian_t;
using ec::g2_affine_t;
using ec::g2_jacobian_t;
using ec::scalar_limbs_t;

/* Throw std::invalid_argument when bases and scalars differ in length. */
g1_jacobian_t msm_g1(std::span<const g1_affine_t> bases, std::span<const fr_t> scalars,
                     const options& opt = {}, stats* st = nullptr);
g1_jacobian_t msm_g1(std::span<const g1_affine_t> bases, std::span<const scalar_limbs_t> scalars,
                     const options& opt = {}, stats* st = nullptr);
g2_jacobian_t msm_g2(std::span<const g2_affine_t> bases, std::span<const fr_t> scalars,
                     const options& opt = {}, stats* st = nullptr);
g2_jacobian_t msm_g2(std::span<const g2_affine_t> bases, std::span<const scalar_limbs_t> scalars,
                     const options& opt = {}, stats* st = nullptr);

/* The same with a split precomputed by split_scalars (split.hpp), so scalars
   shared by several MSMs (a witness against the A, B and C queries) are
   classified once: sum_{i in ones} P_{i - first} + sum_j other_scalars[j]
   P_{others[j] - first}. Indices increasing, in [first, first + bases.size());
   other_scalars canonical, < r. A split restricted to i >= first serves an
   MSM over the scalars' tail. Throws std::invalid_argument otherwise. */
g1_jacobian_t msm_g1(std::span<const g1_affine_t> bases, std::span<const std::uint32_t> ones,
                     std::span<const std::uint32_t> others, std::span<const scalar_limbs_t> other_scalars,
                     std::uint32_t first = 0, const options& opt = {}, stats* st = nullptr);
g2_jacobian_t msm_g2(std::span<const g2_affine_t> bases, std::span<const std::uint32_t> ones,
                     std::span<const std::uint32_t> others, std::span<const scalar_limbs_t> other_scalars,
                     std::uint32_t first = 0, const options& opt = {}, stats* st = nullptr);

/* Pippenger without the split (as msm_* with options::split = false). */
g1_jacobian_t pippenger_g1(std::span<const g1_affine_t> bases, std::span<const scalar_limbs_t> scalars,
                           const options& opt = {}, stats* st = nullptr);
g2_jacobian_t pippenger_g2(std::span<const g2_affine_t> bases, std::span<const scalar_limbs_t> scalars,
                           const options& opt = {}, stats* st = nullptr);

/* sum_i P_i by batch-affine addition (what the ones of the split go through). */
g1_jacobian_t sum_g1(std::span<const g1_affine_t> points, int threads = 0);
g2_jacobian_t sum_g2(std::span<const g2_affine_t> points, int threads = 0);

}  // namespace cuzk::msm
