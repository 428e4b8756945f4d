// BLS12-381 field constants, all in one place (as blst's consts.h).
// Limbs are little-endian 64-bit words. Every value is reproduced by
// scripts/gen-constants.py from p, r and the curve parameter
// x = -0xd201000000010000 (draft-irtf-cfrg-pairing-friendly-curves §4.2.1):
//   p = (x - 1)^2 (x^4 - x^2 + 1) / 3 + x,   r = x^4 - x^2 + 1.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace cuzk::curves {
struct bls12_381;
}

namespace cuzk::ff {

struct fp_params {
  using curve = curves::bls12_381;
  static constexpr std::size_t n_limbs = 6;
  static constexpr std::size_t bits = 381;
  using limbs_t = std::array<std::uint64_t, n_limbs>;
  /* p */
  static constexpr limbs_t modulus = {0xb9feffffffffaaab, 0x1eabfffeb153ffff, 0x6730d2a0f6b0f624,
                                      0x64774b84f38512bf, 0x4b1ba7b6434bacd7, 0x1a0111ea397fe69a};
  /* R = 2^384 mod p (one in Montgomery form) */
  static constexpr limbs_t r1 = {0x760900000002fffd, 0xebf4000bc40c0002, 0x5f48985753c758ba,
                                 0x77ce585370525745, 0x5c071a97a256ec6d, 0x15f65ec3fa80e493};
  /* R^2 mod p */
  static constexpr limbs_t r2 = {0xf4df1f341c341746, 0x0a76e6a609d104f1, 0x8de5476c4c95b6d5,
                                 0x67eb88a9939d83c0, 0x9a793e85b519952d, 0x11988fe592cae3aa};
  /* R^3 mod p */
  static constexpr limbs_t r3 = {0xed48ac6bd94ca1e0, 0x315f831e03a7adf8, 0x9a53352a615e29dd,
                                 0x34c04e5e921e1761, 0x2512d43565724728, 0x0aa6346091755d4d};
  /* -p^-1 mod 2^64 */
  static constexpr std::uint64_t inv = 0x89f3fffcfffcfffd;
  /* p - 1 = 2^s t with s = 1 */
  static constexpr unsigned two_adicity = 1;
  /* (t - 1) / 2 */
  static constexpr limbs_t t_minus1_over2 = {0xee7fbfffffffeaaa, 0x07aaffffac54ffff, 0xd9cc34a83dac3d89,
                                             0xd91dd2e13ce144af, 0x92c6e9ed90d2eb35, 0x0680447a8e5ff9a6};
  /* g^t (Montgomery), g = 2 a quadratic non-residue: a primitive 2^s-th root of unity (= -1) */
  static constexpr limbs_t root_of_unity = {0x43f5fffffffcaaae, 0x32b7fff2ed47fffd, 0x07e83a49a2e99d69,
                                            0xeca8f3318332bb7a, 0xef148d1ea0f4c069, 0x040ab3263eff0206};
  /* (p - 1) / 2, the Legendre exponent */
  static constexpr limbs_t m_minus1_over2 = {0xdcff7fffffffd555, 0x0f55ffff58a9ffff, 0xb39869507b587b12,
                                             0xb23ba5c279c2895f, 0x258dd3db21a5d66b, 0x0d0088f51cbff34d};
};

struct fr_params {
  using curve = curves::bls12_381;
  static constexpr std::size_t n_limbs = 4;
  static constexpr std::size_t bits = 255;
  using limbs_t = std::array<std::uint64_t, n_limbs>;
  /* r */
  static constexpr limbs_t modulus = {0xffffffff00000001, 0x53bda402fffe5bfe, 0x3339d80809a1d805, 0x73eda753299d7d48};
  /* R = 2^256 mod r */
  static constexpr limbs_t r1 = {0x00000001fffffffe, 0x5884b7fa00034802, 0x998c4fefecbc4ff5, 0x1824b159acc5056f};
  /* R^2 mod r */
  static constexpr limbs_t r2 = {0xc999e990f3f29c6d, 0x2b6cedcb87925c23, 0x05d314967254398f, 0x0748d9d99f59ff11};
  /* R^3 mod r */
  static constexpr limbs_t r3 = {0xc62c1807439b73af, 0x1b3e0d188cf06990, 0x73d13c71c7b5f418, 0x6e2a5bb9c8db33e9};
  /* -r^-1 mod 2^64 */
  static constexpr std::uint64_t inv = 0xfffffffeffffffff;
  /* r - 1 = 2^s t with s = 32 */
  static constexpr unsigned two_adicity = 32;
  /* (t - 1) / 2 */
  static constexpr limbs_t t_minus1_over2 = {0x7fff2dff7fffffff, 0x04d0ec02a9ded201, 0x94cebea4199cec04,
                                             0x0000000039f6d3a9};
  /* g^t (Montgomery), g = 7 the multiplicative generator: a primitive 2^32-th root of unity */
  static constexpr limbs_t root_of_unity = {0xb9b58d8c5f0e466a, 0x5b1b4c801819d7ec, 0x0af53ae352a31e64,
                                            0x5bf3adda19e9b27b};
  /* 7 (Montgomery): the multiplicative generator, also the coset shift used by bellman */
  static constexpr limbs_t generator = {0x0000000efffffff1, 0x17e363d300189c0f, 0xff9c57876f8457b0, 0x351332208fc5a8c4};
  /* (r - 1) / 2 */
  static constexpr limbs_t m_minus1_over2 = {0x7fffffff80000000, 0xa9ded2017fff2dff, 0x199cec0404d0ec02,
                                             0x39f6d3a994cebea4};
};

}  // namespace cuzk::ff
