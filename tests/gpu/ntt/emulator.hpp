// Runs NTT pass lists on the host, block by block and thread by thread, with
// the kernels' own block code (cuda/ntt/block.cuh) on ff::fr<C>: checks the
// index arithmetic of every plan without a device, and with cuda::fr<C> the
// device field type's layout and operators in the kernels' code.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

#include "cuda/ntt/block.cuh"
#include "cuda/ntt/plan.hpp"
#include "ff/fr.hpp"

namespace cuzk::cuda::ntt::test {

template <class F>
struct host_exec {
  std::vector<std::array<F, 8>> regs;

  template <class Fn>
  void threads(Fn&& fn) {
    for (std::uint32_t tid = 0; tid < regs.size(); ++tid) fn(tid, regs[tid].data());
  }
  void sync() {}
};

/* F: ff::fr<C>, or cuda::fr<C> (the device type, run on the host) */
template <class F>
void emulate(const std::vector<detail::pass>& passes) {
  constexpr unsigned all = detail::dif_fwd | detail::dif_inv | detail::dit_fwd | detail::dit_inv;
  for (const detail::pass& ps : passes) {
    std::vector<std::uint32_t> sm(ps.shared_bytes() / sizeof(std::uint32_t));
    for (std::uint32_t blk = 0; blk < ps.blocks(); ++blk) {
      host_exec<F> ex{std::vector<std::array<F, 8>>(ps.threads())};
      detail::run_block<F, all>(ex, ps, blk, sm.data());
    }
  }
}

}  // namespace cuzk::cuda::ntt::test
