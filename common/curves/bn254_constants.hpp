// BN254 constants (alt_bn128 of EIP-196/197, snarkjs's "bn128", @noble/curves'
// bn254). Limbs are little-endian 64-bit words; "(Montgomery)" values are
// v R mod p with R = 2^256. Every value is reproduced by
// scripts/gen-constants.py bn254 (fp_params, fr_params) and
// scripts/gen-tower-constants.py bn254 (the rest), and recomputed from its
// definition by tests/unit/curves/bn254_constants_test.cpp.
// Sources: Barreto-Naehrig (eprint 2005/133) for p, r as polynomials in x;
// EIP-196/197 for x, the curves, the generators and the tower
//   x = 4965661367192848881,
//   p = 36x^4 + 36x^3 + 24x^2 + 6x + 1,   r = 36x^4 + 36x^3 + 18x^2 + 6x + 1,
//   G1: y^2 = x^3 + 3 over Fp,  G2: y^2 = x^3 + 3 / xi over Fp2 (D-type twist),
//   Fp2 = Fp[u]/(u^2 + 1), Fp6 = Fp2[v]/(v^3 - xi), Fp12 = Fp6[w]/(w^2 - v), xi = 9 + u.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>

namespace cuzk::curves {
struct bn254;
}

namespace cuzk::curves::bn254_consts {

using limbs4 = std::array<std::uint64_t, 4>;

struct fp_params {
  using curve = curves::bn254;
  static constexpr std::size_t n_limbs = 4;
  static constexpr std::size_t bits = 254;
  using limbs_t = limbs4;
  /* p */
  static constexpr limbs_t modulus = {0x3c208c16d87cfd47, 0x97816a916871ca8d, 0xb85045b68181585d, 0x30644e72e131a029};
  /* R = 2^256 mod p (one in Montgomery form) */
  static constexpr limbs_t r1 = {0xd35d438dc58f0d9d, 0x0a78eb28f5c70b3d, 0x666ea36f7879462c, 0x0e0a77c19a07df2f};
  /* R^2 mod p */
  static constexpr limbs_t r2 = {0xf32cfc5b538afa89, 0xb5e71911d44501fb, 0x47ab1eff0a417ff6, 0x06d89f71cab8351f};
  /* R^3 mod p */
  static constexpr limbs_t r3 = {0xb1cd6dafda1530df, 0x62f210e6a7283db6, 0xef7f0b0c0ada0afb, 0x20fd6e902d592544};
  /* -p^-1 mod 2^64 */
  static constexpr std::uint64_t inv = 0x87d20782e4866389;
  /* p - 1 = 2^s t with s = 1 (p = 3 mod 4) */
  static constexpr unsigned two_adicity = 1;
  /* (t - 1) / 2 */
  static constexpr limbs_t t_minus1_over2 = {0x4f082305b61f3f51, 0x65e05aa45a1c72a3, 0x6e14116da0605617,
                                             0x0c19139cb84c680a};
  /* g^t (Montgomery), g = 3 the smallest quadratic non-residue: a primitive 2^s-th root of unity (= -1) */
  static constexpr limbs_t root_of_unity = {0x68c3488912edefaa, 0x8d087f6872aabf4f, 0x51e1a24709081231,
                                            0x2259d6b14729c0fa};
  /* (p - 1) / 2, the Legendre exponent */
  static constexpr limbs_t m_minus1_over2 = {0x9e10460b6c3e7ea3, 0xcbc0b548b438e546, 0xdc2822db40c0ac2e,
                                             0x183227397098d014};
};

struct fr_params {
  using curve = curves::bn254;
  static constexpr std::size_t n_limbs = 4;
  static constexpr std::size_t bits = 254;
  using limbs_t = limbs4;
  /* r */
  static constexpr limbs_t modulus = {0x43e1f593f0000001, 0x2833e84879b97091, 0xb85045b68181585d, 0x30644e72e131a029};
  /* R = 2^256 mod r */
  static constexpr limbs_t r1 = {0xac96341c4ffffffb, 0x36fc76959f60cd29, 0x666ea36f7879462e, 0x0e0a77c19a07df2f};
  /* R^2 mod r */
  static constexpr limbs_t r2 = {0x1bb8e645ae216da7, 0x53fe3ab1e35c59e3, 0x8c49833d53bb8085, 0x0216d0b17f4e44a5};
  /* R^3 mod r */
  static constexpr limbs_t r3 = {0x5e94d8e1b4bf0040, 0x2a489cbe1cfbb6b8, 0x893cc664a19fcfed, 0x0cf8594b7fcc657c};
  /* -r^-1 mod 2^64 */
  static constexpr std::uint64_t inv = 0xc2e1f593efffffff;
  /* r - 1 = 2^s t with s = 28 */
  static constexpr unsigned two_adicity = 28;
  /* (t - 1) / 2 */
  static constexpr limbs_t t_minus1_over2 = {0xcdcb848a1f0fac9f, 0x0c0ac2e9419f4243, 0x098d014dc2822db4,
                                             0x0000000183227397};
  /* g^t (Montgomery), g = 5: a primitive 2^28-th root of unity */
  static constexpr limbs_t root_of_unity = {0x636e735580d13d9c, 0xa22bf3742445ffd6, 0x56452ac01eb203d8,
                                            0x1860ef942963f9e7};
  /* 5 (Montgomery): the smallest quadratic non-residue, ffjavascript/snarkjs's
     generator of its FFT roots of unity */
  static constexpr limbs_t generator = {0x1b0d0ef99fffffe6, 0xeaba68a3a32a913f, 0x47d8eb76d8dd0689, 0x15d0085520f5bbc3};
  /* (r - 1) / 2 */
  static constexpr limbs_t m_minus1_over2 = {0xa1f0fac9f8000000, 0x9419f4243cdcb848, 0xdc2822db40c0ac2e,
                                             0x183227397098d014};
};

/* The BN parameter x (positive): p and r are polynomials in x (see above),
   t = 6x^2 + 1 is the trace of Frobenius, r = p + 1 - t. */
inline constexpr std::uint64_t x = 4965661367192848881;

/* 6x + 2 = 0x19d797039be763ba8, the optimal ate Miller loop length, in NAF
   (digits in {-1, 0, 1}, no two adjacent nonzero), most significant digit first:
   66 digits, 22 of them nonzero */
inline constexpr std::int8_t ate_loop_naf[] = {
    1, 0, -1, 0, 1, 0, 0, 0,  -1, 0, -1, 0, 0, 0,  -1, 0,  1, 0, -1, 0, 0, -1, 0,  0, 0, 0,  0, 1, 0, 0, -1, 0, 1,
    0, 0, -1, 0, 0, 0, 0, -1, 0,  1, 0,  0, 0, -1, 0,  -1, 0, 0, 1,  0, 0, 0,  -1, 0, 0, -1, 0, 1, 0, 1, 0,  0, 0};

/* b = 3 (Montgomery): G1 is y^2 = x^3 + 3 over Fp */
inline constexpr limbs4 b_mont = {0x7a17caa950ad28d7, 0x1f6ac17ae15521b9, 0x334bea4e696bd284, 0x2a1f6744ce179d8e};

/* b' = 3 / xi = 3 / (9 + u) (Montgomery c0, c1): G2 is y^2 = x^3 + b' over Fp2 */
inline constexpr limbs4 b2_c0_mont = {0x3bf938e377b802a8, 0x020b1b273633535d, 0x26b7edf049755260, 0x2514c6324384a86d};
inline constexpr limbs4 b2_c1_mont = {0x38e7ecccd1dcff67, 0x65f0b37d93ce0d3e, 0xd749d0dd22ac00aa, 0x0141b9ce4a688d4d};

/* G1 generator (1, 2) (canonical, not Montgomery); G1 = E(Fp) has order r, cofactor 1 */
inline constexpr limbs4 g1_x = {0x0000000000000001, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000};
inline constexpr limbs4 g1_y = {0x0000000000000002, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000};

/* G2 generator of EIP-197 (canonical), x = x0 + x1 u, y = y0 + y1 u */
inline constexpr limbs4 g2_x0 = {0x46debd5cd992f6ed, 0x674322d4f75edadd, 0x426a00665e5c4479, 0x1800deef121f1e76};
inline constexpr limbs4 g2_x1 = {0x97e485b7aef312c2, 0xf1aa493335a9e712, 0x7260bfb731fb5d25, 0x198e9393920d483a};
inline constexpr limbs4 g2_y0 = {0x4ce6cc0166fa7daa, 0xe3d1e7690c43d37b, 0x4aab71808dcb408f, 0x12c85ea5db8c6deb};
inline constexpr limbs4 g2_y1 = {0x55acdadcd122975b, 0xbc4b313370b38ef3, 0xec9e99ad690c3395, 0x090689d0585ff075};

/* G2 cofactor: #E'(Fp2) = (p + 1 - t)(p - 1 + t) = r h2, h2 = p - 1 + t = 2p - r */
inline constexpr std::array<std::uint64_t, 4> h2 = {0x345f2299c0f9fa8d, 0x06ceecda572a2489, 0xb85045b68181585e,
                                                    0x30644e72e131a029};

struct fp2_limbs {
  limbs4 c0, c1;
};

/* Fp12 Frobenius: (sum_j a_j w^j)^(p^k) = sum_j a_j^(p^k) gamma[k][j] w^j with
   frobenius_gamma[k - 1][j - 1] = xi^(j (p^k - 1) / 6), k = 1..3, j = 1..5
   (Montgomery; for k = 2 they lie in Fp: xi^(p^2 - 1) = N(xi)^(p - 1), N(xi) = 82) */
inline constexpr fp2_limbs frobenius_gamma[3][5] = {
    {
        /* xi^(1 (p^1 - 1) / 6) */
        {{0xaf9ba69633144907, 0xca6b1d7387afb78a, 0x11bded5ef08a2087, 0x02f34d751a1f3a7c},
         {0xa222ae234c492d72, 0xd00f02a4565de15b, 0xdc2ff3a253dfc926, 0x10a75716b3899551}},
        /* xi^(2 (p^1 - 1) / 6) */
        {{0xb5773b104563ab30, 0x347f91c8a9aa6454, 0x7a007127242e0991, 0x1956bcd8118214ec},
         {0x6e849f1ea0aa4757, 0xaa1c7b6d89f89141, 0xb6e713cdfae0ca3a, 0x26694fbb4e82ebc3}},
        /* xi^(3 (p^1 - 1) / 6) */
        {{0xe4bbdd0c2936b629, 0xbb30f162e133bacb, 0x31a9d1b6f9645366, 0x253570bea500f8dd},
         {0xa1d77ce45ffe77c7, 0x07affd117826d1db, 0x6d16bd27bb7edc6b, 0x2c87200285defecc}},
        /* xi^(4 (p^1 - 1) / 6) */
        {{0x7361d77f843abe92, 0xa5bb2bd3273411fb, 0x9c941f314b3e2399, 0x15df9cddbb9fd3ec},
         {0x5dddfd154bd8c949, 0x62cb29a5a4445b60, 0x37bc870a0c7dd2b9, 0x24830a9d3171f0fd}},
        /* xi^(5 (p^1 - 1) / 6) */
        {{0xc970692f41690fe7, 0xe240342127694b0b, 0x32bee66b83c459e8, 0x12aabced0ab08841},
         {0x0d485d2340aebfa9, 0x05193418ab2fcc57, 0xd3b0a40b8a4910f5, 0x2f21ebb535d2925a}},
    },
    {
        /* xi^(1 (p^2 - 1) / 6) */
        {{0xca8d800500fa1bf2, 0xf0c5d61468b39769, 0x0e201271ad0d4418, 0x04290f65bad856e6},
         {0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000}},
        /* xi^(2 (p^2 - 1) / 6) */
        {{0x3350c88e13e80b9c, 0x7dce557cdb5e56b9, 0x6001b4b8b615564a, 0x2682e617020217e0},
         {0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000}},
        /* xi^(3 (p^2 - 1) / 6) */
        {{0x68c3488912edefaa, 0x8d087f6872aabf4f, 0x51e1a24709081231, 0x2259d6b14729c0fa},
         {0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000}},
        /* xi^(4 (p^2 - 1) / 6) */
        {{0x71930c11d782e155, 0xa6bb947cffbe3323, 0xaa303344d4741444, 0x2c3b3f0d26594943},
         {0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000}},
        /* xi^(5 (p^2 - 1) / 6) */
        {{0x08cfc388c494f1ab, 0x19b315148d1373d4, 0x584e90fdcb6c0213, 0x09e1685bdf2f8849},
         {0x0000000000000000, 0x0000000000000000, 0x0000000000000000, 0x0000000000000000}},
    },
    {
        /* xi^(1 (p^3 - 1) / 6) */
        {{0x365316184e46d97d, 0x0af7129ed4c96d9f, 0x659da72fca1009b5, 0x08116d8983a20d23},
         {0xb1df4af7c39c1939, 0x3d9f02878a73bf7f, 0x9b2220928caf0ae0, 0x26684515eff054a6}},
        /* xi^(2 (p^3 - 1) / 6) */
        {{0xc9af22f716ad6bad, 0xb311782a4aa662b2, 0x19eeaf64e248c7f4, 0x20273e77e3439f82},
         {0xacc02860f7ce93ac, 0x3933d5817ba76b4c, 0x69e6188b446c8467, 0x0a46036d4417cc55}},
        /* xi^(3 (p^3 - 1) / 6) */
        {{0x5764af0aaf46471e, 0xdc50792e873e0fc1, 0x86a673ff881d04f6, 0x0b2eddb43c30a74c},
         {0x9a490f32787e8580, 0x8fd16d7ff04af8b1, 0x4b39888ec6027bf2, 0x03dd2e705b52a15d}},
        /* xi^(4 (p^3 - 1) / 6) */
        {{0x448a93a57b6762df, 0xbfd62df528fdeadf, 0xd858f5d00e9bd47a, 0x06b03d4d3476ec58},
         {0x2b19daf4bcc936d1, 0xa1a54e7a56f4299f, 0xb533eee05adeaef1, 0x170c812b84dda0b2}},
        /* xi^(5 (p^3 - 1) / 6) */
        {{0xe0bc4b2275cf559f, 0xc238b945c154e60f, 0x803982a5929a7d5e, 0x15ce052df7e4a37e},
         {0x2d28efbdbf3799a7, 0x9b097e3c1ad60773, 0x982d4113af4a535b, 0x24e18991e3056063}},
    },
};

}  // namespace cuzk::curves::bn254_consts
