// The device MSM's window, cost model and temporaries: the arithmetic lives in
// sizing/msm_memory.cpp (host-only, so the node planner computes the same
// figures without CUDA); these are the device code's names for it.
#include <algorithm>
#include <cstddef>

#include "cuda/msm/layout.hpp"
#include "cuda/msm/msm.hpp"
#include "sizing/msm_memory.hpp"

namespace cuzk::cuda::msm {

static_assert(max_shifted_window == sizing::msm_max_shifted_window);
static_assert(max_shifted_points == sizing::msm_max_shifted_points);
static_assert(max_sort_bytes == sizing::msm_max_sort_bytes);

namespace {

sizing::msm_shifts to_sizing(const shifts& s) { return {s.copies, s.c}; }

}  // namespace

double plain_cost(std::size_t n, unsigned c, unsigned bits) { return sizing::msm_plain_cost(n, c, bits); }

double shifted_cost(std::size_t n, const shifts& sh, unsigned bits) {
  return sizing::msm_shifted_cost(n, to_sizing(sh), bits);
}

unsigned window_bits(std::size_t n, unsigned bits) { return sizing::msm_window_bits(n, bits); }

shifts plan_shifts(std::size_t n, unsigned max_copies, unsigned bits) {
  const sizing::msm_shifts s = sizing::msm_plan_shifts(n, max_copies, bits);
  return {s.copies, s.c};
}

std::uint32_t first_chunk(std::size_t items) { return sizing::msm_first_chunk(items); }

layout choose_layout(std::size_t n, const shifts& sh, unsigned bits) {
  return sizing::msm_choose_layout(n, to_sizing(sh), bits);
}

std::size_t layout_bytes(std::size_t n, const layout& l, std::size_t xyzz_bytes) {
  return sizing::msm_layout_bytes(n, l, xyzz_bytes);
}

std::size_t workspace_bytes(std::size_t n, const shifts& sh, std::size_t xyzz_bytes, unsigned bits) {
  return sizing::msm_workspace_bytes(n, to_sizing(sh), xyzz_bytes, bits);
}

}  // namespace cuzk::cuda::msm
