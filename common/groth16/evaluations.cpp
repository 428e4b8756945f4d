#include "groth16/evaluations.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include <tbb/parallel_for.h>

namespace cuzk::groth16 {

void fill_public_rows(std::uint64_t n_constraints, std::uint32_t n_public, std::span<const fr_t> z,
                      std::span<fr_t> a, std::span<fr_t> b, std::span<fr_t> c) {
  if (n_constraints + n_public + 1 > a.size())
    throw std::invalid_argument("prove: the domain has no room for the public-input rows");
  for (std::size_t i = n_constraints; i < a.size(); ++i) {
    std::size_t s = i - n_constraints;
    a[i] = s <= n_public ? z[s] : fr_t::zero();
    b[i] = fr_t::zero();
    c[i] = fr_t::zero();
  }
}

void evaluate_from_coefs(const proving_key& pk, std::span<const fr_t> z, std::span<fr_t> a, std::span<fr_t> b,
                         std::span<fr_t> c) {
  if (z.size() != pk.n_vars)
    throw std::invalid_argument("prove: witness has " + std::to_string(z.size()) + " values, the key expects " +
                                std::to_string(pk.n_vars));
  if (a.size() != pk.domain_size || b.size() != pk.domain_size || c.size() != pk.domain_size)
    throw std::invalid_argument("prove: a, b, c must have domain_size = " + std::to_string(pk.domain_size) +
                                " entries");
  std::fill(a.begin(), a.end(), fr_t::zero());
  std::fill(b.begin(), b.end(), fr_t::zero());
  for (const auto& k : pk.coefs) {
    if (k.constraint >= pk.domain_size || k.signal >= pk.n_vars || k.matrix > 1)
      throw std::invalid_argument("prove: key coefficient out of range");
    (k.matrix == 0 ? a : b)[k.constraint] += k.value * z[k.signal];
  }
  tbb::parallel_for(std::size_t{0}, c.size(), [&](std::size_t i) { c[i] = a[i] * b[i]; });
}

}  // namespace cuzk::groth16
