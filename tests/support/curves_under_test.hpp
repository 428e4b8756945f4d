// The curves every curve-generic test runs on, and their names in test ids
// (TYPED_TEST_SUITE(Foo, test::curves_under_test, test::curve_names)).
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "curves/bls12_381.hpp"
#include "curves/bn254.hpp"

namespace cuzk::test {

using curves_under_test = ::testing::Types<curves::bls12_381, curves::bn254>;

template <class C>
inline constexpr const char* curve_name = C::id == curves::curve_id::bn254 ? "Bn254" : "Bls12_381";

struct curve_names {
  template <class C>
  static std::string GetName(int) {
    return curve_name<C>;
  }
};

}  // namespace cuzk::test
