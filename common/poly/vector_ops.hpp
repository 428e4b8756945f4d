// Element-wise operations on vectors of Fr, parallel over the calling
// thread's TBB arena, and Horner evaluation. Operands have equal lengths.
#pragma once

#include <span>

#include "ff/fr.hpp"

namespace cuzk::poly {

using ff::fr_t;

/* a_i <- a_i + b_i */
void add_assign(std::span<fr_t> a, std::span<const fr_t> b);
/* a_i <- a_i - b_i */
void sub_assign(std::span<fr_t> a, std::span<const fr_t> b);
/* a_i <- a_i b_i */
void mul_assign(std::span<fr_t> a, std::span<const fr_t> b);
/* a_i <- a_i b_i - c_i: the QAP numerator A·B - C, pointwise */
void mul_sub_assign(std::span<fr_t> a, std::span<const fr_t> b, std::span<const fr_t> c);
/* a_i <- a_i c */
void scale(std::span<fr_t> a, const fr_t& c);
/* a_i <- a_i c g^i: moves p(x) to c p(gx) in coefficient form */
void distribute_powers(std::span<fr_t> a, const fr_t& c, const fr_t& g);

/* p(x) = Σ a_i x^i by Horner's rule: ((a_{n-1} x + a_{n-2}) x + ...) x + a_0 */
fr_t evaluate(std::span<const fr_t> coeffs, const fr_t& x);

}  // namespace cuzk::poly
