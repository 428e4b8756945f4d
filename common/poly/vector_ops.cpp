#include "poly/vector_ops.hpp"

#include <stdexcept>

#include <tbb/parallel_for.h>

namespace cuzk::poly {
namespace {

constexpr std::size_t grain = std::size_t{1} << 13;

template <class F>
void for_chunks(std::size_t n, F&& f) {
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n, grain),
                    [&](const tbb::blocked_range<std::size_t>& r) { f(r.begin(), r.end()); });
}

void check_same(std::size_t a, std::size_t b) {
  if (a != b) throw std::invalid_argument("vector length mismatch");
}

}  // namespace

void add_assign(std::span<fr_t> a, std::span<const fr_t> b) {
  check_same(a.size(), b.size());
  for_chunks(a.size(), [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) a[i] += b[i];
  });
}

void sub_assign(std::span<fr_t> a, std::span<const fr_t> b) {
  check_same(a.size(), b.size());
  for_chunks(a.size(), [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) a[i] -= b[i];
  });
}

void mul_assign(std::span<fr_t> a, std::span<const fr_t> b) {
  check_same(a.size(), b.size());
  for_chunks(a.size(), [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) a[i] *= b[i];
  });
}

void mul_sub_assign(std::span<fr_t> a, std::span<const fr_t> b, std::span<const fr_t> c) {
  check_same(a.size(), b.size());
  check_same(a.size(), c.size());
  for_chunks(a.size(), [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) a[i] = a[i] * b[i] - c[i];
  });
}

void scale(std::span<fr_t> a, const fr_t& c) {
  for_chunks(a.size(), [&](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) a[i] *= c;
  });
}

void distribute_powers(std::span<fr_t> a, const fr_t& c, const fr_t& g) {
  for_chunks(a.size(), [&](std::size_t lo, std::size_t hi) {
    fr_t w = c * g.pow(std::uint64_t(lo));  // c g^lo, then one step of g per element
    for (std::size_t i = lo; i < hi; ++i, w *= g) a[i] *= w;
  });
}

fr_t evaluate(std::span<const fr_t> coeffs, const fr_t& x) {
  fr_t acc;
  for (std::size_t i = coeffs.size(); i-- > 0;) acc = acc * x + coeffs[i];
  return acc;
}

}  // namespace cuzk::poly
