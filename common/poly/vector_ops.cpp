#include "poly/vector_ops.hpp"

#include <stdexcept>

#include <tbb/parallel_for.h>

namespace cuzk::poly {
namespace {

constexpr std::size_t grain = std::size_t{1} << 13;

template <class Fn>
void for_chunks(std::size_t n, Fn&& f) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, grain),
                    [&](const tbb::blocked_range<std::size_t>& r) { f(r.begin(), r.end()); });
}

void check_same(std::size_t a, std::size_t b) {
  if (a != b) throw std::invalid_argument("vector length mismatch");
}

/* the operations over any field F; the overloads below instantiate them per curve */
template <class F>
struct ops {
  static void add_assign(std::span<F> a, std::span<const F> b) {
    check_same(a.size(), b.size());
    for_chunks(a.size(), [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) a[i] += b[i];
    });
  }

  static void sub_assign(std::span<F> a, std::span<const F> b) {
    check_same(a.size(), b.size());
    for_chunks(a.size(), [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) a[i] -= b[i];
    });
  }

  static void mul_assign(std::span<F> a, std::span<const F> b) {
    check_same(a.size(), b.size());
    for_chunks(a.size(), [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) a[i] *= b[i];
    });
  }

  static void mul_sub_assign(std::span<F> a, std::span<const F> b, std::span<const F> c) {
    check_same(a.size(), b.size());
    check_same(a.size(), c.size());
    for_chunks(a.size(), [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) a[i] = a[i] * b[i] - c[i];
    });
  }

  static void scale(std::span<F> a, const F& c) {
    for_chunks(a.size(), [&](std::size_t lo, std::size_t hi) {
      for (std::size_t i = lo; i < hi; ++i) a[i] *= c;
    });
  }

  static void distribute_powers(std::span<F> a, const F& c, const F& g) {
    for_chunks(a.size(), [&](std::size_t lo, std::size_t hi) {
      F w = c * g.pow(std::uint64_t(lo));  // c g^lo, then one step of g per element
      for (std::size_t i = lo; i < hi; ++i, w *= g) a[i] *= w;
    });
  }

  static F evaluate(std::span<const F> coeffs, const F& x) {
    F acc;
    for (std::size_t i = coeffs.size(); i-- > 0;) acc = acc * x + coeffs[i];
    return acc;
  }
};

}  // namespace

#define CUZK_POLY_VECTOR_OPS(F)                                                                                        \
  void add_assign(std::span<F> a, std::span<const F> b) { ops<F>::add_assign(a, b); }                                  \
  void sub_assign(std::span<F> a, std::span<const F> b) { ops<F>::sub_assign(a, b); }                                  \
  void mul_assign(std::span<F> a, std::span<const F> b) { ops<F>::mul_assign(a, b); }                                  \
  void mul_sub_assign(std::span<F> a, std::span<const F> b, std::span<const F> c) { ops<F>::mul_sub_assign(a, b, c); } \
  void scale(std::span<F> a, const F& c) { ops<F>::scale(a, c); }                                                      \
  void distribute_powers(std::span<F> a, const F& c, const F& g) { ops<F>::distribute_powers(a, c, g); }               \
  F evaluate(std::span<const F> coeffs, const F& x) { return ops<F>::evaluate(coeffs, x); }
CUZK_POLY_VECTOR_OPS(ff::fr<curves::bls12_381>)
CUZK_POLY_VECTOR_OPS(ff::fr<curves::bn254>)
#undef CUZK_POLY_VECTOR_OPS

}  // namespace cuzk::poly
