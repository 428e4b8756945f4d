// XYZZ bucket arithmetic against the Jacobian group law of ec/, in G1 and G2
// of every curve.
#include <gtest/gtest.h>

#include <string>

#include "msm/xyzz.hpp"
#include "msm_test_util.hpp"
#include "seed.hpp"

namespace cuzk::msm {
namespace {

template <class G>
class Xyzz : public test::group_test<G, 101> {
 protected:
  using X = xyzz<typename G::curve_t>;
  X from(const typename G::aff_t& a) {
    X x;
    x += a;
    return x;
  }
};
TYPED_TEST_SUITE(Xyzz, test::all_groups, test::group_names);

TYPED_TEST(Xyzz, MixedAndFullAdditionMatchJacobian) {
  for (int i = 0; i < 10; ++i) {
    auto p = TypeParam::random_point(this->rng), q = TypeParam::random_point(this->rng);
    auto pa = p.to_affine(), qa = q.to_affine();
    auto x = this->from(pa);
    x += qa; /* madd */
    EXPECT_EQ(x.to_jacobian(), p + q);
    auto y = this->from(qa).dbl(); /* dbl: ZZ, ZZZ != 1 */
    y += x;                        /* add */
    EXPECT_EQ(y.to_jacobian(), p + q + q.dbl());
    y += y; /* add falls back to dbl */
    EXPECT_EQ(y.to_jacobian(), (p + q + q.dbl()).dbl());
  }
}

TYPED_TEST(Xyzz, SpecialCasesOfTheGroupLaw) {
  auto p = TypeParam::random_point(this->rng).to_affine();
  auto x = this->from(p);
  x += p; /* madd falls back to mdbl */
  EXPECT_EQ(x.to_jacobian(), TypeParam::jac_t::from_affine(p).dbl());
  EXPECT_EQ(xyzz<typename TypeParam::curve_t>::dbl_affine(p).to_jacobian(), x.to_jacobian());
  auto z = this->from(p);
  z += -p; /* P + (-P) = O */
  EXPECT_TRUE(z.is_identity());
  z += typename TypeParam::aff_t{}; /* O + O */
  EXPECT_TRUE(z.is_identity());
  z += x; /* O + Q = Q */
  EXPECT_EQ(z.to_jacobian(), x.to_jacobian());
  auto neg = this->from(-p).dbl();
  neg += x; /* -2P + 2P = O */
  EXPECT_TRUE(neg.is_identity());
  EXPECT_TRUE(xyzz<typename TypeParam::curve_t>{}.to_jacobian().is_identity());
}

TYPED_TEST(Xyzz, TimesIsRepeatedAddition) {
  auto p = this->from(TypeParam::random_point(this->rng).to_affine()).dbl();
  auto sum = p;
  for (std::uint64_t k = 1; k < 70; ++k) {
    EXPECT_EQ(times(p, k).to_jacobian(), sum.to_jacobian()) << k;
    sum += p;
  }
  EXPECT_EQ(times(p, 1u << 20).to_jacobian(), ec::mul(p.to_jacobian(), scalar_limbs_t{1u << 20, 0, 0, 0}));
}

}  // namespace
}  // namespace cuzk::msm
