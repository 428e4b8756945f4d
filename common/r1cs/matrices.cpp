#include "r1cs/matrices.hpp"

#include <algorithm>
#include <string>

#include "r1cs/error.hpp"

namespace cuzk::r1cs {

namespace {

template <class C>
void check_z(const basic_matrices<C>& m, std::size_t z) {
  if (z != m.n_wires)
    throw error("assignment has " + std::to_string(z) + " values, the constraint system " + std::to_string(m.n_wires) +
                " wires");
}

}  // namespace

template <class C>
void merge_by_wire(std::vector<basic_term<C>>& terms) {
  using term = basic_term<C>;
  std::sort(terms.begin(), terms.end(), [](const term& p, const term& q) { return p.wire < q.wire; });
  std::size_t k = 0;
  for (std::size_t i = 0; i < terms.size();) {
    term t = terms[i];
    for (++i; i < terms.size() && terms[i].wire == t.wire; ++i) t.coeff += terms[i].coeff;
    if (!t.coeff.is_zero()) terms[k++] = t;
  }
  terms.resize(k);
}

template <class C>
ff::fr<C> dot(std::span<const basic_term<C>> row, std::span<const ff::fr<C>> z) {
  ff::fr<C> acc;
  for (const auto& t : row) acc += t.coeff.is_one() ? z[t.wire] : t.coeff * z[t.wire];
  return acc;
}

template <class C>
void evaluate(const basic_matrices<C>& m, std::span<const ff::fr<C>> z, std::span<ff::fr<C>> a, std::span<ff::fr<C>> b,
              std::span<ff::fr<C>> c) {
  check_z(m, z.size());
  const std::uint64_t n = m.n_constraints();
  if (a.size() < n || b.size() < n || c.size() < n)
    throw capacity_error("evaluate: " + std::to_string(n) + " constraints do not fit a/b/c buffers of " +
                         std::to_string(std::min({a.size(), b.size(), c.size()})) + " entries");
  for (std::uint64_t i = 0; i < n; ++i) {
    a[i] = dot<C>(m.a.row(i), z);
    b[i] = dot<C>(m.b.row(i), z);
    c[i] = dot<C>(m.c.row(i), z);
  }
}

template <class C>
std::optional<std::uint64_t> first_unsatisfied(const basic_matrices<C>& m, std::span<const ff::fr<C>> z) {
  check_z(m, z.size());
  for (std::uint64_t i = 0; i < m.n_constraints(); ++i)
    if (!(dot<C>(m.a.row(i), z) * dot<C>(m.b.row(i), z) == dot<C>(m.c.row(i), z))) return i;
  return std::nullopt;
}

#define CUZK_R1CS_MATRICES(C)                                                                        \
  template void merge_by_wire(std::vector<basic_term<C>>&);                                          \
  template ff::fr<C> dot(std::span<const basic_term<C>>, std::span<const ff::fr<C>>);                \
  template void evaluate(const basic_matrices<C>&, std::span<const ff::fr<C>>, std::span<ff::fr<C>>, \
                         std::span<ff::fr<C>>, std::span<ff::fr<C>>);                                \
  template std::optional<std::uint64_t> first_unsatisfied(const basic_matrices<C>&, std::span<const ff::fr<C>>);
CUZK_R1CS_MATRICES(curves::bls12_381)
CUZK_R1CS_MATRICES(curves::bn254)

}  // namespace cuzk::r1cs
