// Curve membership, prime-order subgroup membership and cofactor clearing.
#pragma once

#include "ec/config.hpp"

namespace cuzk::ec {

/* y^2 = x^3 + b; infinity is on the curve */
bool is_on_curve(const g1_affine_t& p);
bool is_on_curve(const g2_affine_t& p);

/* For P on the curve: P in G1 iff phi(P) = -[x^2]P, P in G2 iff psi(P) = [x]P
   (Scott, eprint 2021/1130 §4 and §6; proofs in eprint 2022/352). */
bool in_subgroup(const g1_jacobian_t& p);
bool in_subgroup(const g2_jacobian_t& p);
inline bool in_subgroup(const g1_affine_t& p) { return in_subgroup(g1_jacobian_t::from_affine(p)); }
inline bool in_subgroup(const g2_affine_t& p) { return in_subgroup(g2_jacobian_t::from_affine(p)); }

/* The definition the fast checks are tested against: [r]P = O. */
bool in_subgroup_by_order(const g1_jacobian_t& p);
bool in_subgroup_by_order(const g2_jacobian_t& p);

/* Maps any point of the curve into the subgroup (RFC 9380 §8.8):
   G1: [h_eff]P with h_eff = 1 - x = 0xd201000000010001;
   G2: [x^2 - x - 1]P + [x - 1]psi(P) + psi^2(2P) (Budroni-Pintore, App. G.3). */
g1_jacobian_t clear_cofactor(const g1_jacobian_t& p);
g2_jacobian_t clear_cofactor(const g2_jacobian_t& p);

}  // namespace cuzk::ec
