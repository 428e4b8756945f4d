// Element-wise operations on vectors of Fr, parallel over the calling
// thread's TBB arena, and Horner evaluation. Operands have equal lengths
// (std::invalid_argument otherwise). Each is one overload per curve's Fr
// (ff::fr<curves::bls12_381> = ff::fr_t, ff::fr<curves::bn254>), so spans,
// vectors and arrays of either field bind without naming the curve:
//
//   add_assign(a, b)             a_i <- a_i + b_i
//   sub_assign(a, b)             a_i <- a_i - b_i
//   mul_assign(a, b)             a_i <- a_i b_i
//   mul_sub_assign(a, b, c)      a_i <- a_i b_i - c_i: the QAP numerator A·B - C, pointwise
//   scale(a, c)                  a_i <- a_i c
//   distribute_powers(a, c, g)   a_i <- a_i c g^i: moves p(x) to c p(gx) in coefficient form
//   evaluate(coeffs, x)          p(x) = Σ a_i x^i by Horner's rule:
//                                ((a_{n-1} x + a_{n-2}) x + ...) x + a_0
#pragma once

#include <span>

#include "curves/bls12_381.hpp"
#include "curves/bn254.hpp"
#include "ff/fr.hpp"

namespace cuzk::poly {

using ff::fr_t;

#define CUZK_POLY_VECTOR_OPS(F)                                                    \
  void add_assign(std::span<F> a, std::span<const F> b);                           \
  void sub_assign(std::span<F> a, std::span<const F> b);                           \
  void mul_assign(std::span<F> a, std::span<const F> b);                           \
  void mul_sub_assign(std::span<F> a, std::span<const F> b, std::span<const F> c); \
  void scale(std::span<F> a, const F& c);                                          \
  void distribute_powers(std::span<F> a, const F& c, const F& g);                  \
  F evaluate(std::span<const F> coeffs, const F& x);
CUZK_POLY_VECTOR_OPS(ff::fr<curves::bls12_381>)
CUZK_POLY_VECTOR_OPS(ff::fr<curves::bn254>)
#undef CUZK_POLY_VECTOR_OPS

}  // namespace cuzk::poly
