// The MSMs over a key's bases in place (ec::packed_affine: x ‖ y, the point at
// infinity as zeros, as a .zkey holds them) against the same points decoded,
// in G1 and G2 of every curve: full-width scalars through Pippenger, a
// witness's split, and the sum of the ones; some bases at infinity.
#include <gtest/gtest.h>

#include <cstring>
#include <vector>

#include "msm/split.hpp"
#include "msm_test_util.hpp"

namespace cuzk::msm {
namespace {

template <class G>
class PackedBases : public test::group_test<G, 701> {
 protected:
  using packed_t = typename G::packed_t;
  /* random bases, every seventh at infinity */
  std::vector<typename G::aff_t> bases(std::size_t n) {
    auto b = G::random_bases(this->rng, n);
    for (std::size_t i = 3; i < n; i += 7) b[i] = {};
    return b;
  }
  static std::vector<packed_t> packed(const std::vector<typename G::aff_t>& b) {
    std::vector<packed_t> out(b.size());
    for (std::size_t i = 0; i < b.size(); ++i) out[i] = packed_t::of(b[i]);
    return out;
  }
};
TYPED_TEST_SUITE(PackedBases, test::all_groups, test::group_names);

TYPED_TEST(PackedBases, PippengerOverFullWidthScalarsMatchesTheDecodedBases) {
  for (std::size_t n : {1, 9, 700, 5000}) {
    const auto b = this->bases(n);
    const auto p = this->packed(b);
    const auto k = TypeParam::random_frs(this->rng, n);
    EXPECT_EQ(TypeParam::msm_packed(std::span<const typename TypeParam::packed_t>(p), k, {.split = false}),
              TypeParam::msm(b, k, {.split = false}))
        << n;
  }
}

/* a key's sections start anywhere in its file: bases one byte past an alignment read the same */
TYPED_TEST(PackedBases, BasesAtAnOddAddressReadTheSame) {
  using packed_t = typename TypeParam::packed_t;
  const std::size_t n = 600;
  const auto b = this->bases(n);
  const auto p = this->packed(b);
  std::vector<unsigned char> bytes(n * sizeof(packed_t) + 1);
  std::memcpy(bytes.data() + 1, p.data(), n * sizeof(packed_t));
  const std::span<const packed_t> odd(reinterpret_cast<const packed_t*>(bytes.data() + 1), n);
  const auto k = TypeParam::random_frs(this->rng, n);
  EXPECT_EQ(TypeParam::msm_packed(odd, k, {.split = false}), TypeParam::msm(b, k, {.split = false}));
}

TYPED_TEST(PackedBases, ASplitWitnessAndTheSumOfOnesMatchTheDecodedBases) {
  using fr_t = typename TypeParam::fr_t;
  const std::size_t n = 3000;
  const auto b = this->bases(n);
  const auto p = this->packed(b);
  std::vector<fr_t> k(n);
  for (auto& x : k) {
    const auto u = this->rng() % 4;
    x = u == 0 ? fr_t::zero() : u == 1 ? fr_t::one() : TypeParam::random_fr(this->rng);
  }
  const auto s = split_scalars<typename TypeParam::C>(k);
  const std::span<const typename TypeParam::packed_t> ps(p);
  EXPECT_EQ(TypeParam::msm_packed(ps, s.ones, s.others, s.other_scalars, 0), TypeParam::msm(b, k));
  EXPECT_EQ(TypeParam::sum_packed(ps), TypeParam::sum(b));
  EXPECT_EQ(TypeParam::sum_packed(ps, 1), TypeParam::naive(b, std::vector<fr_t>(n, fr_t::one())));
}

}  // namespace
}  // namespace cuzk::msm
