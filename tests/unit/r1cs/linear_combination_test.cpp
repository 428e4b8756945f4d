#include "r1cs/linear_combination.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace cuzk::r1cs {
namespace {

fr_t f(std::uint64_t v) { return fr_t::from_u64(v); }

TEST(LinearCombination, EvaluatesAsTheDotProductWithTheAssignment) {
  const variable x = variable::aux(0), y = variable::input(1);
  basic_lc<curves::bls12_381> l = basic_lc<curves::bls12_381>::constant(f(5)) + x;
  l.add(y, f(3));
  l -= x;
  l += x;
  const std::vector<fr_t> inputs{fr_t::one(), f(7)}, aux{f(11)};
  auto value = [&](variable v) { return v.type == variable::kind::input ? inputs[v.index] : aux[v.index]; };
  EXPECT_EQ(l.evaluate(value), f(5 + 3 * 7 + 11));
  EXPECT_EQ((l * f(2)).evaluate(value), f(2 * (5 + 3 * 7 + 11)));
}

TEST(LinearCombination, CompactMergesRepeatedVariablesAndDropsZeros) {
  const variable x = variable::aux(3), y = variable::aux(1), z = variable::input(2);
  basic_lc<curves::bls12_381> l = basic_lc<curves::bls12_381>(x) + y + x + z - y;
  l.add(variable::one(), f(4));
  l.compact();
  ASSERT_EQ(l.size(), 3u);
  EXPECT_EQ(l.terms()[0].var, variable::one());
  EXPECT_EQ(l.terms()[1].var, z);
  EXPECT_EQ(l.terms()[2].var, x);
  EXPECT_EQ(l.terms()[2].coeff, f(2));
}

TEST(LinearCombination, ZeroCoefficientsAreNotStored) {
  basic_lc<curves::bls12_381> l;
  l.add(variable::aux(0), fr_t::zero());
  l.add(basic_lc<curves::bls12_381>(variable::aux(1)), fr_t::zero());
  EXPECT_TRUE(l.empty());
  basic_lc<curves::bls12_381> m = basic_lc<curves::bls12_381>(variable::aux(0)) * fr_t::zero();
  EXPECT_TRUE(m.empty());
}

TEST(LinearCombination, AddingItselfDoubles) {
  basic_lc<curves::bls12_381> l = basic_lc<curves::bls12_381>(variable::aux(0)) + variable::aux(1);
  l += l;
  l.add(l, f(3));
  l.compact();
  ASSERT_EQ(l.size(), 2u);
  EXPECT_EQ(l.terms()[0].coeff, f(8));
  EXPECT_EQ(l.terms()[1].coeff, f(8));
}

TEST(Variable, OrdersOneThenInputsThenAux) {
  EXPECT_LT(variable::one(), variable::input(1));
  EXPECT_LT(variable::input(1000), variable::aux(0));
  EXPECT_TRUE(variable::one().is_one());
  EXPECT_FALSE(variable::aux(0).is_one());
}

}  // namespace
}  // namespace cuzk::r1cs
