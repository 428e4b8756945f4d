// Every constant of curves/bn254_constants.hpp recomputed with GMP from its
// definition: p and r from the BN parameter x, the Montgomery constants from
// the moduli, the curve and tower constants from b = 3 and xi = 9 + u.
#include <gmpxx.h>
#include <gtest/gtest.h>

#include <array>
#include <cstddef>
#include <cstdint>
#include <string>

#include "curves/bn254_constants.hpp"

namespace {

namespace bn = cuzk::curves::bn254_consts;

/* little-endian 64-bit limbs -> integer */
template <std::size_t N>
mpz_class to_mpz(const std::array<std::uint64_t, N>& limbs) {
  mpz_class v;
  mpz_import(v.get_mpz_t(), N, -1, sizeof(std::uint64_t), 0, 0, limbs.data());
  return v;
}

mpz_class from_u64(std::uint64_t v) { return to_mpz(std::array<std::uint64_t, 1>{v}); }

mpz_class pow2(unsigned k) {
  mpz_class v;
  mpz_ui_pow_ui(v.get_mpz_t(), 2, k);
  return v;
}

/* a mod m in [0, m) (mpz_class's % truncates toward zero) */
mpz_class mod(const mpz_class& a, const mpz_class& m) {
  mpz_class v;
  mpz_mod(v.get_mpz_t(), a.get_mpz_t(), m.get_mpz_t());
  return v;
}

mpz_class powm(const mpz_class& a, const mpz_class& e, const mpz_class& m) {
  mpz_class v;
  mpz_powm(v.get_mpz_t(), a.get_mpz_t(), e.get_mpz_t(), m.get_mpz_t());
  return v;
}

mpz_class invert(const mpz_class& a, const mpz_class& m) {
  mpz_class v;
  EXPECT_NE(mpz_invert(v.get_mpz_t(), a.get_mpz_t(), m.get_mpz_t()), 0);
  return v;
}

/* x = 4965661367192848881: p = 36x^4 + 36x^3 + 24x^2 + 6x + 1,
   r = 36x^4 + 36x^3 + 18x^2 + 6x + 1, t = 6x^2 + 1 */
const mpz_class x = from_u64(bn::x);
const mpz_class p = 36 * x * x * x * x + 36 * x * x * x + 24 * x * x + 6 * x + 1;
const mpz_class r = 36 * x * x * x * x + 36 * x * x * x + 18 * x * x + 6 * x + 1;
const mpz_class t = 6 * x * x + 1;
const mpz_class R = pow2(256);

/* v R mod p */
mpz_class mont(const mpz_class& v) { return mod(v * R, p); }

/* Fp2 = Fp[u]/(u^2 + 1) on pairs of integers */
struct fp2 {
  mpz_class c0, c1;
  bool operator==(const fp2& o) const { return mod(c0 - o.c0, p) == 0 && mod(c1 - o.c1, p) == 0; }
};

fp2 add(const fp2& a, const fp2& b) { return {mod(a.c0 + b.c0, p), mod(a.c1 + b.c1, p)}; }
fp2 sub(const fp2& a, const fp2& b) { return {mod(a.c0 - b.c0, p), mod(a.c1 - b.c1, p)}; }
/* (a0 + a1 u)(b0 + b1 u) = (a0 b0 - a1 b1) + (a0 b1 + a1 b0) u */
fp2 mul(const fp2& a, const fp2& b) { return {mod(a.c0 * b.c0 - a.c1 * b.c1, p), mod(a.c0 * b.c1 + a.c1 * b.c0, p)}; }
/* 1 / a = conj(a) / (a0^2 + a1^2) */
fp2 inv(const fp2& a) {
  mpz_class n = invert(mod(a.c0 * a.c0 + a.c1 * a.c1, p), p);
  return {mod(a.c0 * n, p), mod(-a.c1 * n, p)};
}
fp2 pow(fp2 a, const mpz_class& e) {
  fp2 acc{1, 0};
  for (std::size_t i = 0, n = mpz_sizeinbase(e.get_mpz_t(), 2); i < n; ++i) {
    if (mpz_tstbit(e.get_mpz_t(), i)) acc = mul(acc, a);
    a = mul(a, a);
  }
  return acc;
}
fp2 mont(const fp2& a) { return {mont(a.c0), mont(a.c1)}; }

const fp2 xi{9, 1};

fp2 b2_mont() { return {to_mpz(bn::b2_c0_mont), to_mpz(bn::b2_c1_mont)}; }
/* b' canonical: b2_mont / R */
fp2 b2() {
  mpz_class rinv = invert(R, p);
  fp2 m = b2_mont();
  return {mod(m.c0 * rinv, p), mod(m.c1 * rinv, p)};
}

/* Affine points of y^2 = x^3 + b' over Fp2 (a = 0); infinity flagged. */
struct g2_point {
  fp2 x, y;
  bool inf = false;
};

g2_point g2_add(const g2_point& a, const g2_point& b) {
  if (a.inf) return b;
  if (b.inf) return a;
  fp2 lambda;
  if (a.x == b.x) {
    if (add(a.y, b.y) == fp2{0, 0}) return {{0, 0}, {0, 0}, true};
    /* tangent: lambda = 3 x^2 / 2y */
    lambda = mul(mul(fp2{3, 0}, mul(a.x, a.x)), inv(add(a.y, a.y)));
  } else {
    lambda = mul(sub(b.y, a.y), inv(sub(b.x, a.x)));
  }
  fp2 x3 = sub(sub(mul(lambda, lambda), a.x), b.x);
  return {x3, sub(mul(lambda, sub(a.x, x3)), a.y)};
}

g2_point g2_mul(const g2_point& pt, const mpz_class& e) {
  g2_point acc{{0, 0}, {0, 0}, true};
  for (std::size_t i = mpz_sizeinbase(e.get_mpz_t(), 2); i-- > 0;) {
    acc = g2_add(acc, acc);
    if (mpz_tstbit(e.get_mpz_t(), i)) acc = g2_add(acc, pt);
  }
  return acc;
}

std::string dec(const mpz_class& v) { return v.get_str(10); }

/* The Montgomery constants, two-adic decomposition and root of unity of
   the field mod m, with g the non-residue whose t-th power is the root */
template <class P>
void check_field(const mpz_class& m, unsigned expected_s, unsigned g) {
  EXPECT_EQ(P::n_limbs, 4u);
  EXPECT_EQ(to_mpz(P::modulus), m);
  EXPECT_NE(mpz_probab_prime_p(m.get_mpz_t(), 50), 0);
  EXPECT_EQ(mpz_sizeinbase(m.get_mpz_t(), 2), P::bits);
  const mpz_class rm = mod(R, m);
  EXPECT_EQ(to_mpz(P::r1), rm);
  EXPECT_EQ(to_mpz(P::r2), mod(rm * rm, m));
  EXPECT_EQ(to_mpz(P::r3), mod(rm * rm * rm, m));
  /* inv = -m^-1 mod 2^64 */
  EXPECT_EQ(mod(from_u64(P::inv) * m, pow2(64)), pow2(64) - 1);
  /* m - 1 = 2^s t, t odd */
  const mpz_class m1 = m - 1;
  const unsigned s = mpz_scan1(m1.get_mpz_t(), 0);
  const mpz_class tt = m1 >> s;
  EXPECT_EQ(s, expected_s);
  EXPECT_EQ(P::two_adicity, s);
  EXPECT_EQ(to_mpz(P::t_minus1_over2), (tt - 1) / 2);
  EXPECT_EQ(to_mpz(P::m_minus1_over2), m1 / 2);
  /* root_of_unity = g^t (Montgomery), of exact order 2^s */
  const mpz_class w = powm(g, tt, m);
  EXPECT_EQ(to_mpz(P::root_of_unity), mod(w * R, m));
  EXPECT_EQ(powm(w, pow2(s), m), 1);
  EXPECT_EQ(powm(w, pow2(s - 1), m), m - 1);
  /* g is the smallest quadratic non-residue (ffjavascript's rule) */
  for (unsigned a = 2; a < g; ++a) EXPECT_EQ(mpz_legendre(mpz_class(a).get_mpz_t(), m.get_mpz_t()), 1) << a;
  EXPECT_EQ(mpz_legendre(mpz_class(g).get_mpz_t(), m.get_mpz_t()), -1);
}

TEST(Bn254Constants, ModuliFollowFromX) {
  EXPECT_EQ(p, mpz_class("30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47", 16));
  EXPECT_EQ(r, mpz_class("30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001", 16));
  /* r = #E(Fp) = p + 1 - t: G1 has cofactor 1 */
  EXPECT_EQ(r, p + 1 - t);
  /* p = 3 mod 4 (u^2 = -1 gives Fp2), p = 1 mod 6 (the sextic tower) */
  EXPECT_EQ(mod(p, 4), 3);
  EXPECT_EQ(mod(p, 6), 1);
}

TEST(Bn254Constants, FpParams) { check_field<bn::fp_params>(p, 1, 3); }

TEST(Bn254Constants, FrParams) { check_field<bn::fr_params>(r, 28, 5); }

TEST(Bn254Constants, FrGeneratorIsFive) {
  EXPECT_EQ(to_mpz(bn::fr_params::generator), mod(5 * R, r));
  /* root_of_unity = 5^t */
  const mpz_class tt = (r - 1) >> bn::fr_params::two_adicity;
  EXPECT_EQ(to_mpz(bn::fr_params::root_of_unity), mod(powm(5, tt, r) * R, r));
}

TEST(Bn254Constants, AteLoopNafIsSixXPlusTwo) {
  mpz_class v = 0;
  const std::size_t n = std::size(bn::ate_loop_naf);
  EXPECT_NE(bn::ate_loop_naf[0], 0);
  for (std::size_t i = 0; i < n; ++i) {
    const int d = bn::ate_loop_naf[i];
    EXPECT_TRUE(d == -1 || d == 0 || d == 1) << i;
    if (i + 1 < n) {
      EXPECT_TRUE(d == 0 || bn::ate_loop_naf[i + 1] == 0) << i;
    }
    v = 2 * v + d;
  }
  EXPECT_EQ(v, 6 * x + 2);
  EXPECT_EQ(n, 66u);
}

TEST(Bn254Constants, CurveCoefficients) {
  EXPECT_EQ(to_mpz(bn::b_mont), mont(3));
  /* b' = 3 / xi, i.e. b' xi = 3 (D-type twist) */
  EXPECT_EQ(mul(b2(), xi), (fp2{3, 0}));
  EXPECT_EQ(b2_mont(), mont(mul(fp2{3, 0}, inv(xi))));
  EXPECT_EQ(dec(b2().c0), "19485874751759354771024239261021720505790618469301721065564631296452457478373");
  EXPECT_EQ(dec(b2().c1), "266929791119991161246907387137283842545076965332900288569378510910307636690");
}

TEST(Bn254Constants, G1GeneratorIsOneTwoOnTheCurve) {
  const mpz_class gx = to_mpz(bn::g1_x), gy = to_mpz(bn::g1_y);
  EXPECT_EQ(gx, 1);
  EXPECT_EQ(gy, 2);
  /* y^2 = x^3 + 3 */
  EXPECT_EQ(mod(gy * gy - gx * gx * gx - 3, p), 0);
}

TEST(Bn254Constants, G2GeneratorIsOnTheTwistWithOrderR) {
  const g2_point g{{to_mpz(bn::g2_x0), to_mpz(bn::g2_x1)}, {to_mpz(bn::g2_y0), to_mpz(bn::g2_y1)}};
  for (const auto& c : {g.x.c0, g.x.c1, g.y.c0, g.y.c1}) EXPECT_LT(c, p);
  /* y^2 = x^3 + b' */
  EXPECT_EQ(mul(g.y, g.y), add(mul(mul(g.x, g.x), g.x), b2()));
  /* EIP-197's generator */
  EXPECT_EQ(dec(g.x.c0), "10857046999023057135944570762232829481370756359578518086990519993285655852781");
  EXPECT_EQ(dec(g.x.c1), "11559732032986387107991004021392285783925812861821192530917403151452391805634");
  EXPECT_EQ(dec(g.y.c0), "8495653923123431417604973247489272438418190587263600148770280649306958101930");
  EXPECT_EQ(dec(g.y.c1), "4082367875863433681332203403145435568316851327593401208105741076214120093531");
  /* [r] G2 = O, [r - 1] G2 = -G2 */
  EXPECT_TRUE(g2_mul(g, r).inf);
  const g2_point m = g2_mul(g, r - 1);
  EXPECT_FALSE(m.inf);
  EXPECT_EQ(m.x, g.x);
  EXPECT_EQ(m.y, sub(fp2{0, 0}, g.y));
}

TEST(Bn254Constants, G2CofactorTimesRIsTheTwistOrder) {
  const mpz_class h2 = to_mpz(bn::h2);
  /* #E'(Fp2) = (p + 1 - t)(p - 1 + t) */
  EXPECT_EQ(h2 * r, (p + 1 - t) * (p - 1 + t));
  EXPECT_EQ(h2, 2 * p - r);
}

TEST(Bn254Constants, FrobeniusGammaArePowersOfXi) {
  /* xi is neither a square nor a cube in Fp2: the tower is a field */
  const mpz_class q = p * p - 1;
  EXPECT_FALSE(pow(xi, q / 2) == (fp2{1, 0}));
  EXPECT_FALSE(pow(xi, q / 3) == (fp2{1, 0}));
  mpz_class pk = 1;
  for (int k = 1; k <= 3; ++k) {
    pk *= p;
    EXPECT_EQ(mod(pk - 1, 6), 0);
    for (int j = 1; j <= 5; ++j) {
      /* gamma[k][j] = xi^(j (p^k - 1) / 6) */
      const auto& g = bn::frobenius_gamma[k - 1][j - 1];
      const fp2 want = mont(pow(xi, j * (pk - 1) / 6));
      EXPECT_EQ(to_mpz(g.c0), want.c0) << "k = " << k << ", j = " << j;
      EXPECT_EQ(to_mpz(g.c1), want.c1) << "k = " << k << ", j = " << j;
      /* gamma[2][j] in Fp */
      if (k == 2) {
        EXPECT_EQ(to_mpz(g.c1), 0);
      }
    }
  }
}

}  // namespace
