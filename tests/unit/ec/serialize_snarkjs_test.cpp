// snarkjs layouts: LEM (Montgomery little-endian, .zkey points) and U
// (canonical big-endian). Values from ffjavascript itself are compared in
// noble_interop_test.cpp; here the layout rules and the errors.
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

/* the 48 bytes at off, read as six little-endian limbs */
ff::fp_params::limbs_t limbs_at(const bytes_t& b, std::size_t off) {
  ff::fp_params::limbs_t l;
  std::memcpy(l.data(), b.data() + off, 48);  // x86-64 is little-endian
  return l;
}

template <class T>
bytes_t vec(const T& a) { return {a.begin(), a.end()}; }

TEST(SnarkjsLem, G1IsXThenYAsMontgomeryLimbs) {
  auto g = cuzk::test::rng(51);
  for (int i = 0; i < 8; ++i) {
    auto p = test::g1::random_point(g).to_affine();
    bytes_t b = vec(snarkjs::encode_g1_lem(p));
    ASSERT_EQ(b.size(), snarkjs::g1_size);
    /* x R mod p: the Montgomery limbs, R = 2^384 (value checked below) */
    EXPECT_EQ(limbs_at(b, 0), p.x.l);
    EXPECT_EQ(limbs_at(b, 48), p.y.l);
    EXPECT_EQ(*snarkjs::decode_g1_lem(b, point_check::subgroup), p);
  }
}

TEST(SnarkjsLem, G2IsXc0Xc1Yc0Yc1AsMontgomeryLimbs) {
  auto g = cuzk::test::rng(52);
  for (int i = 0; i < 8; ++i) {
    auto p = test::g2::random_point(g).to_affine();
    bytes_t b = vec(snarkjs::encode_g2_lem(p));
    ASSERT_EQ(b.size(), snarkjs::g2_size);
    EXPECT_EQ(limbs_at(b, 0), p.x.c0.l);
    EXPECT_EQ(limbs_at(b, 48), p.x.c1.l);
    EXPECT_EQ(limbs_at(b, 96), p.y.c0.l);
    EXPECT_EQ(limbs_at(b, 144), p.y.c1.l);
    EXPECT_EQ(*snarkjs::decode_g2_lem(b, point_check::subgroup), p);
  }
}

TEST(SnarkjsLem, MontgomeryFormOfTheGeneratorIsXTimes2To384) {
  /* x R mod p computed without Montgomery multiplication: R mod p = r1, and
     x R = x * r1 as canonical values */
  fp_t r_mod_p = *fp_t::from_canonical(ff::fp_params::r1);
  fp_t x = g1_curve::generator().x;
  bytes_t b = vec(snarkjs::encode_g1_lem(g1_curve::generator()));
  EXPECT_EQ(limbs_at(b, 0), (x * r_mod_p).to_canonical());
}

TEST(SnarkjsLem, InfinityIsAllZeroBytes) {
  EXPECT_EQ(vec(snarkjs::encode_g1_lem({})), bytes_t(96, 0));
  EXPECT_EQ(vec(snarkjs::encode_g2_lem({})), bytes_t(192, 0));
  EXPECT_TRUE(snarkjs::decode_g1_lem(bytes_t(96, 0))->infinity);
  EXPECT_TRUE(snarkjs::decode_g2_lem(bytes_t(192, 0))->infinity);
}

TEST(SnarkjsLem, MalformedInputIsRefused) {
  auto g = cuzk::test::rng(53);
  auto p1 = test::g1::random_point(g).to_affine();
  auto p2 = test::g2::random_point(g).to_affine();
  bytes_t b1 = vec(snarkjs::encode_g1_lem(p1)), b2 = vec(snarkjs::encode_g2_lem(p2));

  EXPECT_EQ(snarkjs::decode_g1_lem(bytes_t(95, 0)).error(), decode_error::wrong_length);
  EXPECT_EQ(snarkjs::decode_g1_lem(b2).error(), decode_error::wrong_length);
  EXPECT_EQ(snarkjs::decode_g2_lem(b1).error(), decode_error::wrong_length);
  EXPECT_EQ(snarkjs::decode_g2_lem(bytes_t{}).error(), decode_error::wrong_length);

  bytes_t big = b1;  /* y limbs = p */
  std::memcpy(big.data() + 48, ff::fp_params::modulus.data(), 48);
  EXPECT_EQ(snarkjs::decode_g1_lem(big).error(), decode_error::non_canonical_coordinate);
  big = b2;          /* x.c1 limbs all ones */
  std::memset(big.data() + 48, 0xff, 48);
  EXPECT_EQ(snarkjs::decode_g2_lem(big).error(), decode_error::non_canonical_coordinate);

  bytes_t off = b1;
  off[50] ^= 1;
  EXPECT_EQ(snarkjs::decode_g1_lem(off).error(), decode_error::not_on_curve);
  EXPECT_TRUE(snarkjs::decode_g1_lem(off, point_check::none).has_value());
  off = b2;
  off[100] ^= 1;
  EXPECT_EQ(snarkjs::decode_g2_lem(off).error(), decode_error::not_on_curve);

  auto q1 = test::g1::random_curve_point(g);
  auto q2 = test::g2::random_curve_point(g);
  EXPECT_EQ(snarkjs::decode_g1_lem(vec(snarkjs::encode_g1_lem(q1)), point_check::subgroup).error(),
            decode_error::not_in_subgroup);
  EXPECT_EQ(snarkjs::decode_g2_lem(vec(snarkjs::encode_g2_lem(q2)), point_check::subgroup).error(),
            decode_error::not_in_subgroup);
  EXPECT_EQ(*snarkjs::decode_g1_lem(vec(snarkjs::encode_g1_lem(q1))), q1);  // default: on_curve only
}

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

TEST(SnarkjsU, MalformedInputIsRefused) {
  auto g = cuzk::test::rng(55);
  bytes_t b = vec(snarkjs::encode_g1_u(test::g1::random_point(g).to_affine()));
  EXPECT_EQ(snarkjs::decode_g1_u(bytes_t(97, 0)).error(), decode_error::wrong_length);
  bytes_t inf(96, 0);
  inf[0] = 0x40;
  inf[70] = 1;
  EXPECT_EQ(snarkjs::decode_g1_u(inf).error(), decode_error::non_canonical_infinity);
  bytes_t flagged = b;
  flagged[0] |= 0x80;
  EXPECT_EQ(snarkjs::decode_g1_u(flagged).error(), decode_error::bad_flags);
  flagged = b;
  flagged[0] |= 0x20;
  EXPECT_EQ(snarkjs::decode_g1_u(flagged).error(), decode_error::bad_flags);
  bytes_t big = b;
  big[0] = 0x1f;
  EXPECT_EQ(snarkjs::decode_g1_u(big).error(), decode_error::non_canonical_coordinate);
  bytes_t off = b;
  off[95] ^= 1;
  EXPECT_EQ(snarkjs::decode_g1_u(off).error(), decode_error::not_on_curve);
  auto q = test::g2::random_curve_point(g);
  EXPECT_EQ(snarkjs::decode_g2_u(vec(snarkjs::encode_g2_u(q)), point_check::subgroup).error(),
            decode_error::not_in_subgroup);
}

}  // namespace
}  // namespace cuzk::ec
