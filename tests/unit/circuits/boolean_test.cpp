// Bit and word gadgets on every combination of constant, variable and
// negated operands: values right, constraints satisfied, constants free.
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "circuits/word32.hpp"
#include "r1cs/checking_cs.hpp"
#include "seed.hpp"

namespace cuzk::circuits {
namespace {

using bit = basic_bit<curves::bls12_381>;
using word32 = basic_word32<curves::bls12_381>;
using checking_cs = r1cs::basic_checking_cs<curves::bls12_381>;
using constraint_system = r1cs::basic_constraint_system<curves::bls12_381>;

/* the six kinds of operand of value v: constant, variable, negated variable */
std::vector<bit> operands(constraint_system& cs, bool v) {
  return {bit::constant(v), bit::alloc(cs, v), !bit::alloc(cs, !v)};
}

void for_all(int arity, const std::function<void(checking_cs&, const std::vector<bit>&)>& f) {
  for (int values = 0; values < (1 << arity); ++values) {
    checking_cs cs;
    std::vector<std::vector<bit>> choices;
    for (int k = 0; k < arity; ++k) choices.push_back(operands(cs, (values >> k) & 1));
    std::vector<std::size_t> pick(arity, 0);
    for (;;) {
      std::vector<bit> args;
      for (int k = 0; k < arity; ++k) args.push_back(choices[k][pick[k]]);
      f(cs, args);
      int k = 0;
      while (k < arity && ++pick[k] == 3) pick[k++] = 0;
      if (k == arity) break;
    }
    ASSERT_TRUE(cs.satisfied()) << cs.first_failure()->name;
  }
}

TEST(Boolean, XorAndOrChMajAreRightForEveryOperandKind) {
  for_all(2, [](checking_cs& cs, const std::vector<bit>& x) {
    EXPECT_EQ(bit_xor(cs, x[0], x[1]).value(), x[0].value() != x[1].value());
    EXPECT_EQ(bit_and(cs, x[0], x[1]).value(), x[0].value() && x[1].value());
    EXPECT_EQ(bit_or(cs, x[0], x[1]).value(), x[0].value() || x[1].value());
  });
  for_all(3, [](checking_cs& cs, const std::vector<bit>& x) {
    const bool e = x[0].value(), f = x[1].value(), g = x[2].value();
    EXPECT_EQ(bit_ch(cs, x[0], x[1], x[2]).value(), (e && f) != (!e && g));
    EXPECT_EQ(bit_maj(cs, x[0], x[1], x[2]).value(), ((e && f) != (e && g)) != (f && g));
  });
}

TEST(Boolean, ResultsAreConstrainedNotJustComputed) {
  // a wrong xor result must break the constraint that defines it
  checking_cs cs;
  const bit a = bit::alloc(cs, true), b = bit::alloc(cs, false);
  const auto x = bit_xor(cs, a, b).to_lc();
  EXPECT_TRUE(cs.satisfied());
  const auto before = cs.sizes().constraints;
  cs.enforce(x, r1cs::variable::one(), r1cs::basic_lc<curves::bls12_381>(), "xor is 1, so this fails");
  EXPECT_FALSE(cs.satisfied());
  EXPECT_EQ(cs.first_failure()->index, before);
}

TEST(Boolean, OperationsOnConstantsOrOneVariableAddNoConstraints) {
  checking_cs cs;
  const bit a = bit::alloc(cs, true);
  const auto n = cs.sizes().constraints;
  bit_xor(cs, a, bit::constant(true));
  bit_and(cs, a, bit::constant(true));
  bit_xor(cs, a, !a);
  bit_and(cs, a, !a);
  bit_ch(cs, a, bit::constant(true), bit::constant(false));
  bit_maj(cs, bit::constant(false), bit::constant(true), a);
  EXPECT_EQ(cs.sizes().constraints, n);
}

TEST(Word32, AddXorChMajMatchIntegerArithmetic) {
  auto g = cuzk::test::rng(8);
  for (int trial = 0; trial < 20; ++trial) {
    checking_cs cs;
    std::vector<std::uint32_t> v(7);
    std::vector<word32> w;
    for (int i = 0; i < 7; ++i) {
      v[i] = static_cast<std::uint32_t>(g());
      w.push_back(i % 3 == 2 ? word32::constant(v[i]) : word32::alloc(cs, v[i]));
    }
    std::uint32_t sum = 0;
    for (auto x : v) sum += x;
    EXPECT_EQ(word_add(cs, w).value(), sum);
    EXPECT_EQ(word_xor3(cs, w[0], w[1].rotr(5), w[2].shr(7)).value(), v[0] ^ std::rotr(v[1], 5) ^ (v[2] >> 7));
    EXPECT_EQ(word_ch(cs, w[0], w[1], w[3]).value(), (v[0] & v[1]) ^ (~v[0] & v[3]));
    EXPECT_EQ(word_maj(cs, w[0], w[1], w[4]).value(), (v[0] & v[1]) ^ (v[0] & v[4]) ^ (v[1] & v[4]));
    EXPECT_TRUE(cs.satisfied());
  }
}

TEST(Word32, AddingConstantsOnlyIsFree) {
  checking_cs cs;
  const word32 t[] = {word32::constant(0xffffffffu), word32::constant(2)};
  EXPECT_EQ(word_add(cs, t).value(), 1u);
  EXPECT_EQ(cs.sizes().constraints, 0u);
}

TEST(Word32, AddOfTwoWitnessWordsCosts34Constraints) {
  checking_cs cs;
  const word32 t[] = {word32::alloc(cs, 5), word32::alloc(cs, 7)};
  const auto n = cs.sizes().constraints;
  word_add(cs, t);
  EXPECT_EQ(cs.sizes().constraints - n, 33u + 1);  // 33 result bits + the sum
}

}  // namespace
}  // namespace cuzk::circuits
