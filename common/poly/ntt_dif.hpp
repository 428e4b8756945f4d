// The cores of the NTT over the Fr of either curve (instantiated in
// ntt_dif.cpp for BLS12-381 and BN254), stage by stage in ntt_stages.hpp:
// dif takes natural order to bit-reversed order, dit bit-reversed to natural.
#pragma once

#include <cstddef>
#include <span>

#include "curves/dispatch.hpp"
#include "poly/domain.hpp"
#include "poly/ntt_stages.hpp"

namespace cuzk::poly::detail {

/* All log2(n) DIF stages with ω (forward) or ω^-1 (inverse); output bit-reversed. */
template <class C>
void dif(const basic_domain<C>& d, std::span<ff::fr<C>> a, direction dir);

/* All log2(n) DIT stages with ω (forward) or ω^-1 (inverse); input bit-reversed, output natural. */
template <class C>
void dit(const basic_domain<C>& d, std::span<ff::fr<C>> a, direction dir);

/* a[i] <-> a[rev_k(i)], then a[i] *= scale when scale is given */
template <class F>
void bit_reverse(std::span<F> a, unsigned log_n, const F* scale = nullptr);

/* The domain's tables as the stages read them: the full one (ω^i, i <= n/2)
   and the in-block one (ω_B^i, i <= B/2); b = log2 B <= k. */
template <class C>
struct stage_tables {
  twiddle_view<ff::fr<C>> full, block;
  unsigned k, b;
  static stage_tables of(const basic_domain<C>& d) {
    const auto f = d.twiddles(), bt = d.block_twiddles();
    const unsigned k = d.log_size();
    return {{f.data(), f.size() - 1}, {bt.data(), bt.size() - 1}, k, std::min(k, basic_domain<C>::block_log)};
  }
};

#define CUZK_INSTANTIATE(C)                                                          \
  extern template void dif(const basic_domain<C>&, std::span<ff::fr<C>>, direction); \
  extern template void dit(const basic_domain<C>&, std::span<ff::fr<C>>, direction); \
  extern template void bit_reverse(std::span<ff::fr<C>>, unsigned, const ff::fr<C>*);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::poly::detail
