// The MSM entry points over a precomputed split (msm.hpp): against the
// unsplit entry point on the same scalars, over the whole vector and over
// tails of it, in G1 and G2 of every curve.
#include <gtest/gtest.h>

#include <string>

#include "msm/split.hpp"
#include "msm_test_util.hpp"
#include "seed.hpp"

namespace cuzk::msm {
namespace {

template <class G>
class Presplit : public test::group_test<G, 601> {
 protected:
  using fr_t = typename G::fr_t;
  /* 0, 1 and full-width scalars in about equal shares, r − 1 among them */
  std::vector<fr_t> witness_like(std::size_t n) {
    std::vector<fr_t> s(n);
    for (auto& k : s) {
      const auto u = this->rng() % 7;
      k = u < 2    ? fr_t::zero()
          : u < 4  ? fr_t::one()
          : u == 4 ? test::minus_one<typename G::C>()
                   : G::random_fr(this->rng);
    }
    return s;
  }

  /* the split of s restricted to indices >= first */
  static auto tail_msm(std::span<const typename G::aff_t> bases, const scalar_split& s, std::uint32_t first,
                       const options& opt = {}, stats* st = nullptr) {
    auto from = [&](const std::vector<std::uint32_t>& v) {
      return std::size_t(std::lower_bound(v.begin(), v.end(), first) - v.begin());
    };
    const std::size_t o = from(s.ones), r = from(s.others);
    return G::msm(bases, std::span(s.ones).subspan(o), std::span(s.others).subspan(r),
                  std::span(s.other_scalars).subspan(r), first, opt, st);
  }
};
TYPED_TEST_SUITE(Presplit, test::all_groups, test::group_names);

TYPED_TEST(Presplit, WholeSplitMatchesMsm) {
  for (std::size_t n : {0, 1, 2, 17, 300, 3000}) {
    const auto bases = TypeParam::random_bases(this->rng, n);
    const auto scalars = this->witness_like(n);
    const auto s = split_scalars<typename TypeParam::C>(scalars);
    for (int threads : {0, 1}) {
      stats st;
      EXPECT_EQ(this->tail_msm(bases, s, 0, {.threads = threads}, &st), TypeParam::msm(bases, scalars)) << n;
      EXPECT_EQ(st.split.ones, s.ones.size());
      EXPECT_EQ(st.split.others, s.others.size());
      EXPECT_EQ(st.split.zeros, s.zeros);
    }
  }
}

TYPED_TEST(Presplit, TailOfTheSplitMatchesMsmOverTheTail) {
  const std::size_t n = 2000;
  auto scalars = this->witness_like(n);
  const auto s = split_scalars<typename TypeParam::C>(scalars);
  for (std::uint32_t first : {1u, 2u, 5u, 999u, 1999u, 2000u}) {
    const auto bases = TypeParam::random_bases(this->rng, n - first);
    const auto tail = std::span<const typename TypeParam::fr_t>(scalars).subspan(first);
    EXPECT_EQ(this->tail_msm(bases, s, first), TypeParam::msm(bases, tail)) << first;
  }
  /* small enough for the naive sum too */
  const auto bases = TypeParam::random_bases(this->rng, 40);
  EXPECT_EQ(this->tail_msm(bases, s, std::uint32_t(n - 40)),
            TypeParam::naive(bases, std::span<const typename TypeParam::fr_t>(scalars).subspan(n - 40)));
}

TYPED_TEST(Presplit, InconsistentSplitsThrow) {
  const auto bases = TypeParam::random_bases(this->rng, 10);
  const std::vector<std::uint32_t> ok{3, 4}, past{3, 10}, before{1, 4};
  const std::vector<scalar_limbs_t> two(2, scalar_limbs_t{2, 0, 0, 0}), one(1, scalar_limbs_t{2, 0, 0, 0});
  EXPECT_NO_THROW(TypeParam::msm(bases, ok, ok, two, 0));
  EXPECT_THROW(TypeParam::msm(bases, ok, ok, one, 0), std::invalid_argument);      // a scalar missing
  EXPECT_THROW(TypeParam::msm(bases, past, ok, two, 0), std::invalid_argument);    // one past the bases
  EXPECT_THROW(TypeParam::msm(bases, ok, before, two, 2), std::invalid_argument);  // below first
  EXPECT_NO_THROW(TypeParam::msm(bases, past, ok, two, 1));                        // 10 − first is a base
}

}  // namespace
}  // namespace cuzk::msm
