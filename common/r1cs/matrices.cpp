#include "r1cs/matrices.hpp"

#include <algorithm>
#include <string>

#include "r1cs/error.hpp"

namespace cuzk::r1cs {

namespace {

void check_z(const matrices& m, std::span<const fr_t> z) {
  if (z.size() != m.n_wires)
    throw error("assignment has " + std::to_string(z.size()) + " values, the constraint system " +
                std::to_string(m.n_wires) + " wires");
}

}  // namespace

void merge_by_wire(std::vector<term>& terms) {
  std::sort(terms.begin(), terms.end(), [](const term& p, const term& q) { return p.wire < q.wire; });
  std::size_t k = 0;
  for (std::size_t i = 0; i < terms.size();) {
    term t = terms[i];
    for (++i; i < terms.size() && terms[i].wire == t.wire; ++i) t.coeff += terms[i].coeff;
    if (!t.coeff.is_zero()) terms[k++] = t;
  }
  terms.resize(k);
}

fr_t dot(std::span<const term> row, std::span<const fr_t> z) {
  fr_t acc;
  for (const auto& t : row) acc += t.coeff.is_one() ? z[t.wire] : t.coeff * z[t.wire];
  return acc;
}

void evaluate(const matrices& m, std::span<const fr_t> z, std::span<fr_t> a, std::span<fr_t> b, std::span<fr_t> c) {
  check_z(m, z);
  const std::uint64_t n = m.n_constraints();
  if (a.size() < n || b.size() < n || c.size() < n)
    throw capacity_error("evaluate: " + std::to_string(n) + " constraints do not fit a/b/c buffers of " +
                         std::to_string(std::min({a.size(), b.size(), c.size()})) + " entries");
  for (std::uint64_t i = 0; i < n; ++i) {
    a[i] = dot(m.a.row(i), z);
    b[i] = dot(m.b.row(i), z);
    c[i] = dot(m.c.row(i), z);
  }
}

std::optional<std::uint64_t> first_unsatisfied(const matrices& m, std::span<const fr_t> z) {
  check_z(m, z);
  for (std::uint64_t i = 0; i < m.n_constraints(); ++i)
    if (!(dot(m.a.row(i), z) * dot(m.b.row(i), z) == dot(m.c.row(i), z))) return i;
  return std::nullopt;
}

}  // namespace cuzk::r1cs
