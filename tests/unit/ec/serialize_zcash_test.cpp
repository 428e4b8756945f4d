// zcash / IETF point encodings: the standard generator strings, round trips,
// and every kind of malformed input refused with the right error.
#include <gtest/gtest.h>

#include <vector>

#include "ec/serialize_zcash.hpp"
#include "ec_test_util.hpp"
#include "seed.hpp"

namespace cuzk::ec {
namespace {

using bytes_t = std::vector<std::uint8_t>;
using test::from_hex;
using test::to_hex;

/* draft-irtf-cfrg-pairing-friendly-curves-11 §4.2.1 and zkcrypto bls12_381's
   serialization tests: the generators' encodings */
const char* kG1Compressed =
    "97f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
const char* kG1Uncompressed =
    "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb"
    "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1";
const char* kG2Compressed =
    "93e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";
const char* kG2Uncompressed =
    "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e"
    "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8"
    "0606c4a02ea734cc32acd2b02bc28b99cb3e287e85a763af267492ab572e99ab3f370d275cec1da1aaa9075ff05f79be"
    "0ce5d527727d6e118cc9cdc6da2e351aadfd9baa8cbdd3a76d429a695160d12c923ac9cc3baca289e193548608b82801";

/* G1 and G2 behind one interface, for typed tests */
struct g1_codec : test::g1 {
  static constexpr std::size_t csize = zcash::g1_compressed_size, usize = zcash::g1_uncompressed_size;
  static bytes_t compress(const aff_t& p) {
    auto a = zcash::encode_g1_compressed(p);
    return {a.begin(), a.end()};
  }
  static bytes_t uncompress(const aff_t& p) {
    auto a = zcash::encode_g1_uncompressed(p);
    return {a.begin(), a.end()};
  }
  static decode_result<aff_t> dc(const bytes_t& b, point_check c = point_check::subgroup) {
    return zcash::decode_g1_compressed(b, c);
  }
  static decode_result<aff_t> du(const bytes_t& b, point_check c = point_check::subgroup) {
    return zcash::decode_g1_uncompressed(b, c);
  }
  static decode_result<aff_t> any(const bytes_t& b) { return zcash::decode_g1(b); }
};
struct g2_codec : test::g2 {
  static constexpr std::size_t csize = zcash::g2_compressed_size, usize = zcash::g2_uncompressed_size;
  static bytes_t compress(const aff_t& p) {
    auto a = zcash::encode_g2_compressed(p);
    return {a.begin(), a.end()};
  }
  static bytes_t uncompress(const aff_t& p) {
    auto a = zcash::encode_g2_uncompressed(p);
    return {a.begin(), a.end()};
  }
  static decode_result<aff_t> dc(const bytes_t& b, point_check c = point_check::subgroup) {
    return zcash::decode_g2_compressed(b, c);
  }
  static decode_result<aff_t> du(const bytes_t& b, point_check c = point_check::subgroup) {
    return zcash::decode_g2_uncompressed(b, c);
  }
  static decode_result<aff_t> any(const bytes_t& b) { return zcash::decode_g2(b); }
};

template <class T>
::testing::AssertionResult fails_with(const decode_result<T>& r, decode_error e) {
  if (r.has_value()) return ::testing::AssertionFailure() << "decoded, expected " << to_string(e);
  if (r.error() != e) return ::testing::AssertionFailure() << to_string(r.error()) << ", expected " << to_string(e);
  return ::testing::AssertionSuccess();
}

TEST(ZcashEncoding, GeneratorsEncodeToTheStandardStrings) {
  EXPECT_EQ(to_hex(zcash::encode_g1_compressed(g1_curve::generator())), kG1Compressed);
  EXPECT_EQ(to_hex(zcash::encode_g1_uncompressed(g1_curve::generator())), kG1Uncompressed);
  EXPECT_EQ(to_hex(zcash::encode_g2_compressed(g2_curve::generator())), kG2Compressed);
  EXPECT_EQ(to_hex(zcash::encode_g2_uncompressed(g2_curve::generator())), kG2Uncompressed);
  EXPECT_EQ(*zcash::decode_g1(from_hex(kG1Compressed)), g1_curve::generator());
  EXPECT_EQ(*zcash::decode_g1(from_hex(kG1Uncompressed)), g1_curve::generator());
  EXPECT_EQ(*zcash::decode_g2(from_hex(kG2Compressed)), g2_curve::generator());
  EXPECT_EQ(*zcash::decode_g2(from_hex(kG2Uncompressed)), g2_curve::generator());
}

template <class C>
class Zcash : public cuzk::test::group_test<C, 3> {
 protected:
  typename C::aff_t point() { return C::random_point(this->rng).to_affine(); }
};
using Codecs = ::testing::Types<g1_codec, g2_codec>;
TYPED_TEST_SUITE(Zcash, Codecs);

TYPED_TEST(Zcash, RandomPointsRoundTrip) {
  for (int i = 0; i < 8; ++i) {
    auto p = this->point();
    bytes_t c = TypeParam::compress(p), u = TypeParam::uncompress(p);
    ASSERT_EQ(c.size(), TypeParam::csize);
    ASSERT_EQ(u.size(), TypeParam::usize);
    EXPECT_EQ(*TypeParam::dc(c), p);
    EXPECT_EQ(*TypeParam::du(u), p);
    EXPECT_EQ(*TypeParam::any(c), p);
    EXPECT_EQ(*TypeParam::any(u), p);
    /* -P differs only in the sign flag */
    bytes_t cn = TypeParam::compress(-p);
    EXPECT_EQ(cn[0] ^ c[0], zcash::flag_sign);
    EXPECT_TRUE(std::equal(c.begin() + 1, c.end(), cn.begin() + 1));
    EXPECT_EQ(*TypeParam::dc(cn), -p);
  }
}

TYPED_TEST(Zcash, InfinityHasItsCanonicalEncodings) {
  bytes_t c = TypeParam::compress({}), u = TypeParam::uncompress({});
  EXPECT_EQ(c[0], 0xc0);
  EXPECT_EQ(u[0], 0x40);
  EXPECT_TRUE(std::all_of(c.begin() + 1, c.end(), [](auto v) { return v == 0; }));
  EXPECT_TRUE(std::all_of(u.begin() + 1, u.end(), [](auto v) { return v == 0; }));
  EXPECT_TRUE(TypeParam::dc(c)->infinity);
  EXPECT_TRUE(TypeParam::du(u)->infinity);
}

TYPED_TEST(Zcash, EveryFlagCombinationIsJudgedByTheSpec) {
  auto p = this->point();
  bytes_t c = TypeParam::compress(p), u = TypeParam::uncompress(p);
  const std::uint8_t sign = c[0] & zcash::flag_sign;
  for (std::uint8_t f = 0; f < 8; ++f) {
    const std::uint8_t flags = std::uint8_t(f << 5);
    const bool C = flags & 0x80, I = flags & 0x40, S = flags & 0x20;
    bytes_t cc = c, uu = u;
    cc[0] = std::uint8_t((cc[0] & 0x1f) | flags);
    uu[0] = std::uint8_t((uu[0] & 0x1f) | flags);
    auto rc = TypeParam::dc(cc);
    if (!C || (I && S))
      EXPECT_TRUE(fails_with(rc, decode_error::bad_flags)) << int(flags);
    else if (I)
      EXPECT_TRUE(fails_with(rc, decode_error::non_canonical_infinity)) << int(flags);
    else
      EXPECT_EQ(*rc, (S == bool(sign)) ? p : -p) << int(flags);
    auto ru = TypeParam::du(uu);
    if (C || S)
      EXPECT_TRUE(fails_with(ru, decode_error::bad_flags)) << int(flags);
    else if (I)
      EXPECT_TRUE(fails_with(ru, decode_error::non_canonical_infinity)) << int(flags);
    else
      EXPECT_EQ(*ru, p) << int(flags);
  }
}

TYPED_TEST(Zcash, InfinityWithAnyOtherBitSetIsRefused) {
  bytes_t c = TypeParam::compress({}), u = TypeParam::uncompress({});
  for (std::size_t pos : {std::size_t(0), std::size_t(1), c.size() / 2, c.size() - 1}) {
    bytes_t cc = c;
    cc[pos] |= 0x01;
    EXPECT_TRUE(fails_with(TypeParam::dc(cc), decode_error::non_canonical_infinity)) << pos;
    bytes_t uu = u;
    uu[pos] |= 0x10;
    EXPECT_TRUE(fails_with(TypeParam::du(uu), decode_error::non_canonical_infinity)) << pos;
  }
  bytes_t uu = u;
  uu.back() = 1;
  EXPECT_TRUE(fails_with(TypeParam::du(uu), decode_error::non_canonical_infinity));
  c[0] |= zcash::flag_sign;
  EXPECT_TRUE(fails_with(TypeParam::dc(c), decode_error::bad_flags));
}

TYPED_TEST(Zcash, CoordinatesNotBelowPAreRefused) {
  const auto p_be = fp_t::params::modulus;  // p as limbs
  bytes_t pb(48);
  for (std::size_t i = 0; i < 48; ++i) pb[47 - i] = std::uint8_t(p_be[i / 8] >> (8 * (i % 8)));
  auto pt = this->point();
  /* x (or its first Fp word) replaced by p, by p + 1, and by 2^381 - 1 */
  for (int variant = 0; variant < 3; ++variant) {
    bytes_t big = pb;
    if (variant == 1) big[47] += 1;
    if (variant == 2) {
      std::fill(big.begin(), big.end(), 0xff);
      big[0] = 0x1f;
    }
    bytes_t c = TypeParam::compress(pt);
    std::copy(big.begin(), big.end(), c.begin());
    c[0] |= zcash::flag_compressed;
    EXPECT_TRUE(fails_with(TypeParam::dc(c), decode_error::non_canonical_coordinate)) << variant;
    bytes_t u = TypeParam::uncompress(pt);
    std::copy(big.begin(), big.end(), u.end() - 48);  // the last Fp word of y
    EXPECT_TRUE(fails_with(TypeParam::du(u), decode_error::non_canonical_coordinate)) << variant;
  }
}

TYPED_TEST(Zcash, PointsOffTheCurveAreRefused) {
  using field_t = typename TypeParam::field_t;
  /* compressed: an x with x^3 + b not a square has no point */
  for (;;) {
    field_t x = test::random_field<field_t>(this->rng);
    if ((x.sqr() * x + TypeParam::curve_t::b()).legendre() != -1) continue;
    typename TypeParam::aff_t fake{x, field_t::one(), false};
    EXPECT_TRUE(fails_with(TypeParam::dc(TypeParam::compress(fake)), decode_error::not_on_curve));
    break;
  }
  /* uncompressed: a valid x with a wrong y */
  auto p = this->point();
  p.y = p.y + field_t::one();
  EXPECT_TRUE(fails_with(TypeParam::du(TypeParam::uncompress(p)), decode_error::not_on_curve));
  EXPECT_TRUE(fails_with(TypeParam::du(TypeParam::uncompress(p), point_check::on_curve), decode_error::not_on_curve));
  EXPECT_TRUE(TypeParam::du(TypeParam::uncompress(p), point_check::none).has_value());
}

TYPED_TEST(Zcash, CurvePointsOutsideTheSubgroupAreRefused) {
  for (int i = 0; i < 4; ++i) {
    auto p = TypeParam::random_curve_point(this->rng);
    bytes_t c = TypeParam::compress(p), u = TypeParam::uncompress(p);
    EXPECT_TRUE(fails_with(TypeParam::dc(c), decode_error::not_in_subgroup));
    EXPECT_TRUE(fails_with(TypeParam::du(u), decode_error::not_in_subgroup));
    EXPECT_EQ(*TypeParam::dc(c, point_check::on_curve), p);
    EXPECT_EQ(*TypeParam::du(u, point_check::on_curve), p);
  }
}

TYPED_TEST(Zcash, WrongLengthsAreRefused) {
  auto p = this->point();
  bytes_t c = TypeParam::compress(p), u = TypeParam::uncompress(p);
  for (std::size_t n :
       {std::size_t(0), std::size_t(1), c.size() - 1, c.size() + 1, u.size() - 1, u.size() + 1, 2 * u.size()}) {
    bytes_t b(n, 0);
    std::copy_n(u.begin(), std::min(n, u.size()), b.begin());
    EXPECT_TRUE(fails_with(TypeParam::any(b), decode_error::wrong_length)) << n;
    if (n != c.size()) {
      if (n > 0) b[0] |= zcash::flag_compressed;
      EXPECT_TRUE(fails_with(TypeParam::dc(b), decode_error::wrong_length)) << n;
    }
    if (n != u.size()) {
      EXPECT_TRUE(fails_with(TypeParam::du(b), decode_error::wrong_length)) << n;
    }
  }
  EXPECT_TRUE(fails_with(TypeParam::dc(u), decode_error::wrong_length));
  EXPECT_TRUE(fails_with(TypeParam::du(c), decode_error::wrong_length));
}

TYPED_TEST(Zcash, RandomBytesNeverCrashAndNeverYieldAnInvalidPoint) {
  auto p = this->point();
  bytes_t c = TypeParam::compress(p), u = TypeParam::uncompress(p);
  int decoded = 0;
  for (int i = 0; i < 300; ++i) {
    bytes_t b = (i % 2) ? c : u;
    if (i % 3 == 0) {
      for (auto& v : b) v = std::uint8_t(this->rng());  // random bytes
    } else {
      b[this->rng() % b.size()] ^= std::uint8_t(1u << (this->rng() % 8));  // one flipped bit
    }
    for (auto r : {TypeParam::dc(b), TypeParam::du(b), TypeParam::any(b)}) {
      if (!r) continue;
      ++decoded;
      EXPECT_TRUE(is_on_curve(*r));
      EXPECT_TRUE(in_subgroup_by_order(TypeParam::jac_t::from_affine(*r)));
    }
  }
  this->RecordProperty("decoded", decoded);
}

}  // namespace
}  // namespace cuzk::ec
