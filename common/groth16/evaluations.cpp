#include "groth16/evaluations.hpp"

#include <algorithm>
#include <cstring>
#include <stdexcept>
#include <string>

#include <tbb/parallel_for.h>
#include <tbb/task_arena.h>

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
  const bool mapped = pk.coefs.empty() && !pk.mapped.coefs.empty();  // left in the mapping: each record read here
  const std::uint64_t n = mapped ? pk.mapped.coefs.size() / coef_record_bytes : pk.coefs.size();
  auto record = [&](std::uint64_t i) {
    if (!mapped) return pk.coefs[i];
    const auto k = decode_coef_record<C>(pk.mapped.coefs.data() + i * coef_record_bytes);
    if (!k) throw std::invalid_argument("prove: key coefficient " + std::to_string(i) + " is not below r");
    return *k;
  };
  /* Each task owns one matrix's rows [lo, hi) and reads every record's
     header, adding only its own: no two tasks write one row, in any order of
     the records. */
  const std::uint32_t parts = std::uint32_t(std::clamp(tbb::this_task_arena::max_concurrency(), 1, 8));
  tbb::parallel_for(std::uint32_t{0}, 2 * parts, [&](std::uint32_t t) {
    const std::uint32_t matrix = t % 2;
    const std::uint64_t lo = std::uint64_t(pk.domain_size) * (t / 2) / parts,
                        hi = std::uint64_t(pk.domain_size) * (t / 2 + 1) / parts;
    std::span<fr_t> out = matrix == 0 ? a : b;
    for (std::uint64_t i = 0; i < n; ++i) {
      std::uint32_t m, row;
      if (mapped) {
        std::memcpy(&m, pk.mapped.coefs.data() + i * coef_record_bytes, 4);
        std::memcpy(&row, pk.mapped.coefs.data() + i * coef_record_bytes + 4, 4);
      } else {
        m = pk.coefs[i].matrix;
        row = pk.coefs[i].constraint;
      }
      if (m == matrix && row >= lo && row < hi) {
        const auto k = record(i);
        if (k.signal >= pk.n_vars)
          throw std::invalid_argument("prove: key coefficient " + std::to_string(i) + " is out of range (signal " +
                                      std::to_string(k.signal) + " of " + std::to_string(pk.n_vars) + ")");
        out[row] += k.value * z[k.signal];
      } else if (m > 1 || row >= pk.domain_size) {
        throw std::invalid_argument("prove: key coefficient " + std::to_string(i) + " is out of range (matrix " +
                                    std::to_string(m) + ", row " + std::to_string(row) + ")");
      }
    }
  });
  tbb::parallel_for(std::size_t{0}, c.size(), [&](std::size_t i) { c[i] = a[i] * b[i]; });
}

#define CUZK_GROTH16_EVALUATIONS(C)                                                                                 \
  template void fill_public_rows<C>(std::uint64_t, std::uint32_t, std::span<const ff::fr<C>>, std::span<ff::fr<C>>, \
                                    std::span<ff::fr<C>>, std::span<ff::fr<C>>);                                    \
  template void evaluate_from_coefs(const basic_proving_key<C>&, std::span<const ff::fr<C>>, std::span<ff::fr<C>>,  \
                                    std::span<ff::fr<C>>, std::span<ff::fr<C>>);
CUZK_CURVES(CUZK_GROTH16_EVALUATIONS)

}  // namespace cuzk::groth16
