// One small circuit run through every mode (counting, setup, proving,
// checking, replay) on both curves.
#include <gtest/gtest.h>

#include <vector>

#include "curves_under_test.hpp"
#include "r1cs/checking_cs.hpp"
#include "r1cs/counting_cs.hpp"
#include "r1cs/error.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/recording_cs.hpp"
#include "r1cs/replay.hpp"
#include "random.hpp"
#include "seed.hpp"
#include "tampering_cs.hpp"

namespace cuzk::r1cs {
namespace {

/* out = x^3 + x + 5, with out public and x private; aux: x, x^2, x^3 */
template <class C>
void cubic(basic_constraint_system<C>& cs, const ff::fr<C>& x) {
  using lc = basic_lc<C>;
  scope s(cs, "cubic");
  const ff::fr<C> x2 = x.sqr(), x3 = x2 * x;
  const variable out = cs.alloc_input(x3 + x + ff::fr<C>::from_u64(5));
  const variable xv = cs.alloc_aux(x);
  const variable sq = cs.alloc_aux(x2);
  cs.enforce(xv, xv, sq, "x^2");
  const variable cube = cs.alloc_aux(x3);
  cs.enforce(sq, xv, cube, "x^3");
  cs.enforce(lc(cube) + xv + lc::constant(ff::fr<C>::from_u64(5)), variable::one(), out, "out");
}

template <class C>
struct basic_slot {
  explicit basic_slot(counts n, std::size_t slack = 0)
      : a(n.constraints + slack), b(n.constraints + slack), c(n.constraints + slack), z(n.inputs + n.aux + slack) {}
  basic_proving_buffers<C> buffers(counts n) {
    return {a, b, c, std::span(z).first(n.inputs), std::span(z).subspan(n.inputs)};
  }
  std::vector<ff::fr<C>> a, b, c, z;
};

template <class C>
struct Modes : ::testing::Test {
  using fr_t = ff::fr<C>;
  using lc = basic_lc<C>;
  using term = basic_term<C>;
  using matrices = basic_matrices<C>;
  using slot = basic_slot<C>;
  using counting_cs = basic_counting_cs<C>;
  using recording_cs = basic_recording_cs<C>;
  using proving_cs = basic_proving_cs<C>;
  using checking_cs = basic_checking_cs<C>;
  using tampering_cs = fixtures::basic_tampering_cs<C>;
  static fr_t f(std::uint64_t v) { return fr_t::from_u64(v); }
};
TYPED_TEST_SUITE(Modes, test::curves_under_test, test::curve_names);

/* Each test's names for its curve's types (typed tests see none of the fixture's). */
#define CUZK_MODES_NAMES                                          \
  using C = TypeParam;                                            \
  using F = Modes<C>;                                             \
  using fr_t [[maybe_unused]] = typename F::fr_t;                 \
  using lc [[maybe_unused]] = typename F::lc;                     \
  using term [[maybe_unused]] = typename F::term;                 \
  using matrices [[maybe_unused]] = typename F::matrices;         \
  using slot [[maybe_unused]] = typename F::slot;                 \
  using counting_cs [[maybe_unused]] = typename F::counting_cs;   \
  using recording_cs [[maybe_unused]] = typename F::recording_cs; \
  using proving_cs [[maybe_unused]] = typename F::proving_cs;     \
  using checking_cs [[maybe_unused]] = typename F::checking_cs;   \
  using tampering_cs [[maybe_unused]] = typename F::tampering_cs; \
  [[maybe_unused]] constexpr auto f = &F::f

TYPED_TEST(Modes, CountingSetupAndProvingAgreeOnSizes) {
  CUZK_MODES_NAMES;
  counting_cs counter;
  cubic(counter, f(3));
  EXPECT_EQ(counter.sizes(), (counts{3, 2, 3}));

  recording_cs recorder;
  cubic(recorder, f(3));
  EXPECT_EQ(recorder.sizes(), counter.sizes());
  const matrices m = std::move(recorder).finish();
  EXPECT_EQ(m.n_constraints(), 3u);
  EXPECT_EQ(m.n_wires, 5u);
  EXPECT_EQ(m.n_public, 1u);

  slot s(counter.sizes());
  proving_cs prover(s.buffers(counter.sizes()));
  cubic(prover, f(3));
  EXPECT_EQ(prover.sizes(), counter.sizes());
}

TYPED_TEST(Modes, ProvingWritesABCAndTheAssignmentIntoCallerMemory) {
  CUZK_MODES_NAMES;
  const counts n{3, 2, 3};
  slot s(n);
  proving_cs prover(s.buffers(n));
  cubic(prover, f(3));
  EXPECT_FALSE(prover.first_unsatisfied());
  EXPECT_EQ(s.z, (std::vector<fr_t>{fr_t::one(), f(35), f(3), f(9), f(27)}));
  EXPECT_EQ(s.a, (std::vector<fr_t>{f(3), f(9), f(35)}));
  EXPECT_EQ(s.b, (std::vector<fr_t>{f(3), f(3), f(1)}));
  EXPECT_EQ(s.c, (std::vector<fr_t>{f(9), f(27), f(35)}));
}

TYPED_TEST(Modes, ProvingEqualsEvaluatingTheRecordedMatrices) {
  CUZK_MODES_NAMES;
  auto g = cuzk::test::rng(1);
  recording_cs recorder;
  cubic(recorder, fr_t::zero());
  const matrices m = std::move(recorder).finish();
  for (int trial = 0; trial < 8; ++trial) {
    const fr_t x = test::random_fr<C>(g);
    const counts n{3, 2, 3};
    slot s(n);
    proving_cs prover(s.buffers(n));
    cubic(prover, x);
    std::vector<fr_t> a(3), b(3), c(3);
    evaluate<C>(m, s.z, a, b, c);
    EXPECT_EQ(a, s.a);
    EXPECT_EQ(b, s.b);
    EXPECT_EQ(c, s.c);
    EXPECT_FALSE(first_unsatisfied<C>(m, s.z));
  }
}

TYPED_TEST(Modes, ProvingRefusesBuffersTooSmallForTheCircuit) {
  CUZK_MODES_NAMES;
  const counts n{3, 2, 3};
  auto attempt = [&](std::size_t a_cap, std::size_t in_cap, std::size_t aux_cap) -> std::string {
    std::vector<fr_t> a(a_cap), b(3), c(3), in(in_cap), aux(aux_cap);
    try {
      proving_cs prover({a, b, c, in, aux});
      cubic(prover, f(3));
    } catch (const capacity_error& e) {
      return e.what();
    }
    return "";
  };
  EXPECT_EQ(attempt(3, 2, 3), "");
  EXPECT_NE(attempt(2, 2, 3).find("a/b/c entries"), std::string::npos);
  EXPECT_NE(attempt(3, 1, 3).find("input entries"), std::string::npos);
  EXPECT_NE(attempt(3, 0, 3).find("input entries"), std::string::npos);
  EXPECT_NE(attempt(3, 2, 2).find("aux entries"), std::string::npos);
  (void)n;
}

TYPED_TEST(Modes, ProvingFlagsTheFirstUnsatisfiedConstraint) {
  CUZK_MODES_NAMES;
  const counts n{3, 2, 3};
  slot s(n);
  proving_cs prover(s.buffers(n));
  tampering_cs bad(prover, 1, f(10));  // x^2 := 10
  cubic(bad, f(3));
  ASSERT_TRUE(prover.first_unsatisfied());
  EXPECT_EQ(*prover.first_unsatisfied(), 0u);
}

TYPED_TEST(Modes, CheckingNamesTheFirstFailingConstraint) {
  CUZK_MODES_NAMES;
  checking_cs good;
  cubic(good, f(3));
  EXPECT_TRUE(good.satisfied());

  checking_cs checker;
  tampering_cs bad(checker, 2, f(28));  // x^3 := 28
  cubic(bad, f(3));
  ASSERT_FALSE(checker.satisfied());
  const auto& failure = *checker.first_failure();
  EXPECT_EQ(failure.index, 1u);
  EXPECT_EQ(failure.name, "cubic/x^3");
  EXPECT_EQ(failure.a * failure.b, f(27));
  EXPECT_EQ(failure.c, f(28));
}

TYPED_TEST(Modes, SetupMergesRepeatedTermsAndSortsRowsByWire) {
  CUZK_MODES_NAMES;
  recording_cs rec;
  const variable x = rec.alloc_aux(fr_t::zero());
  const variable p = rec.alloc_input(fr_t::zero());
  rec.enforce(lc(x) + p + x + lc::constant(f(2)), lc(x) - x, lc(p) + x);
  const matrices m = std::move(rec).finish();
  ASSERT_EQ(m.a.row(0).size(), 3u);
  EXPECT_EQ(m.a.row(0)[0], (term{0, f(2)}));
  EXPECT_EQ(m.a.row(0)[1], (term{1, f(1)}));
  EXPECT_EQ(m.a.row(0)[2], (term{2, f(2)}));
  EXPECT_TRUE(m.b.row(0).empty());
  EXPECT_EQ(m.c.row(0).size(), 2u);
}

TYPED_TEST(Modes, UsingAVariableBeforeAllocatingItIsAnError) {
  CUZK_MODES_NAMES;
  recording_cs rec;
  EXPECT_THROW(rec.enforce(variable::aux(0), variable::one(), variable::one()), error);
  std::vector<fr_t> a(1), b(1), c(1), in(1), aux(1);
  proving_cs prover({a, b, c, in, aux});
  EXPECT_THROW(prover.enforce(variable::input(1), variable::one(), variable::one()), error);
}

TYPED_TEST(Modes, ReplayRunsFixedMatricesThroughAnyMode) {
  CUZK_MODES_NAMES;
  recording_cs recorder;
  cubic(recorder, fr_t::zero());
  const matrices m = std::move(recorder).finish();
  const counts n{3, 2, 3};
  slot s(n);
  proving_cs prover(s.buffers(n));
  cubic(prover, f(4));

  slot replayed(n);
  proving_cs again(replayed.buffers(n));
  replay(again, m, s.z);
  EXPECT_EQ(replayed.z, s.z);
  EXPECT_EQ(replayed.a, s.a);
  EXPECT_EQ(replayed.b, s.b);
  EXPECT_EQ(replayed.c, s.c);

  recording_cs rerecorded;
  replay(rerecorded, m, {});
  EXPECT_EQ(std::move(rerecorded).finish(), m);

  std::vector<fr_t> wrong = s.z;
  wrong[3] += fr_t::one();
  checking_cs checker;
  replay(checker, m, wrong);
  ASSERT_FALSE(checker.satisfied());
  EXPECT_EQ(checker.first_failure()->index, 0u);
  EXPECT_EQ(first_unsatisfied<C>(m, wrong), 0u);
  EXPECT_THROW(replay(checker, m, std::span(wrong).first(3)), error);
}

}  // namespace
}  // namespace cuzk::r1cs
