// The eight-lane AVX-512 IFMA arithmetic (ff/ifma.hpp, ff/ifma_fp2.hpp)
// against GMP and the scalar fields, on every field with lanes (BN254's Fp and
// Fr, BLS12-381's Fp) and both curves' Fp2: random operands (the seed
// printed), every pair of edge values, lane inputs in [p, 2p) as the lanes
// carry them between operations, and long chains that feed results back.
// The lanes are called directly, so this runs under CUZK_FF_PLAIN too; a CPU
// without IFMA skips it (the MSMs then never take the lanes).
#include "ff/ifma_fp2.hpp"

#include "fp2_oracle.hpp"
#include "gmp_oracle.hpp"

namespace cuzk::test {
namespace {

bool cpu_has_ifma() {
#if CUZK_FF_IFMA
  __builtin_cpu_init();
  return __builtin_cpu_supports("avx512f") && __builtin_cpu_supports("avx512ifma");
#else
  return false;
#endif
}

/* ifma::detect (CPUID, XGETBV) against the compiler's own CPU check, where no variable turns the lanes off */
TEST(IfmaDetect, AgreesWithTheCompilersCpuCheck) {
  const char* plain = std::getenv("CUZK_FF_PLAIN");
  const char* ifma = std::getenv("CUZK_FF_IFMA");
  const bool off = (plain && *plain && *plain != '0') || (ifma && *ifma == '0');
  EXPECT_EQ(ff::ifma::detect(), !off && cpu_has_ifma());
  EXPECT_EQ(ff::ifma::active, ff::ifma::detect());
}

enum class op { mul, sqr, add, sub };

#if CUZK_FF_IFMA
template <class M>
CUZK_IFMA_TARGET void apply(op o, M& out, const M& a, const M& b) {
  using ff::ifma::add, ff::ifma::sub, ff::ifma::mul, ff::ifma::sqr, ff::ifma::load, ff::ifma::store;
  const auto x = load(a), y = load(b);
  switch (o) {
    case op::mul:
      store(out, mul(x, y));
      break;
    case op::sqr:
      store(out, sqr(x));
      break;
    case op::add:
      store(out, add(x, y));
      break;
    case op::sub:
      store(out, sub(x, y));
      break;
  }
}
#else
template <class M>
void apply(op, M&, const M&, const M&) {}
#endif

/* the lane's raw value (below 2p expected), as an integer */
template <class P>
mpz_class raw(const ff::ifma::lanes<P>& m, unsigned lane) {
  constexpr std::size_t L = ff::ifma::shape<P>::L;
  std::array<std::uint64_t, L> l;
  for (std::size_t j = 0; j < L; ++j) {
    EXPECT_LE(m.w[j][lane], ff::ifma::mask52) << "limb " << j << " of lane " << lane << " is not carried";
    l[j] = m.w[j][lane];
  }
  return to_mpz(ff::ifma::join52<P::n_limbs, L>(l));
}

template <class F>
class IfmaLanes : public ::testing::Test {};
/* every field with 4p < R (ifma::fits): not BLS12-381's Fr, which the MSMs never put in lanes */
using lane_fields = ::testing::Types<ff::fp_t, bn254_fp, bn254_fr>;
TYPED_TEST_SUITE(IfmaLanes, lane_fields, field_names);

TYPED_TEST(IfmaLanes, AgreeWithGmpAndTheScalarField) {
  using F = TypeParam;
  using P = typename F::params;
  using G = gmp_field<F>;
  using M = ff::ifma::lanes<P>;
  if (!cpu_has_ifma()) GTEST_SKIP() << "no AVX-512 IFMA on this CPU: the MSMs never take the lanes";
  auto g = test_rng();
  std::vector<mpz_class> values = G::edge_values();
  for (int i = 0; i < 2000; ++i) values.push_back(G::random(g));
  /* a lane holds x or x + p (both stand for x, below 2p) */
  auto load_lanes = [&](M& m, const mpz_class* x, bool plus_p) {
    for (unsigned lane = 0; lane < 8; ++lane) {
      mpz_class mont = G::reduce(x[lane] * G::r());
      if (plus_p && (lane & 1)) mont += G::p();
      const auto l = ff::ifma::split52<P::n_limbs, M::L>(to_limbs<P::n_limbs>(mont));
      for (std::size_t j = 0; j < M::L; ++j) m.w[j][lane] = l[j];
    }
  };
  const std::size_t n = values.size() / 8 * 8;
  for (const bool plus_p : {false, true})
    for (std::size_t s = 0; s + 8 <= n; s += 8) {
      mpz_class x[8], y[8];
      for (unsigned lane = 0; lane < 8; ++lane) {
        x[lane] = values[s + lane];
        y[lane] = values[(s * 7 + lane * 13 + 5) % n];
      }
      M a, b, out;
      load_lanes(a, x, plus_p);
      load_lanes(b, y, plus_p);
      for (const op o : {op::mul, op::sqr, op::add, op::sub}) {
        apply(o, out, a, b);
        for (unsigned lane = 0; lane < 8; ++lane) {
          const mpz_class want = o == op::mul   ? mpz_class(x[lane] * y[lane])
                                 : o == op::sqr ? mpz_class(x[lane] * x[lane])
                                 : o == op::add ? mpz_class(x[lane] + y[lane])
                                                : mpz_class(x[lane] - y[lane]);
          const mpz_class got = raw(out, lane);
          ASSERT_LT(got, 2 * G::p()) << "op " << int(o) << ", x = " << hex(x[lane]) << ", y = " << hex(y[lane]);
          ASSERT_EQ(G::reduce(got * G::r_inv()), G::reduce(want))
              << "op " << int(o) << ", x = " << hex(x[lane]) << ", y = " << hex(y[lane]);
          const F fx = G::element(x[lane]), fy = G::element(y[lane]);
          const F scalar = o == op::mul ? fx * fy : o == op::sqr ? fx.sqr() : o == op::add ? fx + fy : fx - fy;
          ASSERT_EQ(out.get(lane), scalar);
        }
      }
    }
  /* results fed back a thousand times: x <- x^2 - x y + (y - x), lanes never reduced below 2p in between */
  M a, b, t;
  F fx[8], fy[8];
  for (unsigned lane = 0; lane < 8; ++lane) {
    fx[lane] = G::element(G::random(g));
    fy[lane] = -F::one() - F::from_u64(lane);
    a.set(lane, fx[lane]);
    b.set(lane, fy[lane]);
  }
  for (int i = 0; i < 1000; ++i) {
    M sq, xy, d;
    apply(op::sqr, sq, a, a);
    apply(op::mul, xy, a, b);
    apply(op::sub, d, b, a);
    apply(op::sub, t, sq, xy);
    apply(op::add, a, t, d);
    for (unsigned lane = 0; lane < 8; ++lane) fx[lane] = fx[lane].sqr() - fx[lane] * fy[lane] + (fy[lane] - fx[lane]);
  }
  for (unsigned lane = 0; lane < 8; ++lane) ASSERT_EQ(a.get(lane), fx[lane]) << "lane " << lane;
}

template <class C>
class IfmaFp2Lanes : public ::testing::Test {};
TYPED_TEST_SUITE(IfmaFp2Lanes, curves_under_test, curve_names);

TYPED_TEST(IfmaFp2Lanes, AgreeWithGmpAndTheScalarFp2) {
  using C = TypeParam;
  using E = ff::fp2<C>;
  using O = gmp_fp2<C>;
  using M = ff::ifma::lanes2<C>;
  if (!cpu_has_ifma()) GTEST_SKIP() << "no AVX-512 IFMA on this CPU: the MSMs never take the lanes";
  auto g = test_rng();
  for (int round = 0; round < 500; ++round) {
    O x[8], y[8];
    M a, b, out;
    for (unsigned lane = 0; lane < 8; ++lane) {
      x[lane] = round == 0 && lane < 2 ? O::of(lane == 0 ? 0 : -1, -1) : O::random(g);
      y[lane] = round == 0 && lane < 2 ? O::of(-1, lane == 0 ? 0 : -1) : O::random(g);
      a.set(lane, x[lane].element());
      b.set(lane, y[lane].element());
    }
    for (const op o : {op::mul, op::sqr, op::add, op::sub}) {
      apply(o, out, a, b);
      for (unsigned lane = 0; lane < 8; ++lane) {
        const O want = o == op::mul   ? x[lane] * y[lane]
                       : o == op::sqr ? x[lane] * x[lane]
                       : o == op::add ? x[lane] + y[lane]
                                      : x[lane] - y[lane];
        const E got = out.get(lane);
        ASSERT_TRUE(O::value(got) == want) << "op " << int(o) << ", lane " << lane;
        const E ex = x[lane].element(), ey = y[lane].element();
        ASSERT_EQ(got, o == op::mul ? ex * ey : o == op::sqr ? ex.sqr() : o == op::add ? ex + ey : ex - ey);
      }
    }
  }
}

}  // namespace
}  // namespace cuzk::test
