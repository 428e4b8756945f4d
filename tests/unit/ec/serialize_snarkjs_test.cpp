// snarkjs layouts, for BLS12-381 (ffjavascript's bls12381) and BN254 (bn128):
// LEM (Montgomery little-endian, .zkey points) and U (canonical big-endian).
// Values from ffjavascript itself are compared in noble_interop_test.cpp; here
// the layout rules and the errors. U against the zcash encoding is BLS12-381
// only (zcash defines no BN254 encoding).
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "ec/serialize_snarkjs.hpp"
#include "ec/serialize_zcash.hpp"
#include "ec_test_util.hpp"
#include "seed.hpp"

namespace cuzk::ec {
namespace {

using bytes_t = std::vector<std::uint8_t>;

template <class T>
bytes_t vec(const T& a) {
  return {a.begin(), a.end()};
}

template <class C>
class Snarkjs : public cuzk::test::curve_test<C, 50> {
 protected:
  using G1 = test::g1_of<C>;
  using G2 = test::g2_of<C>;
  using fp = ff::fp<C>;
  using fp2 = ff::fp2<C>;
  using limbs_t = typename fp::limbs_t;
  static constexpr std::size_t n = fp::n_bytes;                     // one Fp coordinate: 48 or 32
  static constexpr std::size_t g1_size = snarkjs::point_size<fp>;   // 96 or 64
  static constexpr std::size_t g2_size = snarkjs::point_size<fp2>;  // 192 or 128

  /* the n bytes at off, read as little-endian limbs */
  static limbs_t limbs_at(const bytes_t& b, std::size_t off) {
    limbs_t l;
    std::memcpy(l.data(), b.data() + off, n);  // x86-64 is little-endian
    return l;
  }
  static bytes_t be(const fp& a) { return vec(a.to_bytes_be()); }
  static bytes_t at(const bytes_t& b, std::size_t off) { return {b.begin() + off, b.begin() + off + n}; }

  static decode_result<typename G1::aff_t> g1_lem(const bytes_t& b, point_check c = point_check::on_curve) {
    return snarkjs::decode_lem<fp>(b, c);
  }
  static decode_result<typename G2::aff_t> g2_lem(const bytes_t& b, point_check c = point_check::on_curve) {
    return snarkjs::decode_lem<fp2>(b, c);
  }
  static decode_result<typename G1::aff_t> g1_u(const bytes_t& b, point_check c = point_check::on_curve) {
    return snarkjs::decode_u<fp>(b, c);
  }
  static decode_result<typename G2::aff_t> g2_u(const bytes_t& b, point_check c = point_check::on_curve) {
    return snarkjs::decode_u<fp2>(b, c);
  }
};
TYPED_TEST_SUITE(Snarkjs, test::both_curves, test::curve_names);

TYPED_TEST(Snarkjs, SizesAreTwoOrFourCoordinates) {
  constexpr std::size_t n = TestFixture::n;
  EXPECT_EQ(n, test::is_bn254<TypeParam> ? 32u : 48u);
  EXPECT_EQ(TestFixture::g1_size, 2 * n);
  EXPECT_EQ(TestFixture::g2_size, 4 * n);
  if constexpr (!test::is_bn254<TypeParam>) {
    EXPECT_EQ(snarkjs::g1_size, TestFixture::g1_size);
    EXPECT_EQ(snarkjs::g2_size, TestFixture::g2_size);
  }
}

TYPED_TEST(Snarkjs, LemG1IsXThenYAsMontgomeryLimbs) {
  using F = TestFixture;
  for (int i = 0; i < 8; ++i) {
    auto p = F::G1::random_point(this->rng).to_affine();
    bytes_t b = vec(snarkjs::encode_lem(p));
    ASSERT_EQ(b.size(), F::g1_size);
    /* x R mod p: the Montgomery limbs (value checked below) */
    EXPECT_EQ(F::limbs_at(b, 0), p.x.l);
    EXPECT_EQ(F::limbs_at(b, F::n), p.y.l);
    EXPECT_EQ(*F::g1_lem(b, point_check::subgroup), p);
    if constexpr (!test::is_bn254<TypeParam>) {  // the BLS12-381 names
      EXPECT_EQ(vec(snarkjs::encode_g1_lem(p)), b);
      EXPECT_EQ(*snarkjs::decode_g1_lem(b, point_check::subgroup), p);
    }
  }
}

TYPED_TEST(Snarkjs, LemG2IsXc0Xc1Yc0Yc1AsMontgomeryLimbs) {
  using F = TestFixture;
  for (int i = 0; i < 8; ++i) {
    auto p = F::G2::random_point(this->rng).to_affine();
    bytes_t b = vec(snarkjs::encode_lem(p));
    ASSERT_EQ(b.size(), F::g2_size);
    EXPECT_EQ(F::limbs_at(b, 0), p.x.c0.l);
    EXPECT_EQ(F::limbs_at(b, F::n), p.x.c1.l);
    EXPECT_EQ(F::limbs_at(b, 2 * F::n), p.y.c0.l);
    EXPECT_EQ(F::limbs_at(b, 3 * F::n), p.y.c1.l);
    EXPECT_EQ(*F::g2_lem(b, point_check::subgroup), p);
    if constexpr (!test::is_bn254<TypeParam>) {
      EXPECT_EQ(vec(snarkjs::encode_g2_lem(p)), b);
      EXPECT_EQ(*snarkjs::decode_g2_lem(b, point_check::subgroup), p);
    }
  }
}

/* x R mod p computed without Montgomery multiplication: R mod p = r1 (R =
   2^384 on BLS12-381, 2^256 on BN254), and x R = x * r1 as canonical values */
TYPED_TEST(Snarkjs, LemOfTheGeneratorIsXTimesR) {
  using F = TestFixture;
  using fp = typename F::fp;
  fp r_mod_p = *fp::from_canonical(TypeParam::fp_params::r1);
  const auto& gen = g1_group<TypeParam>::generator();
  bytes_t b = vec(snarkjs::encode_lem(gen));
  EXPECT_EQ(F::limbs_at(b, 0), (gen.x * r_mod_p).to_canonical());
  EXPECT_EQ(F::limbs_at(b, F::n), (gen.y * r_mod_p).to_canonical());
  const auto& gen2 = g2_group<TypeParam>::generator();
  bytes_t b2 = vec(snarkjs::encode_lem(gen2));
  EXPECT_EQ(F::limbs_at(b2, F::n), (gen2.x.c1 * r_mod_p).to_canonical());
}

TYPED_TEST(Snarkjs, LemInfinityIsAllZeroBytes) {
  using F = TestFixture;
  EXPECT_EQ(vec(snarkjs::encode_lem(typename F::G1::aff_t{})), bytes_t(F::g1_size, 0));
  EXPECT_EQ(vec(snarkjs::encode_lem(typename F::G2::aff_t{})), bytes_t(F::g2_size, 0));
  EXPECT_TRUE(F::g1_lem(bytes_t(F::g1_size, 0))->infinity);
  EXPECT_TRUE(F::g2_lem(bytes_t(F::g2_size, 0))->infinity);
  EXPECT_TRUE(F::g1_lem(bytes_t(F::g1_size, 0), point_check::subgroup)->infinity);
  EXPECT_TRUE(F::g2_lem(bytes_t(F::g2_size, 0), point_check::subgroup)->infinity);
}

TYPED_TEST(Snarkjs, LemMalformedInputIsRefused) {
  using F = TestFixture;
  constexpr std::size_t n = F::n;
  auto p1 = F::G1::random_point(this->rng).to_affine();
  auto p2 = F::G2::random_point(this->rng).to_affine();
  bytes_t b1 = vec(snarkjs::encode_lem(p1)), b2 = vec(snarkjs::encode_lem(p2));

  EXPECT_EQ(F::g1_lem(bytes_t(F::g1_size - 1, 0)).error(), decode_error::wrong_length);
  EXPECT_EQ(F::g1_lem(b2).error(), decode_error::wrong_length);
  EXPECT_EQ(F::g2_lem(b1).error(), decode_error::wrong_length);
  EXPECT_EQ(F::g2_lem(bytes_t{}).error(), decode_error::wrong_length);
  /* the other curve's sizes */
  EXPECT_EQ(F::g1_lem(bytes_t(test::is_bn254<TypeParam> ? 96 : 64, 0)).error(), decode_error::wrong_length);
  EXPECT_EQ(F::g2_lem(bytes_t(test::is_bn254<TypeParam> ? 192 : 128, 0)).error(), decode_error::wrong_length);

  bytes_t big = b1; /* y limbs = p */
  std::memcpy(big.data() + n, TypeParam::fp_params::modulus.data(), n);
  EXPECT_EQ(F::g1_lem(big).error(), decode_error::non_canonical_coordinate);
  EXPECT_EQ(F::g1_lem(big, point_check::none).error(), decode_error::non_canonical_coordinate);
  big = b2; /* x.c1 limbs all ones */
  std::memset(big.data() + n, 0xff, n);
  EXPECT_EQ(F::g2_lem(big).error(), decode_error::non_canonical_coordinate);
  big = b2; /* y.c1 limbs = p */
  std::memcpy(big.data() + 3 * n, TypeParam::fp_params::modulus.data(), n);
  EXPECT_EQ(F::g2_lem(big).error(), decode_error::non_canonical_coordinate);

  bytes_t off = b1;
  off[n + 2] ^= 1;
  EXPECT_EQ(F::g1_lem(off).error(), decode_error::not_on_curve);
  EXPECT_TRUE(F::g1_lem(off, point_check::none).has_value());
  off = b2;
  off[2 * n + 4] ^= 1;
  EXPECT_EQ(F::g2_lem(off).error(), decode_error::not_on_curve);
  EXPECT_TRUE(F::g2_lem(off, point_check::none).has_value());

  auto q1 = F::G1::random_curve_point(this->rng);
  auto q2 = F::G2::random_curve_point(this->rng);
  if constexpr (F::G1::has_cofactor) {
    EXPECT_EQ(F::g1_lem(vec(snarkjs::encode_lem(q1)), point_check::subgroup).error(), decode_error::not_in_subgroup);
  } else {  // BN254: every point of E(Fp) is in G1
    EXPECT_EQ(*F::g1_lem(vec(snarkjs::encode_lem(q1)), point_check::subgroup), q1);
  }
  EXPECT_EQ(F::g2_lem(vec(snarkjs::encode_lem(q2)), point_check::subgroup).error(), decode_error::not_in_subgroup);
  EXPECT_EQ(*F::g1_lem(vec(snarkjs::encode_lem(q1))), q1);  // default: on_curve only
  EXPECT_EQ(*F::g2_lem(vec(snarkjs::encode_lem(q2))), q2);
}

/* U: canonical big-endian coordinates, Fp2 as c1 || c0, infinity all zero */
TYPED_TEST(Snarkjs, UIsCanonicalBigEndianWithC1First) {
  using F = TestFixture;
  constexpr std::size_t n = F::n;
  for (int i = 0; i < 8; ++i) {
    auto p1 = F::G1::random_point(this->rng).to_affine();
    auto p2 = F::G2::random_point(this->rng).to_affine();
    bytes_t b1 = vec(snarkjs::encode_u(p1)), b2 = vec(snarkjs::encode_u(p2));
    ASSERT_EQ(b1.size(), F::g1_size);
    ASSERT_EQ(b2.size(), F::g2_size);
    EXPECT_EQ(F::at(b1, 0), F::be(p1.x));
    EXPECT_EQ(F::at(b1, n), F::be(p1.y));
    EXPECT_EQ(F::at(b2, 0), F::be(p2.x.c1));
    EXPECT_EQ(F::at(b2, n), F::be(p2.x.c0));
    EXPECT_EQ(F::at(b2, 2 * n), F::be(p2.y.c1));
    EXPECT_EQ(F::at(b2, 3 * n), F::be(p2.y.c0));
    auto d1 = F::g1_u(b1, point_check::subgroup);
    auto d2 = F::g2_u(b2, point_check::subgroup);
    ASSERT_TRUE(d1.has_value()) << to_string(d1.error()) << " " << test::to_hex(b1);
    ASSERT_TRUE(d2.has_value()) << to_string(d2.error()) << " " << test::to_hex(b2);
    EXPECT_EQ(*d1, p1);
    EXPECT_EQ(*d2, p2);
  }
  EXPECT_EQ(vec(snarkjs::encode_u(typename F::G1::aff_t{})), bytes_t(F::g1_size, 0));
  EXPECT_EQ(vec(snarkjs::encode_u(typename F::G2::aff_t{})), bytes_t(F::g2_size, 0));
  /* read back: all zeros, or the 0x40 flag (UtoLEM's infinity) */
  EXPECT_TRUE(F::g1_u(bytes_t(F::g1_size, 0))->infinity);
  EXPECT_TRUE(F::g2_u(bytes_t(F::g2_size, 0))->infinity);
  bytes_t flagged(F::g1_size, 0);
  flagged[0] = 0x40;
  EXPECT_TRUE(F::g1_u(flagged)->infinity);
  flagged.assign(F::g2_size, 0);
  flagged[0] = 0x40;
  EXPECT_TRUE(F::g2_u(flagged)->infinity);
}

/* On BN254 p > 2^253, so the top byte of a coordinate can hold 0x20 (and
   0x10): ffjavascript's UtoLEM only looks at 0x40 (infinity). A point whose
   first coordinate is >= 2^253 must round trip. BLS12-381's p < 2^381 leaves
   the three top bits free (zcash's flags). */
TYPED_TEST(Snarkjs, UCoordinatesUpToPRoundTrip) {
  using F = TestFixture;
  constexpr std::size_t n = F::n;
  const bool top_bits_used = ff::limbs::bit_length(TypeParam::fp_params::modulus) > 8 * n - 3;
  EXPECT_EQ(top_bits_used, test::is_bn254<TypeParam>);
  if (!top_bits_used) return;
  /* points whose big-endian first byte has 0x20 set: about a third of them */
  int found1 = 0, found2 = 0;
  for (int i = 0; i < 200 && (found1 < 2 || found2 < 2); ++i) {
    auto p1 = F::G1::random_point(this->rng).to_affine();
    bytes_t b1 = vec(snarkjs::encode_u(p1));
    if ((b1[0] & 0x20) && found1 < 2) {
      ++found1;
      auto d = F::g1_u(b1, point_check::subgroup);
      EXPECT_TRUE(d.has_value()) << "G1 U " << test::to_hex(b1) << ": " << to_string(d.error());
      if (d) {
        EXPECT_EQ(*d, p1);
      }
    }
    auto p2 = F::G2::random_point(this->rng).to_affine();
    bytes_t b2 = vec(snarkjs::encode_u(p2));
    if ((b2[0] & 0x20) && found2 < 2) {
      ++found2;
      auto d = F::g2_u(b2, point_check::subgroup);
      EXPECT_TRUE(d.has_value()) << "G2 U " << test::to_hex(b2) << ": " << to_string(d.error());
      if (d) {
        EXPECT_EQ(*d, p2);
      }
    }
  }
  EXPECT_EQ(found1, 2);
  EXPECT_EQ(found2, 2);
}

TYPED_TEST(Snarkjs, UMalformedInputIsRefused) {
  using F = TestFixture;
  constexpr std::size_t n = F::n;
  /* a point whose x has a clear 0x20 bit (always on BLS12-381) */
  bytes_t b;
  for (int i = 0; i < 100; ++i) {
    b = vec(snarkjs::encode_u(F::G1::random_point(this->rng).to_affine()));
    if (!(b[0] & 0x20)) break;
  }
  ASSERT_FALSE(b[0] & 0x20);
  EXPECT_EQ(F::g1_u(bytes_t(F::g1_size + 1, 0)).error(), decode_error::wrong_length);
  EXPECT_EQ(F::g2_u(bytes_t(F::g1_size, 0)).error(), decode_error::wrong_length);
  bytes_t inf(F::g1_size, 0);
  inf[0] = 0x40;
  inf[F::g1_size - 26] = 1;
  EXPECT_EQ(F::g1_u(inf).error(), decode_error::non_canonical_infinity);
  inf.assign(F::g1_size, 0);
  inf[0] = 0x41;
  EXPECT_EQ(F::g1_u(inf).error(), decode_error::non_canonical_infinity);
  bytes_t flagged = b;
  flagged[0] |= 0x80;
  EXPECT_EQ(F::g1_u(flagged).error(), decode_error::bad_flags);
  flagged = b;
  flagged[0] |= 0x20;
  if constexpr (test::is_bn254<TypeParam>) {
    /* a value bit on BN254: x + 2^253, either >= p or another x, off the curve */
    auto d = F::g1_u(flagged);
    ASSERT_FALSE(d.has_value());
    EXPECT_TRUE(d.error() == decode_error::non_canonical_coordinate || d.error() == decode_error::not_on_curve)
        << to_string(d.error());
  } else {
    EXPECT_EQ(F::g1_u(flagged).error(), decode_error::bad_flags);  // zcash's sign flag
  }
  bytes_t big = b; /* x = p, big-endian */
  const auto& m = TypeParam::fp_params::modulus;
  for (std::size_t i = 0; i < n; ++i) big[n - 1 - i] = std::uint8_t(m[i / 8] >> (8 * (i % 8)));
  EXPECT_EQ(F::g1_u(big).error(), decode_error::non_canonical_coordinate);
  if constexpr (!test::is_bn254<TypeParam>) {
    big = b;
    big[0] = 0x1f;  // above BLS12-381's 0x1a, no flag bit
    EXPECT_EQ(F::g1_u(big).error(), decode_error::non_canonical_coordinate);
  }
  bytes_t off = b;
  off[F::g1_size - 1] ^= 1;
  EXPECT_EQ(F::g1_u(off).error(), decode_error::not_on_curve);
  EXPECT_TRUE(F::g1_u(off, point_check::none).has_value());
  auto q = F::G2::random_curve_point(this->rng);
  bytes_t bq = vec(snarkjs::encode_u(q));
  auto dq = F::g2_u(bq, point_check::subgroup);
  ASSERT_FALSE(dq.has_value());
  EXPECT_EQ(dq.error(), decode_error::not_in_subgroup) << to_string(dq.error()) << " " << test::to_hex(bq);
  dq = F::g2_u(bq);  // default: on_curve only
  ASSERT_TRUE(dq.has_value()) << to_string(dq.error()) << " " << test::to_hex(bq);
  EXPECT_EQ(*dq, q);
}

/* ---- BLS12-381: U is the zcash uncompressed layout without flags ---- */

TEST(SnarkjsU, IsTheZcashUncompressedLayoutWithZeroInfinity) {
  auto g = cuzk::test::rng(54);
  for (int i = 0; i < 4; ++i) {
    auto p1 = test::g1::random_point(g).to_affine();
    auto p2 = test::g2::random_point(g).to_affine();
    EXPECT_EQ(vec(snarkjs::encode_g1_u(p1)), vec(zcash::encode_g1_uncompressed(p1)));
    EXPECT_EQ(vec(snarkjs::encode_g2_u(p2)), vec(zcash::encode_g2_uncompressed(p2)));
    EXPECT_EQ(*snarkjs::decode_g1_u(vec(snarkjs::encode_g1_u(p1))), p1);
    EXPECT_EQ(*snarkjs::decode_g2_u(vec(snarkjs::encode_g2_u(p2))), p2);
  }
  EXPECT_EQ(vec(snarkjs::encode_g1_u({})), bytes_t(96, 0));
  EXPECT_EQ(vec(snarkjs::encode_g2_u({})), bytes_t(192, 0));
  /* read back: all zeros, or the 0x40 flag (bellman's infinity) */
  EXPECT_TRUE(snarkjs::decode_g1_u(bytes_t(96, 0))->infinity);
  EXPECT_TRUE(snarkjs::decode_g1_u(vec(zcash::encode_g1_uncompressed({})))->infinity);
  EXPECT_TRUE(snarkjs::decode_g2_u(vec(zcash::encode_g2_uncompressed({})))->infinity);
}

}  // namespace
}  // namespace cuzk::ec
