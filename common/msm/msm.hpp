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

/* Pippenger without the split (as msm_* with options::split = false). */
g1_jacobian_t pippenger_g1(std::span<const g1_affine_t> bases, std::span<const scalar_limbs_t> scalars,
                           const options& opt = {}, stats* st = nullptr);
g2_jacobian_t pippenger_g2(std::span<const g2_affine_t> bases, std::span<const scalar_limbs_t> scalars,
                           const options& opt = {}, stats* st = nullptr);

/* sum_i P_i by batch-affine addition (what the ones of the split go through). */
g1_jacobian_t sum_g1(std::span<const g1_affine_t> points, int threads = 0);
g2_jacobian_t sum_g2(std::span<const g2_affine_t> points, int threads = 0);

}  // namespace cuzk::msm
