// BLS12-381 curve constants (the field constants live in bls12_381_field_constants.hpp).
// Limbs are little-endian 64-bit words. "(Montgomery)" values are v R mod p
// with R = 2^384. tests/unit/ec/constants_test.cpp recomputes every value here
// from its definition. Sources: draft-irtf-cfrg-pairing-friendly-curves-11
// §4.2.1 (curve, generators, x), eprint 2021/1130 and 2022/352 (endomorphisms
// and subgroup checks), RFC 9380 §8.8 and App. G.3 (cofactor clearing).
#pragma once

#include <array>
#include <cstdint>

#include "curves/bls12_381_field_constants.hpp"

namespace cuzk::ec::consts {

using fp_limbs = ff::fp_params::limbs_t;

/* The BLS parameter x = -0xd201000000010000 (negative): p and r are
   polynomials in x, r = x^4 - x^2 + 1. Stored as |x|. */
inline constexpr std::uint64_t x_abs = 0xd201000000010000;

/* b = 4 (Montgomery): G1 is y^2 = x^3 + 4 over Fp, G2 (M-twist) is
   y^2 = x^3 + 4(1 + u) over Fp2, i.e. b' = (4, 4). */
inline constexpr fp_limbs b_mont = {0xaa270000000cfff3, 0x53cc0032fc34000a, 0x478fe97a6b0a807f,
                                    0xb1d37ebee6ba24d7, 0x8ec9733bbf78ab2f, 0x09d645513d83de7e};

/* G1 generator (canonical, not Montgomery) */
inline constexpr fp_limbs g1_x = {0xfb3af00adb22c6bb, 0x6c55e83ff97a1aef, 0xa14e3a3f171bac58,
                                  0xc3688c4f9774b905, 0x2695638c4fa9ac0f, 0x17f1d3a73197d794};
inline constexpr fp_limbs g1_y = {0x0caa232946c5e7e1, 0xd03cc744a2888ae4, 0x00db18cb2c04b3ed,
                                  0xfcf5e095d5d00af6, 0xa09e30ed741d8ae4, 0x08b3f481e3aaa0f1};

/* G2 generator (canonical), x = x0 + x1 u, y = y0 + y1 u */
inline constexpr fp_limbs g2_x0 = {0xd48056c8c121bdb8, 0x0bac0326a805bbef, 0xb4510b647ae3d177,
                                   0xc6e47ad4fa403b02, 0x260805272dc51051, 0x024aa2b2f08f0a91};
inline constexpr fp_limbs g2_x1 = {0xe5ac7d055d042b7e, 0x334cf11213945d57, 0xb5da61bbdc7f5049,
                                   0x596bd0d09920b61a, 0x7dacd3a088274f65, 0x13e02b6052719f60};
inline constexpr fp_limbs g2_y0 = {0xe193548608b82801, 0x923ac9cc3baca289, 0x6d429a695160d12c,
                                   0xadfd9baa8cbdd3a7, 0x8cc9cdc6da2e351a, 0x0ce5d527727d6e11};
inline constexpr fp_limbs g2_y1 = {0xaaa9075ff05f79be, 0x3f370d275cec1da1, 0x267492ab572e99ab,
                                   0xcb3e287e85a763af, 0x32acd2b02bc28b99, 0x0606c4a02ea734cc};

/* beta (Montgomery): the primitive cube root of unity in Fp,
   beta = 0x5f19672fdf76ce51ba69c6076a0f77eaddb3a93be6f89688de17d813620a00022e01fffffffefffe,
   for which phi(x, y) = (beta x, y) acts on G1 as [-x^2] (the other root, beta^2,
   gives [x^2 - 1]). Found as g^((p-1)/3) or its square for g = 2. */
inline constexpr fp_limbs beta_mont = {0x30f1361b798a64e8, 0xf3b8ddab7ece5a2a, 0x16a8ca3ac61577f7,
                                       0xc26a2ff874fd029b, 0x3636b76660701c6e, 0x051ba4ab241b6160};

/* Cofactors: #E(Fp) = h1 r, #E'(Fp2) = h2 r.
   h1 = (x - 1)^2 / 3 */
inline constexpr std::array<std::uint64_t, 2> h1 = {0x8c00aaab0000aaab, 0x396c8c005555e156};
/* h2 = (x^8 - 4x^7 + 5x^6 - 4x^4 + 6x^3 - 4x^2 - 4x + 13) / 9 (507 bits) */
inline constexpr std::array<std::uint64_t, 8> h2 = {0xcf1c38e31c7238e5, 0x1616ec6e786f0c70, 0x21537e293a6691ae,
                                                    0xa628f1cb4d9e82ef, 0xa68a205b2e5a7ddf, 0xcd91de4547085aba,
                                                    0x091d50792876a202, 0x05d543a95414e7f1};

}  // namespace cuzk::ec::consts
