// Frobenius coefficients of the Fp12 tower, Montgomery form, reproduced by
// scripts/gen-tower-constants.py.
//
// With Fp12 = Fp6[w]/(w^2 - v), Fp6 = Fp2[v]/(v^3 - xi), xi = 1 + u, every
// element is sum_j a_j w^j (a_j in Fp2, j = 0..5; v = w^2, w^6 = xi), and
//   (sum_j a_j w^j)^(p^k) = sum_j a_j^(p^k) gamma[k][j] w^j,
//   gamma[k][j] = w^(j (p^k - 1)) = xi^(j (p^k - 1) / 6).
// For k = 2 they lie in Fp (xi^(p^2 - 1) = N(xi)^(p - 1) with N(xi) = 2).
#pragma once

#include <array>
#include <cstdint>

namespace cuzk::ff::tower {

struct fp2_limbs {
  std::array<std::uint64_t, 6> c0, c1;
};

/* frobenius_gamma[k - 1][j - 1] = xi^(j (p^k - 1) / 6), k = 1..3, j = 1..5 */
inline constexpr fp2_limbs frobenius_gamma[3][5] = {
    {
        /* xi^(1 (p^1 - 1) / 6) */
        {{0x07089552b319d465, 0xc6695f92b50a8313, 0x97e83cccd117228f, 0xa35baecab2dc29ee, 0x1ce393ea5daace4d,
          0x08f2220fb0fb66eb},
         {0xb2f66aad4ce5d646, 0x5842a06bfc497cec, 0xcf4895d42599d394, 0xc11b9cba40a8e8d0, 0x2e3813cbe5a0de89,
          0x110eefda88847faf}},
        /* xi^(2 (p^1 - 1) / 6) */
        {{0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000,
          0x0000000000000000},
         {0xcd03c9e48671f071, 0x5dab22461fcda5d2, 0x587042afd3851b95, 0x8eb60ebe01bacb9e, 0x03f97d6e83d050d2,
          0x18f0206554638741}},
        /* xi^(3 (p^1 - 1) / 6) */
        {{0x7bcfa7a25aa30fda, 0xdc17dec12a927e7c, 0x2f088dd86b4ebef1, 0xd1ca2087da74d4a7, 0x2da2596696cebc1d,
          0x0e2b7eedbbfd87d2},
         {0x7bcfa7a25aa30fda, 0xdc17dec12a927e7c, 0x2f088dd86b4ebef1, 0xd1ca2087da74d4a7, 0x2da2596696cebc1d,
          0x0e2b7eedbbfd87d2}},
        /* xi^(4 (p^1 - 1) / 6) */
        {{0x890dc9e4867545c3, 0x2af322533285a5d5, 0x50880866309b7e2c, 0xa20d1b8c7e881024, 0x14e4f04fe2db9068,
          0x14e56d3f1564853a},
         {0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000,
          0x0000000000000000}},
        /* xi^(5 (p^1 - 1) / 6) */
        {{0x82d83cf50dbce43f, 0xa2813e53df9d018f, 0xc6f0caa53c65e181, 0x7525cf528d50fe95, 0x4a85ed50f4798a6b,
          0x171da0fd6cf8eebd},
         {0x3726c30af242c66c, 0x7c2ac1aad1b6fe70, 0xa04007fbba4b14a2, 0xef517c3266341429, 0x0095ba654ed2226b,
          0x02e370eccc86f7dd}},
    },
    {
        /* xi^(1 (p^2 - 1) / 6) */
        {{0xecfb361b798dba3a, 0xc100ddb891865a2c, 0x0ec08ff1232bda8e, 0xd5c13cc6f1ca4721, 0x47222a47bf7b5c04,
          0x0110f184e51c5f59},
         {0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000,
          0x0000000000000000}},
        /* xi^(2 (p^2 - 1) / 6) */
        {{0x30f1361b798a64e8, 0xf3b8ddab7ece5a2a, 0x16a8ca3ac61577f7, 0xc26a2ff874fd029b, 0x3636b76660701c6e,
          0x051ba4ab241b6160},
         {0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000,
          0x0000000000000000}},
        /* xi^(3 (p^2 - 1) / 6) */
        {{0x43f5fffffffcaaae, 0x32b7fff2ed47fffd, 0x07e83a49a2e99d69, 0xeca8f3318332bb7a, 0xef148d1ea0f4c069,
          0x040ab3263eff0206},
         {0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000,
          0x0000000000000000}},
        /* xi^(4 (p^2 - 1) / 6) */
        {{0xcd03c9e48671f071, 0x5dab22461fcda5d2, 0x587042afd3851b95, 0x8eb60ebe01bacb9e, 0x03f97d6e83d050d2,
          0x18f0206554638741},
         {0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000,
          0x0000000000000000}},
        /* xi^(5 (p^2 - 1) / 6) */
        {{0x890dc9e4867545c3, 0x2af322533285a5d5, 0x50880866309b7e2c, 0xa20d1b8c7e881024, 0x14e4f04fe2db9068,
          0x14e56d3f1564853a},
         {0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000,
          0x0000000000000000}},
    },
    {
        /* xi^(1 (p^3 - 1) / 6) */
        {{0x3e2f585da55c9ad1, 0x4294213d86c18183, 0x382844c88b623732, 0x92ad2afd19103e18, 0x1d794e4fac7cf0b9,
          0x0bd592fc7d825ec8},
         {0x7bcfa7a25aa30fda, 0xdc17dec12a927e7c, 0x2f088dd86b4ebef1, 0xd1ca2087da74d4a7, 0x2da2596696cebc1d,
          0x0e2b7eedbbfd87d2}},
        /* xi^(2 (p^3 - 1) / 6) */
        {{0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000,
          0x0000000000000000},
         {0x760900000002fffd, 0xebf4000bc40c0002, 0x5f48985753c758ba, 0x77ce585370525745, 0x5c071a97a256ec6d,
          0x15f65ec3fa80e493}},
        /* xi^(3 (p^3 - 1) / 6) */
        {{0x3e2f585da55c9ad1, 0x4294213d86c18183, 0x382844c88b623732, 0x92ad2afd19103e18, 0x1d794e4fac7cf0b9,
          0x0bd592fc7d825ec8},
         {0x3e2f585da55c9ad1, 0x4294213d86c18183, 0x382844c88b623732, 0x92ad2afd19103e18, 0x1d794e4fac7cf0b9,
          0x0bd592fc7d825ec8}},
        /* xi^(4 (p^3 - 1) / 6) */
        {{0x43f5fffffffcaaae, 0x32b7fff2ed47fffd, 0x07e83a49a2e99d69, 0xeca8f3318332bb7a, 0xef148d1ea0f4c069,
          0x040ab3263eff0206},
         {0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000,
          0x0000000000000000}},
        /* xi^(5 (p^3 - 1) / 6) */
        {{0x7bcfa7a25aa30fda, 0xdc17dec12a927e7c, 0x2f088dd86b4ebef1, 0xd1ca2087da74d4a7, 0x2da2596696cebc1d,
          0x0e2b7eedbbfd87d2},
         {0x3e2f585da55c9ad1, 0x4294213d86c18183, 0x382844c88b623732, 0x92ad2afd19103e18, 0x1d794e4fac7cf0b9,
          0x0bd592fc7d825ec8}},
    },
};

}  // namespace cuzk::ff::tower
