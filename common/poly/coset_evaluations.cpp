#include "poly/coset_evaluations.hpp"

#include <stdexcept>
#include <string>
#include <vector>

#include <tbb/parallel_for.h>

#include "poly/ntt_dif.hpp"

namespace cuzk::poly {

template <class C>
void coset_evaluations(const basic_domain<C>& d, std::span<ff::fr<C>> v, const ff::fr<C>& g) {
  using F = ff::fr<C>;
  using namespace detail;
  if (v.size() != d.size())
    throw std::invalid_argument("coset evaluations of " + std::to_string(v.size()) + " values on a domain of size " +
                                std::to_string(d.size()));
  if (v.size() < 2) return;  // n = 1: a_0 = v_0, and g^0 = 1
  const auto t = stage_tables<C>::of(d);
  const unsigned k = t.k, b = t.b;
  const std::size_t len = std::size_t{1} << b;
  if (k > b) outer_stages<order::dif, direction::inverse>(v.data(), k, b, t.full);

  /* position blk B + u holds a_j, j = rev_k(blk B + u) = rev_b(u) 2^(k-b) + rev_(k-b)(blk), so
     n^-1 g^j = pw[u] f_blk with pw[u] = n^-1 G^rev_b(u), G = g^(2^(k-b)), and f_blk = g^rev_(k-b)(blk) */
  F G = g;
  for (unsigned i = b; i < k; ++i) G = G.sqr();
  std::vector<F> natural(len), pw(len);
  natural[0] = d.size_inv();
  for (std::size_t u = 1; u < len; ++u) natural[u] = natural[u - 1] * G;
  for (std::size_t u = 0; u < len; ++u) pw[u] = natural[reverse_bits(std::uint32_t(u), b)];

  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, v.size() / len, 1), [&](const auto& r) {
    for (std::size_t blk = r.begin(); blk < r.end(); ++blk) {
      F* x = v.data() + blk * len;
      const F f = k > b ? g.pow(std::uint64_t(reverse_bits(std::uint32_t(blk), k - b))) : F::one();
      block_stages<order::dif, direction::inverse>(x, len, t.block);
      for (std::size_t u = 0; u < len; ++u) x[u] *= pw[u] * f;
      block_stages<order::dit, direction::forward>(x, len, t.block);
    }
  });
  if (k > b) outer_stages<order::dit, direction::forward>(v.data(), k, b, t.full);
}

#define CUZK_INSTANTIATE(C) \
  template void coset_evaluations(const basic_domain<C>&, std::span<ff::fr<C>>, const ff::fr<C>&);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::poly
