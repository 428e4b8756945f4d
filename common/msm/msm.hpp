// Multi-scalar multiplication in G1 and G2: sum_i k_i P_i for affine bases P_i
// (the proving key's queries) and scalars k_i (a witness).
//   group_msm<G>::msm  the entry points: zeros skipped, ones summed by batch
//                      addition, the rest by Pippenger (split.hpp, pippenger.hpp)
//   group_msm<G>::pippenger  Pippenger alone, every scalar through the buckets
//   group_msm<G>::sum  sum_i P_i by batch-affine addition
// G is a group of a curve C: ec::g1_group<C> or ec::g2_group<C> (g1_msm<C>,
// g2_msm<C>), C one of curves::bls12_381, curves::bn254; the four are
// explicitly instantiated, one generated translation unit each
// (group_msm.cpp.in). The BLS12-381
// functions msm_g1, msm_g2, pippenger_g1, ... are the same, by name.
// Scalars are Fr(C) elements (Montgomery form) or canonical 256-bit integers
// (taken mod C's r). Bases must be on the curve; points at infinity are
// allowed. The result is Jacobian. Multithreaded with oneTBB: in the caller's
// arena, or in one of options::threads threads. Variable time.
#pragma once

#include <cstdint>
#include <span>

#include "curves/bls12_381.hpp"
#include "curves/bn254.hpp"
#include "ec/config.hpp"
#include "ff/fr.hpp"
#include "msm/options.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::msm {

using ec::fr_t;
using ec::g1_affine_t;
using ec::g1_jacobian_t;
using ec::g2_affine_t;
using ec::g2_jacobian_t;
using ec::scalar_limbs_t;

template <class G>
struct group_msm {
  using group_t = G;
  using curve_t = typename G::curve;
  using affine_t = ec::affine_point<typename G::field_t>;
  using packed_t = ec::packed_affine<typename G::field_t>;
  using jacobian_t = ec::jacobian<G>;
  using scalar_t = ff::fr<curve_t>;

  /* Throw std::invalid_argument when bases and scalars differ in length. */
  static jacobian_t msm(std::span<const affine_t> bases, std::span<const scalar_t> scalars, const options& opt = {},
                        stats* st = nullptr);
  static jacobian_t msm(std::span<const affine_t> bases, std::span<const scalar_limbs_t> scalars,
                        const options& opt = {}, stats* st = nullptr);

  /* The same with a split precomputed by split_scalars<C> (split.hpp), so
     scalars shared by several MSMs (a witness against the A, B and C queries)
     are classified once: sum_{i in ones} P_{i - first} + sum_j
     other_scalars[j] P_{others[j] - first}. Indices increasing, in
     [first, first + bases.size()); other_scalars canonical, < r. A split
     restricted to i >= first serves an MSM over the scalars' tail. Throws
     std::invalid_argument otherwise. */
  static jacobian_t msm(std::span<const affine_t> bases, std::span<const std::uint32_t> ones,
                        std::span<const std::uint32_t> others, std::span<const scalar_limbs_t> other_scalars,
                        std::uint32_t first = 0, const options& opt = {}, stats* st = nullptr);

  /* Pippenger without the split (as msm with options::split = false). */
  static jacobian_t pippenger(std::span<const affine_t> bases, std::span<const scalar_limbs_t> scalars,
                              const options& opt = {}, stats* st = nullptr);

  /* sum_i P_i by batch-affine addition (what the ones of the split go through). */
  static jacobian_t sum(std::span<const affine_t> points, int threads = 0);

  /* The same over a key's bases in place (ec::packed_affine: a .zkey's point sections as they are). */
  static jacobian_t msm_packed(std::span<const packed_t> bases, std::span<const std::uint32_t> ones,
                               std::span<const std::uint32_t> others, std::span<const scalar_limbs_t> other_scalars,
                               std::uint32_t first = 0, const options& opt = {}, stats* st = nullptr);
  static jacobian_t msm_packed(std::span<const packed_t> bases, std::span<const scalar_t> scalars,
                               const options& opt = {}, stats* st = nullptr);
  static jacobian_t sum_packed(std::span<const packed_t> points, int threads = 0);
};

template <class C>
using g1_msm = group_msm<ec::g1_group<C>>;
template <class C>
using g2_msm = group_msm<ec::g2_group<C>>;

/* defined in msm_impl.hpp, instantiated once each from group_msm.cpp.in */
#define CUZK_INSTANTIATE(C)                          \
  extern template struct group_msm<ec::g1_group<C>>; \
  extern template struct group_msm<ec::g2_group<C>>;
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

/* ---- BLS12-381 ---- */

inline g1_jacobian_t msm_g1(std::span<const g1_affine_t> bases, std::span<const fr_t> scalars, const options& opt = {},
                            stats* st = nullptr) {
  return g1_msm<curves::bls12_381>::msm(bases, scalars, opt, st);
}
inline g1_jacobian_t msm_g1(std::span<const g1_affine_t> bases, std::span<const scalar_limbs_t> scalars,
                            const options& opt = {}, stats* st = nullptr) {
  return g1_msm<curves::bls12_381>::msm(bases, scalars, opt, st);
}
inline g2_jacobian_t msm_g2(std::span<const g2_affine_t> bases, std::span<const fr_t> scalars, const options& opt = {},
                            stats* st = nullptr) {
  return g2_msm<curves::bls12_381>::msm(bases, scalars, opt, st);
}
inline g2_jacobian_t msm_g2(std::span<const g2_affine_t> bases, std::span<const scalar_limbs_t> scalars,
                            const options& opt = {}, stats* st = nullptr) {
  return g2_msm<curves::bls12_381>::msm(bases, scalars, opt, st);
}

inline g1_jacobian_t msm_g1(std::span<const g1_affine_t> bases, std::span<const std::uint32_t> ones,
                            std::span<const std::uint32_t> others, std::span<const scalar_limbs_t> other_scalars,
                            std::uint32_t first = 0, const options& opt = {}, stats* st = nullptr) {
  return g1_msm<curves::bls12_381>::msm(bases, ones, others, other_scalars, first, opt, st);
}
inline g2_jacobian_t msm_g2(std::span<const g2_affine_t> bases, std::span<const std::uint32_t> ones,
                            std::span<const std::uint32_t> others, std::span<const scalar_limbs_t> other_scalars,
                            std::uint32_t first = 0, const options& opt = {}, stats* st = nullptr) {
  return g2_msm<curves::bls12_381>::msm(bases, ones, others, other_scalars, first, opt, st);
}

inline g1_jacobian_t pippenger_g1(std::span<const g1_affine_t> bases, std::span<const scalar_limbs_t> scalars,
                                  const options& opt = {}, stats* st = nullptr) {
  return g1_msm<curves::bls12_381>::pippenger(bases, scalars, opt, st);
}
inline g2_jacobian_t pippenger_g2(std::span<const g2_affine_t> bases, std::span<const scalar_limbs_t> scalars,
                                  const options& opt = {}, stats* st = nullptr) {
  return g2_msm<curves::bls12_381>::pippenger(bases, scalars, opt, st);
}

inline g1_jacobian_t sum_g1(std::span<const g1_affine_t> points, int threads = 0) {
  return g1_msm<curves::bls12_381>::sum(points, threads);
}
inline g2_jacobian_t sum_g2(std::span<const g2_affine_t> points, int threads = 0) {
  return g2_msm<curves::bls12_381>::sum(points, threads);
}

}  // namespace cuzk::msm
