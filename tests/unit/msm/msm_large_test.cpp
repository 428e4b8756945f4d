// A larger MSM (2^14) against the same inputs cut into chunks whose MSMs are
// computed separately and summed: a different plan (window size, chunks) for
// the same sum. The naive sum is out of reach at this size.
#include <gtest/gtest.h>

#include <string>

#include "msm_test_util.hpp"
#include "seed.hpp"

namespace cuzk::msm {
namespace {

template <class G>
class MsmLarge : public test::group_test<G, 501> {};
TYPED_TEST_SUITE(MsmLarge, test::all_groups, test::group_names);

TYPED_TEST(MsmLarge, WholeMatchesSumOfChunks) {
  using fr_t = typename TypeParam::fr_t;
  const std::size_t n = std::size_t(1) << 14;
  auto bases = TypeParam::random_bases(this->rng, n);
  auto scalars = TypeParam::random_frs(this->rng, n);
  /* a tenth zeros and ones, as a witness would have */
  for (std::size_t i = 0; i < n; i += 10) scalars[i] = i % 20 ? fr_t::one() : fr_t::zero();
  stats st;
  const auto whole = TypeParam::msm(bases, scalars, {}, &st);
  EXPECT_EQ(st.split.zeros + st.split.ones + st.split.others, n);
  typename TypeParam::jac_t chunked;
  for (std::size_t lo = 0, step = 3000; lo < n; lo += step) {
    const std::size_t len = std::min(step, n - lo);
    chunked += TypeParam::msm(std::span(bases).subspan(lo, len), std::span<const fr_t>(scalars).subspan(lo, len),
                              {.threads = 1});
  }
  EXPECT_EQ(whole, chunked);
  EXPECT_EQ(TypeParam::msm(bases, scalars, {.threads = 1, .window_bits = 9, .split = false}), whole);
}

}  // namespace
}  // namespace cuzk::msm
