#include "groth16/evaluations.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include <tbb/parallel_for.h>

#include "curves/dispatch.hpp"
#include "groth16/coef_record.hpp"

namespace cuzk::groth16 {

template <class C>
void fill_public_rows(std::uint64_t n_constraints, std::uint32_t n_public, std::span<const ff::fr<C>> z,
                      std::span<ff::fr<C>> a, std::span<ff::fr<C>> b, std::span<ff::fr<C>> c) {
  using fr_t = ff::fr<C>;
  if (n_constraints + n_public + 1 > a.size())
    throw std::invalid_argument("prove: the domain has no room for the public-input rows");
  for (std::size_t i = n_constraints; i < a.size(); ++i) {
    std::size_t s = i - n_constraints;
    a[i] = s <= n_public ? z[s] : fr_t::zero();
    b[i] = fr_t::zero();
    c[i] = fr_t::zero();
  }
}

template <class C>
void evaluate_from_coefs(const basic_proving_key<C>& pk, std::span<const ff::fr<C>> z, std::span<ff::fr<C>> a,
                         std::span<ff::fr<C>> b, std::span<ff::fr<C>> c) {
  using fr_t = ff::fr<C>;
  if (z.size() != pk.n_vars)
    throw std::invalid_argument("prove: witness has " + std::to_string(z.size()) + " values, the key expects " +
                                std::to_string(pk.n_vars));
  if (a.size() != pk.domain_size || b.size() != pk.domain_size || c.size() != pk.domain_size)
    throw std::invalid_argument("prove: a, b, c must have domain_size = " + std::to_string(pk.domain_size) +
                                " entries");
  std::fill(a.begin(), a.end(), fr_t::zero());
  std::fill(b.begin(), b.end(), fr_t::zero());
  auto add = [&](const basic_matrix_coef<C>& k, std::uint64_t i) {
    if (k.constraint >= pk.domain_size || k.signal >= pk.n_vars || k.matrix > 1)
      throw std::invalid_argument("prove: key coefficient " + std::to_string(i) + " is out of range (matrix " +
                                  std::to_string(k.matrix) + ", row " + std::to_string(k.constraint) + ", signal " +
                                  std::to_string(k.signal) + ")");
    (k.matrix == 0 ? a : b)[k.constraint] += k.value * z[k.signal];
  };
  if (pk.coefs.empty() && !pk.mapped.coefs.empty()) {  // left in the mapping: read each record here
    const auto& r = pk.mapped.coefs;
    for (std::uint64_t i = 0; i < r.size() / coef_record_bytes; ++i) {
      const auto k = decode_coef_record<C>(r.data() + i * coef_record_bytes);
      if (!k) throw std::invalid_argument("prove: key coefficient " + std::to_string(i) + " is not below r");
      add(*k, i);
    }
  } else {
    for (std::uint64_t i = 0; i < pk.coefs.size(); ++i) add(pk.coefs[i], i);
  }
  tbb::parallel_for(std::size_t{0}, c.size(), [&](std::size_t i) { c[i] = a[i] * b[i]; });
}

#define CUZK_GROTH16_EVALUATIONS(C)                                                                                 \
  template void fill_public_rows<C>(std::uint64_t, std::uint32_t, std::span<const ff::fr<C>>, std::span<ff::fr<C>>, \
                                    std::span<ff::fr<C>>, std::span<ff::fr<C>>);                                    \
  template void evaluate_from_coefs(const basic_proving_key<C>&, std::span<const ff::fr<C>>, std::span<ff::fr<C>>,  \
                                    std::span<ff::fr<C>>, std::span<ff::fr<C>>);
CUZK_CURVES(CUZK_GROTH16_EVALUATIONS)

}  // namespace cuzk::groth16
