// The fused path from evaluations on H to evaluations on a coset against
// intt then coset_ntt; the DIT core against the DIF one; the streaming outer
// stages against the column stages (which alone run below 2^22).
#include <gtest/gtest.h>

#include <vector>

#include "poly/coset_evaluations.hpp"
#include "poly/ntt.hpp"
#include "poly/ntt_dif.hpp"
#include "poly_test.hpp"

namespace cuzk::poly {
namespace {

template <class C>
class CosetEvaluations : public ::testing::Test {};
TYPED_TEST_SUITE(CosetEvaluations, test::curves_under_test, test::curve_names);

TYPED_TEST(CosetEvaluations, AreInttThenCosetNttAtEverySizeOfBlocksAndColumns) {
  using F = ff::fr<TypeParam>;
  using D = basic_domain<TypeParam>;
  auto rng = curve_rng<TypeParam>(31);
  /* 2^12: one block; 2^13 and 2^17: blocks and column stages; 2^21: the most rows a column buffer takes */
  for (unsigned k : {1u, 2u, 5u, 12u, 13u, 17u, 21u}) {
    SCOPED_TRACE("n = 2^" + std::to_string(k));
    const root_family f = k % 2 ? root_family::snarkjs : root_family::bellman;
    const D d(k, f);
    const auto v = random_vector<F>(rng, d.size());
    for (const F& g : {d.odd_coset_shift(), D::coset_generator(), F::random(rng)}) {
      auto expected = v;
      intt(d, std::span<F>(expected));
      coset_ntt(d, std::span<F>(expected), g);
      auto got = v;
      coset_evaluations(d, std::span<F>(got), g);
      EXPECT_TRUE(got == expected);
      if (k > 17) break;  // one coset is enough at the largest size
    }
  }
}

TYPED_TEST(CosetEvaluations, RefusesAVectorOfAnotherSize) {
  using F = ff::fr<TypeParam>;
  const basic_domain<TypeParam> d(4);
  std::vector<F> v(8);
  EXPECT_THROW(coset_evaluations(d, std::span<F>(v), F::one()), std::invalid_argument);
}

TYPED_TEST(CosetEvaluations, DitOfBitReversedInputIsTheDifTransformInNaturalOrder) {
  using F = ff::fr<TypeParam>;
  auto rng = curve_rng<TypeParam>(32);
  for (unsigned k : {3u, 13u, 16u}) {
    SCOPED_TRACE("n = 2^" + std::to_string(k));
    const basic_domain<TypeParam> d(k);
    for (auto dir : {detail::direction::forward, detail::direction::inverse}) {
      const auto v = random_vector<F>(rng, d.size());
      auto expected = v;
      detail::dif(d, std::span<F>(expected), dir);
      detail::bit_reverse(std::span<F>(expected), k);
      auto got = v;
      detail::bit_reverse(std::span<F>(got), k);
      detail::dit(d, std::span<F>(got), dir);
      EXPECT_TRUE(got == expected);
    }
  }
}

/* outer_stages with fewer column stages than the sizes here need, so radix-2 and radix-4 passes run */
template <detail::order O, detail::direction D, class C>
void expect_streamed_like_columns(const basic_domain<C>& d, std::mt19937_64& rng) {
  using F = ff::fr<C>;
  const auto t = detail::stage_tables<C>::of(d);
  const auto v = random_vector<F>(rng, d.size());
  auto columns = v;
  detail::outer_stages<O, D>(columns.data(), t.k, t.b, t.full);
  for (unsigned max_column : {0u, 1u, 2u, 3u}) {
    SCOPED_TRACE("column stages at most " + std::to_string(max_column));
    auto streamed = v;
    detail::outer_stages<O, D>(streamed.data(), t.k, t.b, t.full, max_column);
    EXPECT_TRUE(streamed == columns);
  }
}

TYPED_TEST(CosetEvaluations, StreamedOuterStagesMatchColumnStages) {
  using detail::direction;
  using detail::order;
  auto rng = curve_rng<TypeParam>(33);
  const basic_domain<TypeParam> d(16);  // 4 outer stages
  expect_streamed_like_columns<order::dif, direction::forward>(d, rng);
  expect_streamed_like_columns<order::dif, direction::inverse>(d, rng);
  expect_streamed_like_columns<order::dit, direction::forward>(d, rng);
  expect_streamed_like_columns<order::dit, direction::inverse>(d, rng);
}

}  // namespace
}  // namespace cuzk::poly
