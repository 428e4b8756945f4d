// MSM against the naive sum_i k_i P_i (one ec::mul per term), over G1 and G2
// of every curve:
// sizes, the scalar split, and the inputs that reach the special cases of
// the batch-affine buckets (P + P, P + (-P), infinity, skewed scalars).
#include <gtest/gtest.h>

#include <string>

#include "msm/booth.hpp"
#include "msm_test_util.hpp"
#include "seed.hpp"

namespace cuzk::msm {
namespace {

template <class G>
class MsmNaive : public test::group_test<G, 301> {};
TYPED_TEST_SUITE(MsmNaive, test::all_groups, test::group_names);

TYPED_TEST(MsmNaive, RandomScalarsMatchNaiveSumAtSmallSizes) {
  for (std::size_t n : {1, 2, 3, 17, 100, 1000}) {
    auto bases = TypeParam::random_bases(this->rng, n);
    auto scalars = TypeParam::random_frs(this->rng, n);
    stats st;
    EXPECT_EQ(TypeParam::msm(bases, scalars, {}, &st), TypeParam::naive(bases, scalars)) << "n = " << n;
    EXPECT_EQ(st.split.others, n);
  }
}

TYPED_TEST(MsmNaive, EmptyInputGivesIdentity) {
  using fr_t = typename TypeParam::fr_t;
  EXPECT_TRUE(TypeParam::msm({}, std::span<const fr_t>{}).is_identity());
  EXPECT_TRUE(TypeParam::pippenger({}, {}).is_identity());
}

TYPED_TEST(MsmNaive, MismatchedLengthsThrow) {
  auto bases = TypeParam::random_bases(this->rng, 3);
  auto scalars = TypeParam::random_frs(this->rng, 2);
  EXPECT_THROW(TypeParam::msm(bases, scalars), std::invalid_argument);
}

TYPED_TEST(MsmNaive, AllZeroScalarsGiveIdentity) {
  using fr_t = typename TypeParam::fr_t;
  auto bases = TypeParam::random_bases(this->rng, 100);
  std::vector<fr_t> zeros(100, fr_t::zero());
  stats st;
  EXPECT_TRUE(TypeParam::msm(bases, zeros, {}, &st).is_identity());
  EXPECT_EQ(st.split.zeros, 100u);
  EXPECT_TRUE(TypeParam::msm(bases, zeros, {.split = false}).is_identity());
}

TYPED_TEST(MsmNaive, AllOneScalarsGiveSumOfBases) {
  using fr_t = typename TypeParam::fr_t;
  for (std::size_t n : {1, 2, 33, 1000}) {
    auto bases = TypeParam::random_bases(this->rng, n);
    std::vector<fr_t> ones(n, fr_t::one());
    typename TypeParam::jac_t sum;
    for (const auto& p : bases) sum += p;
    stats st;
    EXPECT_EQ(TypeParam::msm(bases, ones, {}, &st), sum) << n;
    EXPECT_EQ(st.split.ones, n);
    EXPECT_EQ(TypeParam::msm(bases, ones, {.split = false}), sum) << n;
    EXPECT_EQ(TypeParam::sum(bases), sum) << n;
  }
}

/* Mostly 0 and 1, like the witness of a SHA-256 circuit. */
TYPED_TEST(MsmNaive, BooleanHeavyScalarsAreSplitAndSummedCorrectly) {
  using fr_t = typename TypeParam::fr_t;
  const std::size_t n = 1000;
  auto bases = TypeParam::random_bases(this->rng, n);
  std::vector<fr_t> scalars(n);
  split_counts want;
  for (auto& k : scalars) {
    const auto u = this->rng() % 10;
    k = u < 5 ? fr_t::zero() : u < 9 ? fr_t::one() : TypeParam::random_fr(this->rng);
    (k.is_zero() ? want.zeros : k.is_one() ? want.ones : want.others)++;
  }
  stats st;
  EXPECT_EQ(TypeParam::msm(bases, scalars, {}, &st), TypeParam::naive(bases, scalars));
  EXPECT_EQ(st.split.zeros, want.zeros);
  EXPECT_EQ(st.split.ones, want.ones);
  EXPECT_EQ(st.split.others, want.others);
}

/* The same base many times: bucket additions meet B + B (a doubling). */
TYPED_TEST(MsmNaive, RepeatedBaseMatchesScalarSum) {
  using fr_t = typename TypeParam::fr_t;
  const auto p = TypeParam::random_point(this->rng).to_affine();
  std::vector<typename TypeParam::aff_t> bases(600, p);
  auto scalars = TypeParam::random_frs(this->rng, bases.size());
  fr_t total = fr_t::zero();
  for (const auto& k : scalars) total += k;
  EXPECT_EQ(TypeParam::msm(bases, scalars), ec::mul(p, total)); /* sum k_i P = (sum k_i) P */
}

/* Every point in one bucket: the batches cannot fill, so the additions go to
   the overflow (XYZZ) buckets, and doublings happen there too. */
TYPED_TEST(MsmNaive, SkewedSmallScalarsMatchNaiveSum) {
  using fr_t = typename TypeParam::fr_t;
  const auto p = TypeParam::random_point(this->rng).to_affine();
  for (std::uint64_t k : {2, 3, 5, 255}) {
    std::vector<typename TypeParam::aff_t> same(3000, p);
    std::vector<fr_t> scalars(same.size(), fr_t::from_u64(k));
    stats st;
    EXPECT_EQ(TypeParam::msm(same, scalars, {}, &st), ec::mul(p, fr_t::from_u64(k * same.size()))) << k;
    EXPECT_GT(st.overflow_adds, 0u);
    auto distinct = TypeParam::random_bases(this->rng, 300);
    scalars.resize(distinct.size());
    EXPECT_EQ(TypeParam::msm(distinct, scalars), TypeParam::naive(distinct, scalars)) << k;
  }
}

TYPED_TEST(MsmNaive, PointAndItsNegationCancel) {
  using fr_t = typename TypeParam::fr_t;
  const auto p = TypeParam::random_point(this->rng).to_affine();
  for (fr_t k : {fr_t::one(), fr_t::from_u64(7), TypeParam::random_fr(this->rng)}) {
    std::vector<typename TypeParam::aff_t> bases{p, -p};
    std::vector<fr_t> scalars{k, k};
    EXPECT_TRUE(TypeParam::msm(bases, scalars).is_identity());
    /* k P + k (-P) + k P, in every order the buckets can see it */
    bases = {p, -p, p, -p, -p, p, p};
    scalars.assign(bases.size(), k);
    EXPECT_EQ(TypeParam::msm(bases, scalars), ec::mul(p, k));
  }
  auto bases = TypeParam::random_bases(this->rng, 200);
  for (std::size_t i = 1; i < bases.size(); i += 2) bases[i] = -bases[i - 1];
  auto scalars = TypeParam::random_frs(this->rng, bases.size());
  EXPECT_EQ(TypeParam::msm(bases, scalars), TypeParam::naive(bases, scalars));
}

TYPED_TEST(MsmNaive, BasesAtInfinityContributeNothing) {
  using fr_t = typename TypeParam::fr_t;
  auto bases = TypeParam::random_bases(this->rng, 300);
  for (std::size_t i = 0; i < bases.size(); i += 3) bases[i] = {};
  auto scalars = TypeParam::random_frs(this->rng, bases.size());
  for (std::size_t i = 0; i < scalars.size(); i += 5) scalars[i] = fr_t::one();
  EXPECT_EQ(TypeParam::msm(bases, scalars), TypeParam::naive(bases, scalars));
  std::vector<typename TypeParam::aff_t> all_infinite(50);
  std::vector<fr_t> ks = TypeParam::random_frs(this->rng, 50);
  EXPECT_TRUE(TypeParam::msm(all_infinite, ks).is_identity());
}

/* r - 1, r - 2, powers of two up to the top bit of r and past it (2^bits
   wraps mod r), small integers */
TYPED_TEST(MsmNaive, ExtremeAndSmallScalarsMatchNaiveSum) {
  using C = typename TypeParam::C;
  using fr_t = typename TypeParam::fr_t;
  constexpr unsigned bits = scalar_bits<C>;
  std::vector<fr_t> scalars{test::minus_one<C>(),   test::minus_one<C>() - fr_t::one(),
                            fr_t::from_u64(2),      fr_t::from_u64(3),
                            fr_t::from_u64(0xffff), fr_t::one()};
  for (unsigned b : {63u, 64u, 127u, 128u, 200u, bits - 2, bits - 1, bits}) {
    scalars.push_back(fr_t::from_u64(2).pow(std::uint64_t(b)));               /* 2^b */
    scalars.push_back(fr_t::from_u64(2).pow(std::uint64_t(b)) - fr_t::one()); /* 2^b - 1 */
  }
  for (std::uint64_t k = 0; k < 40; ++k) scalars.push_back(fr_t::from_u64(k));
  auto bases = TypeParam::random_bases(this->rng, scalars.size());
  const auto want = TypeParam::naive(bases, scalars);
  EXPECT_EQ(TypeParam::msm(bases, scalars), want);
  EXPECT_EQ(TypeParam::msm(bases, scalars, {.split = false}), want);
  /* window sizes dividing 256 and 255 (W c = bits + 1 exactly on one curve
     or the other) and neither */
  for (unsigned c : {2u, 5u, 13u, 15u, 16u, 17u})
    EXPECT_EQ(TypeParam::msm(bases, scalars, {.window_bits = c}), want) << c;
}

/* Canonical integers are taken mod r: k + j r acts as k (BN254: j up to 5,
   since 2^256 > 5r), 2^256 - 1 as its residue. */
TYPED_TEST(MsmNaive, CanonicalScalarsAreTakenModR) {
  using C = typename TypeParam::C;
  using fr_t = typename TypeParam::fr_t;
  auto bases = TypeParam::random_bases(this->rng, 40);
  auto scalars = TypeParam::random_frs(this->rng, bases.size());
  scalars[0] = fr_t::one();
  scalars[1] = fr_t::zero();
  auto limbs = test::canonical(scalars);
  const auto want = TypeParam::naive(bases, scalars);
  EXPECT_EQ(TypeParam::msm(bases, std::span<const scalar_limbs_t>(limbs)), want);
  EXPECT_EQ(TypeParam::pippenger(bases, limbs), want);
  /* k + j r, j = i mod 6, as far as it fits in 256 bits */
  const scalar_limbs_t r = C::fr_params::modulus;
  std::size_t above_r = 0;
  for (std::size_t i = 0; i < limbs.size(); ++i) {
    for (std::size_t j = 0; j < i % 6; ++j) {
      scalar_limbs_t sum;
      if (ff::limbs::add(sum, limbs[i], r)) break;
      limbs[i] = sum;
    }
    above_r += !ff::limbs::less(limbs[i], r);
  }
  EXPECT_GT(above_r, limbs.size() / 2);
  EXPECT_EQ(TypeParam::msm(bases, std::span<const scalar_limbs_t>(limbs)), want);
  EXPECT_EQ(TypeParam::pippenger(bases, limbs), want);
  const scalar_limbs_t max{~0ull, ~0ull, ~0ull, ~0ull};
  const std::vector<scalar_limbs_t> big{max};
  const std::vector<fr_t> reduced{*fr_t::from_canonical(ec::reduce_mod_r<C>(max))};
  auto one = std::span(bases).first(1);
  EXPECT_EQ(TypeParam::msm(one, std::span<const scalar_limbs_t>(big)), TypeParam::naive(one, reduced));
  EXPECT_EQ(TypeParam::pippenger(one, big), TypeParam::naive(one, reduced));
}

/* Every c, with the scalars' top bit set somewhere (r - 1), and the window
   count from the curve's scalar length */
TYPED_TEST(MsmNaive, EveryWindowSizeGivesTheSameResult) {
  using C = typename TypeParam::C;
  auto bases = TypeParam::random_bases(this->rng, 100);
  auto scalars = TypeParam::random_frs(this->rng, bases.size());
  scalars[0] = test::minus_one<C>();
  const auto want = TypeParam::naive(bases, scalars);
  for (unsigned c = 1; c <= 16; ++c) {
    stats st;
    EXPECT_EQ(TypeParam::msm(bases, scalars, {.window_bits = c}, &st), want) << "c = " << c;
    EXPECT_EQ(st.window_bits, c);
    EXPECT_EQ(st.windows, window_count(c, scalar_bits<C>));
  }
}

/* Batches of one, two, ... additions: the queue of conflicts and the
   overflow buckets carry most of the work. */
TYPED_TEST(MsmNaive, TinyBatchesGiveTheSameResult) {
  auto bases = TypeParam::random_bases(this->rng, 300);
  auto scalars = TypeParam::random_frs(this->rng, bases.size());
  for (std::size_t i = 0; i < bases.size(); i += 7) bases[i] = bases[0];
  const auto want = TypeParam::naive(bases, scalars);
  for (std::size_t batch : {1, 2, 3, 17})
    for (unsigned c : {3u, 8u})
      EXPECT_EQ(TypeParam::msm(bases, scalars, {.window_bits = c, .batch_size = batch}), want);
}

TYPED_TEST(MsmNaive, ThreadCountDoesNotChangeTheResult) {
  using fr_t = typename TypeParam::fr_t;
  auto bases = TypeParam::random_bases(this->rng, 700);
  auto scalars = TypeParam::random_frs(this->rng, bases.size());
  for (std::size_t i = 0; i < scalars.size(); i += 4) scalars[i] = fr_t::one();
  const auto want = TypeParam::naive(bases, scalars);
  for (int threads : {1, 2, 0}) {
    stats st;
    EXPECT_EQ(TypeParam::msm(bases, scalars, {.threads = threads}, &st), want) << threads;
    EXPECT_EQ(TypeParam::msm(bases, scalars, {.threads = threads, .split = false}), want) << threads;
    EXPECT_EQ(TypeParam::msm(bases, scalars, {.threads = threads, .window_bits = 4}), want) << threads;
  }
}

}  // namespace
}  // namespace cuzk::msm
