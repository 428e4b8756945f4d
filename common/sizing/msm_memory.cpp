// Pippenger's window on the device and the cost model behind it, in point
// additions: for n scalars, windows of c bits and K windows a virtual window
// (K - 1 shifted copies of the bases),
//   W(c) n + ceil(W(c) / K) (r 2^(c-1) + 2^12),   W(c) = ceil((bits + 1) / c),
// the bucket additions, then per virtual window its bucket reduction (two
// XYZZ additions a bucket, about three mixed ones, and reading empty buckets:
// r = 6 on the H200, where at r = 3 a 2^24 witness MSM's 1.7M full scalars
// took the copies at c = 22 and ran 7% slower) and a fixed cost (its sort and
// launches). The plain window is still chosen at r = 3, as measured before
// (c = 20 at 2^24, where r = 6 would take 19); plain or shifted, and the
// shifted window, at r = 6. Plain windows stop at c = 20 (the buckets of
// 2^24 points in 13 windows), shifted ones at msm_max_shifted_window.
#include "sizing/msm_memory.hpp"

#include <algorithm>

#include "msm/booth.hpp"

namespace cuzk::sizing {

namespace {

double cost(std::size_t n, unsigned c, unsigned K, unsigned bits, double r = 6) {
  const unsigned W = ::cuzk::msm::window_count(c, bits), V = (W + K - 1) / K;
  return double(W) * double(n) + double(V) * (r * double(std::size_t(1) << (c - 1)) + 4096.0);
}

}  // namespace

double msm_plain_cost(std::size_t n, unsigned c, unsigned bits) { return cost(n, c, 1, bits); }

double msm_shifted_cost(std::size_t n, const msm_shifts& sh, unsigned bits) {
  return sh.copies ? cost(n, sh.c, sh.copies + 1, bits) : msm_plain_cost(n, msm_window_bits(n, bits), bits);
}

unsigned msm_window_bits(std::size_t n, unsigned bits) {
  unsigned best = 2;
  for (unsigned c = 3; c <= 20; ++c)
    if (cost(n, c, 1, bits, 3) < cost(n, best, 1, bits, 3)) best = c;
  return best;
}

msm_shifts msm_plan_shifts(std::size_t n, unsigned max_copies, unsigned bits) {
  /* every point of every copy has a 31-bit index (booth_keys' values) */
  if (n) {
    const std::size_t fit = (msm_max_shifted_points - 1) / n; /* the bases and fit - 1 copies */
    max_copies = fit ? unsigned(std::min<std::size_t>(max_copies, fit - 1)) : 0;
  }
  msm_shifts best{};
  double best_cost = msm_plain_cost(n, msm_window_bits(n, bits), bits);
  for (unsigned c = 2; c <= msm_max_shifted_window && max_copies; ++c) {
    const unsigned W = ::cuzk::msm::window_count(c, bits);
    const msm_shifts sh{std::min(max_copies, W - 1), c};
    if (!sh.copies) continue;
    if (const double sc = msm_shifted_cost(n, sh, bits); sc < best_cost) best = sh, best_cost = sc;
  }
  return best;
}

std::uint32_t msm_first_chunk(std::size_t items) {
  return items >= (std::size_t(1) << 24) ? 64 : items >= (std::size_t(1) << 20) ? 32 : 16;
}

msm_layout msm_choose_layout(std::size_t n, const msm_shifts& sh, unsigned bits) {
  msm_layout l;
  const unsigned plain_c = msm_window_bits(n, bits);
  const bool shifted = sh.copies && msm_shifted_cost(n, sh, bits) < msm_plain_cost(n, plain_c, bits);
  l.c = shifted ? sh.c : plain_c;
  l.K = shifted ? sh.copies + 1 : 1;
  l.W = ::cuzk::msm::window_count(l.c, bits);
  const std::size_t per_virtual = 16 * std::max<std::size_t>(n, 1) * l.K;
  const unsigned V = (l.W + l.K - 1) / l.K;
  l.per_group = std::min(l.W, l.K * unsigned(std::clamp<std::size_t>(msm_max_sort_bytes / per_virtual, 1, V)));
  l.L0 = msm_first_chunk(std::size_t(l.per_group) * n);
  return l;
}

std::size_t msm_layout_bytes(std::size_t n, const msm_layout& l, std::size_t xyzz_bytes) {
  const std::size_t items = std::size_t(l.per_group) * n, vn = (l.per_group + l.K - 1) / l.K;
  const std::size_t nb = vn * ((std::size_t(1) << (l.c - 1)) + 1);
  /* CUB's sort keeps a digit histogram a tile of each pass: about a byte an item */
  const std::size_t sort = 17 * items + 40 * nb, pieces = 2 * 2 * (items / l.L0 + 1) * xyzz_bytes;
  const std::size_t shares = 4 * vn * ((std::size_t(1) << (l.c - 1)) / 16 + 1) * xyzz_bytes;  // shares and runs
  return sort + nb * xyzz_bytes + pieces + shares + (std::size_t(64) << 20);
}

std::size_t msm_workspace_bytes(std::size_t n, const msm_shifts& sh, std::size_t xyzz_bytes, unsigned bits) {
  return msm_layout_bytes(n, msm_choose_layout(n, sh, bits), xyzz_bytes);
}

}  // namespace cuzk::sizing
