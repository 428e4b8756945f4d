// The device Pippenger and sum, templated over the group (the translation
// units made from group_msm.cu.in instantiate them, one group of one curve
// each). Per group of windows (sized so that the sort buffers stay near
// max_sort_bytes):
//   assign_buckets      signed digits, CUB sort / run-length encode / scan (assign.cu)
//   accumulate_*        XYZZ bucket sums: level 0 from the bases, then from pieces (buckets.cuh)
//   window_shares       sum_m m B_m by segmented running sums (reduce.cuh)
//   sum_runs            the shares of a window added down to S_w
// and on the host, with the CPU's curve code: sum_w 2^(wc) S_w by Horner.
// Over shifted copies (layout.hpp) a group is whole virtual windows of K
// windows each, and Horner steps 2^(Kc) between virtual windows.
#pragma once

#include <algorithm>
#include <cstddef>
#include <cstdint>
#include <stdexcept>
#include <string>
#include <vector>

#include "cuda/error.hpp"
#include "cuda/msm/assign.hpp"
#include "cuda/msm/booth.cuh"
#include "cuda/msm/buckets.cuh"
#include "cuda/msm/group.cuh"
#include "cuda/msm/layout.hpp"
#include "cuda/msm/msm.hpp"
#include "cuda/msm/reduce.cuh"
#include "cuda/msm/shift.cuh"
#include "cuda/msm/workspace.hpp"

namespace cuzk::cuda::msm {

namespace detail {

constexpr unsigned block = 128;
inline unsigned grid(std::size_t threads) { return unsigned((threads + block - 1) / block); }

constexpr std::uint32_t piece_chunk = 8;    /* L of the levels after the first */
constexpr std::uint32_t share_buckets = 16; /* s of window_shares */
constexpr std::uint32_t run_chunk = 8;      /* K of sum_runs */
constexpr std::uint32_t sum_chunk = 32;     /* K of sum_bases */
constexpr std::uint32_t affine_run = 16;    /* T of to_affine_runs */
constexpr std::size_t shift_chunk = std::size_t(1) << 21;

/* The point buffers of one group of windows (vn virtual windows of h buckets, items entries): XYZZ
   buckets, pieces (ping-pong), window shares and the reduction's segment sums (ping-pong each); made
   at upload by device_bases::prepare, reused by every pippenger call. */
template <class X>
struct group_buffers {
  X* buckets;
  X* pieces[2];
  X* shares[2];
  X* runs[2];
};
template <class X>
group_buffers<X> reserve_group(workspace& ws, std::size_t vn, std::size_t h, std::size_t items, std::uint32_t L0) {
  /* level 0 leaves at most two pieces a segment; a later level at most
     pieces / L + (buckets with pieces) <= pieces / 8 + pieces / 2 */
  const std::size_t pieces = 2 * (items / L0 + 1), segs = (h + share_buckets - 1) / share_buckets;
  auto at = [](device_buffer<std::byte>& b, std::size_t n, const char* what) {
    return reinterpret_cast<X*>(ensure(b, n * sizeof(X), what));
  };
  group_buffers<X> g;
  g.buckets = at(ws.buckets, vn * (h + 1), "MSM buckets");
  for (int i = 0; i < 2; ++i) {
    g.pieces[i] = at(ws.pieces[i], pieces, "MSM bucket pieces");
    g.shares[i] = at(ws.shares[i], vn * segs, "MSM window shares");
    g.runs[i] = at(ws.runs[i], vn * segs, "MSM window shares");
  }
  return g;
}

/* segs runs of len points at a -> one point each, ping-ponging between a and b; returns where they end */
template <class F>
xyzz<F>* sum_down(xyzz<F>* a, xyzz<F>* b, std::uint32_t len, std::uint32_t segs, cudaStream_t st) {
  while (len > 1) {
    const std::uint32_t out_len = (len + run_chunk - 1) / run_chunk;
    if constexpr (outlined_points<F>)
      kernels::sum_runs_shared<F><<<grid(std::size_t(segs) * out_len), block, 0, st>>>(a, len, segs, run_chunk, b);
    else
      kernels::sum_runs<F><<<grid(std::size_t(segs) * out_len), block, 0, st>>>(a, len, segs, run_chunk, b);
    CUZK_CUDA_LAUNCHED();
    std::swap(a, b);
    len = out_len;
  }
  return a;
}

}  // namespace detail

template <class Affine>
device_bases<Affine>::device_bases(std::span<const Affine> host, cudaStream_t s, unsigned room)
    : n_(host.size()), ws_(std::make_unique<workspace>()), mutex_(std::make_unique<std::mutex>()) {
  constexpr std::size_t bytes = group<Affine>::point_bytes;
  if (n_ >= (std::size_t(1) << 31)) throw std::invalid_argument("msm: at most 2^31 - 1 bases");
  points_ = device_buffer<std::byte>(std::max<std::size_t>(n_, 1) * (room + 1) * bytes, "MSM bases");
  /* packed on the host a slice at a time */
  constexpr std::size_t slice = std::size_t(1) << 18;
  std::vector<std::byte> packed(std::min(n_, slice) * bytes);
  for (std::size_t lo = 0; lo < n_; lo += slice) {
    const std::size_t m = std::min(slice, n_ - lo);
    to_device_layout(host.subspan(lo, m), std::span<std::byte>(packed.data(), m * bytes));
    CUZK_CUDA_OK(cudaMemcpyAsync(points_.data() + lo * bytes, packed.data(), m * bytes, cudaMemcpyHostToDevice, s));
    CUZK_CUDA_OK(cudaStreamSynchronize(s));
  }
}

template <class Affine>
device_bases<Affine> device_bases<Affine>::from_device_layout(std::span<const std::uint8_t> bytes, cudaStream_t s,
                                                              unsigned room) {
  constexpr std::size_t point = group<Affine>::point_bytes;
  if (bytes.size() % point)
    throw std::invalid_argument("msm: " + std::to_string(bytes.size()) + " bytes are not a whole number of points");
  device_bases b;
  b.n_ = bytes.size() / point;
  if (b.n_ >= (std::size_t(1) << 31)) throw std::invalid_argument("msm: at most 2^31 - 1 bases");
  b.points_ = device_buffer<std::byte>(std::max<std::size_t>(b.n_, 1) * (room + 1) * point, "MSM bases");
  b.ws_ = std::make_unique<workspace>();
  b.mutex_ = std::make_unique<std::mutex>();
  if (!bytes.empty())
    CUZK_CUDA_OK(cudaMemcpyAsync(b.points_.data(), bytes.data(), bytes.size(), cudaMemcpyHostToDevice, s));
  return b;
}

template <class Affine>
device_bases<Affine> device_bases<Affine>::from_filler(std::size_t bytes, const std::function<void(std::byte*)>& fill,
                                                       unsigned room) {
  constexpr std::size_t point = group<Affine>::point_bytes;
  if (bytes % point)
    throw std::invalid_argument("msm: " + std::to_string(bytes) + " bytes are not a whole number of points");
  device_bases b;
  b.n_ = bytes / point;
  if (b.n_ >= (std::size_t(1) << 31)) throw std::invalid_argument("msm: at most 2^31 - 1 bases");
  b.points_ = device_buffer<std::byte>(std::max<std::size_t>(b.n_, 1) * (room + 1) * point, "MSM bases");
  b.ws_ = std::make_unique<workspace>();
  b.mutex_ = std::make_unique<std::mutex>();
  if (bytes) fill(b.points_.data());
  return b;
}

template <class Affine>
device_bases<Affine>::device_bases(device_bases&&) noexcept = default;
template <class Affine>
device_bases<Affine>& device_bases<Affine>::operator=(device_bases&&) noexcept = default;
template <class Affine>
device_bases<Affine>::~device_bases() = default;

template <class Affine>
void device_bases<Affine>::shift(const shifts& sh, cudaStream_t st) {
  using namespace detail;
  using F = typename group<Affine>::field;
  using P = affine<F>;
  constexpr std::size_t point = group<Affine>::point_bytes;
  if (sh.copies && (sh.c < 1 || sh.c > max_shifted_window))
    throw std::invalid_argument("msm: shifted copies need a window of 1 to " + std::to_string(max_shifted_window) +
                                " bits, not " + std::to_string(sh.c));
  if (std::size_t(sh.copies + 1) * n_ >= max_shifted_points)
    throw std::invalid_argument("msm: " + std::to_string(sh.copies) + " copies of " + std::to_string(n_) +
                                " bases pass 2^31 points");
  std::lock_guard<std::mutex> hold(*mutex_);
  const std::size_t need = std::max<std::size_t>(n_, 1) * (sh.copies + 1) * point;
  if (points_.size() < need) {
    device_buffer<std::byte> grown(need, "MSM bases and shifted copies");
    if (n_) CUZK_CUDA_OK(cudaMemcpyAsync(grown.data(), points_.data(), n_ * point, cudaMemcpyDeviceToDevice, st));
    CUZK_CUDA_OK(cudaStreamSynchronize(st));
    points_ = std::move(grown);
  }
  shifts_ = {};
  if (sh.copies && n_) {
    const std::size_t chunk = std::min(n_, shift_chunk);
    device_buffer<std::byte> tmp(chunk * sizeof(xyzz<F>), "MSM shift temporaries");
    device_buffer<std::byte> prefix(chunk * sizeof(F), "MSM shift temporaries");
    auto* pts = reinterpret_cast<P*>(points_.data());
    for (unsigned k = 1; k <= sh.copies; ++k)
      for (std::size_t lo = 0; lo < n_; lo += chunk) {
        const auto m = std::uint32_t(std::min(chunk, n_ - lo));
        auto* x = reinterpret_cast<xyzz<F>*>(tmp.data());
        kernels::shift_points<F><<<grid(m), block, 0, st>>>(pts + (k - 1) * n_ + lo, m, sh.c, x);
        CUZK_CUDA_LAUNCHED();
        kernels::to_affine_runs<F><<<grid((m + affine_run - 1) / affine_run), block, 0, st>>>(
            x, reinterpret_cast<F*>(prefix.data()), m, affine_run, pts + k * n_ + lo);
        CUZK_CUDA_LAUNCHED();
      }
    CUZK_CUDA_OK(cudaStreamSynchronize(st));
  }
  shifts_ = sh.copies ? sh : shifts{};
}

template <class Affine>
void device_bases<Affine>::prepare(std::size_t n, cudaStream_t st) const {
  using X = xyzz<typename group<Affine>::field>;
  if (n == 0) return;
  std::lock_guard<std::mutex> hold(*mutex_);
  const layout l = choose_layout(n, shifts_, group<Affine>::scalar_bits);
  const std::size_t items = std::size_t(l.per_group) * n, vn = (l.per_group + l.K - 1) / l.K;
  reserve_assign(*ws_, n, l.c, l.per_group, l.K, st);
  detail::reserve_group<X>(*ws_, vn, std::size_t(1) << (l.c - 1), items, l.L0);
}

template <class Affine>
jacobian_of<Affine> pippenger(const device_bases<Affine>& bases, const scalars& s, cudaStream_t st,
                              phase_times* times) {
  using namespace detail;
  using F = typename group<Affine>::field;
  using X = xyzz<F>;
  using jacobian = typename group<Affine>::jacobian;
  if (s.n == 0) return {};
  if (s.n >= (std::size_t(1) << 31)) throw std::invalid_argument("msm: at most 2^31 - 1 scalars");
  std::lock_guard<std::mutex> hold(bases.lock());
  workspace& ws = bases.scratch();

  const auto n = std::uint32_t(s.n);
  constexpr unsigned bits = group<Affine>::scalar_bits;
  const layout l = choose_layout(n, bases.shifted(), bits);
  const unsigned c = l.c, W = l.W, K = l.K;
  const std::uint32_t h = std::uint32_t(1) << (c - 1), h1 = h + 1;
  const auto stride = std::uint32_t(bases.size());
  const auto* points = reinterpret_cast<const affine<F>*>(bases.data());

  const unsigned V = (W + K - 1) / K, levels = kernels::reduce_levels(h, share_buckets);
  std::vector<std::byte> level_sums(std::size_t(levels) * V * sizeof(X)); /* U_k of virtual window v at k V + v */
  std::vector<event> marks; /* with times: 4 a group, before and after each phase */
  auto mark = [&] {
    if (times) marks.emplace_back().record(st);
  };
  for (unsigned w0 = 0; w0 < W; w0 += l.per_group) {
    const unsigned wn = std::min(l.per_group, W - w0), vn = (wn + K - 1) / K;
    const std::uint32_t nb = vn * h1;
    const std::size_t items = std::size_t(wn) * n;
    mark();
    assign_buckets(ws, s, c, w0, wn, K, stride, st);
    mark();

    const std::uint32_t L0 = l.L0;
    const group_buffers<X> g = reserve_group<X>(ws, vn, h, items, L0);
    X* buckets = g.buckets;
    X* const* pieces = g.pieces;
    std::size_t threads = 2 * (items / L0 + 1);                                 /* the pieces level 0 may leave */
    CUZK_CUDA_OK(cudaMemsetAsync(buckets, 0, std::size_t(nb) * sizeof(X), st)); /* ZZ = 0: empty buckets */

    plan_first_level(ws, nb, h1, L0, st);
    /* G1 and G2 alike: the running sums in shared memory (buckets.cuh) */
    static_assert(kernels::shared_sum_block == block);
    kernels::accumulate_segments_shared<F><<<grid((items + L0 - 1) / L0), block, 0, st>>>(
        ws.keys[1].data(), ws.vals[1].data(), points, std::uint32_t(items), c, h1, L0, ws.counts.data(),
        ws.offsets.data(), ws.first[0].data(), buckets, pieces[0]);
    CUZK_CUDA_LAUNCHED();
    /* a bucket of at most K n entries meets at most ceil(K n / L0) + 1 segments */
    unsigned cur = 0;
    for (std::size_t most = (std::size_t(K) * n + L0 - 1) / L0 + 1; most > 1;
         most = (most + piece_chunk - 1) / piece_chunk) {
      plan_next_level(ws, cur, nb, piece_chunk, st);
      threads = threads / piece_chunk + nb + 1;
      if constexpr (group<Affine>::is_g2)
        kernels::accumulate_chunks_shared<F>
            <<<grid(threads), block, 0, st>>>(pieces[cur], ws.level_counts.data(), ws.level_offsets.data(),
                                              ws.first[1 - cur].data(), nb, piece_chunk, buckets, pieces[1 - cur]);
      else
        kernels::accumulate_chunks<F>
            <<<grid(threads), block, 0, st>>>(pieces[cur], ws.level_counts.data(), ws.level_offsets.data(),
                                              ws.first[1 - cur].data(), nb, piece_chunk, buckets, pieces[1 - cur]);
      CUZK_CUDA_LAUNCHED();
      cur = 1 - cur;
    }

    mark();
    X* const* shares = g.shares;
    X* const* runs = g.runs;
    /* level k: the shares of hk "buckets" at b (stride hk + 1); their R_j are level k + 1's */
    const X* b = buckets;
    std::uint32_t hk = h;
    for (unsigned k = 0; k < levels; ++k) {
      const std::uint32_t sk = (hk + share_buckets - 1) / share_buckets;
      const std::size_t shares_k = std::size_t(vn) * sk;
      if constexpr (group<Affine>::is_g2)
        kernels::window_shares_shared<F>
            <<<unsigned((shares_k + kernels::share_block - 1) / kernels::share_block), kernels::share_block, 0, st>>>(
                b, vn, hk, share_buckets, shares[0], runs[k % 2]);
      else
        kernels::window_shares<F><<<grid(shares_k), block, 0, st>>>(b, vn, hk, share_buckets, shares[0], runs[k % 2]);
      CUZK_CUDA_LAUNCHED();
      const X* U = sum_down<F>(shares[0], shares[1], sk, vn, st);
      CUZK_CUDA_OK(cudaMemcpyAsync(level_sums.data() + (std::size_t(k) * V + w0 / K) * sizeof(X), U, vn * sizeof(X),
                                   cudaMemcpyDeviceToHost, st));
      b = runs[k % 2];
      hk = sk - 1;
    }
    mark();
  }
  CUZK_CUDA_OK(cudaStreamSynchronize(st));
  for (std::size_t g = 0; g + 3 < marks.size(); g += 4) {
    times->assign_ms += event::ms(marks[g], marks[g + 1]);
    times->accumulate_ms += event::ms(marks[g + 1], marks[g + 2]);
    times->reduce_ms += event::ms(marks[g + 2], marks[g + 3]);
  }

  /* S_v from its levels; sum_v 2^(vKc) S_v = (...(S_{V-1} 2^(Kc) + S_{V-2}) 2^(Kc) ...) + S_0 */
  jacobian r;
  std::vector<jacobian> u(levels);
  for (unsigned v = V; v-- > 0;) {
    for (unsigned i = 0; i < K * c && !r.is_identity(); ++i) r = r.dbl();
    for (unsigned k = 0; k < levels; ++k)
      u[k] = group<Affine>::from_xyzz(level_sums.data() + (std::size_t(k) * V + v) * sizeof(X));
    r = r + kernels::combine_levels(u.data(), levels, share_buckets);
  }
  return r;
}

template <class Affine>
jacobian_of<Affine> sum(const device_bases<Affine>& bases, const std::uint32_t* idx, std::uint32_t first,
                        std::size_t count, cudaStream_t st) {
  using namespace detail;
  using F = typename group<Affine>::field;
  using X = xyzz<F>;
  if (count == 0) return {};
  if (count >= (std::size_t(1) << 31)) throw std::invalid_argument("msm: at most 2^31 - 1 points to sum");
  std::lock_guard<std::mutex> hold(bases.lock());
  workspace& ws = bases.scratch();
  const auto n = std::uint32_t(count);
  const std::uint32_t len = (n + sum_chunk - 1) / sum_chunk;
  X* a = reinterpret_cast<X*>(ensure(ws.shares[0], std::size_t(len) * sizeof(X), "MSM window shares"));
  X* b = reinterpret_cast<X*>(ensure(ws.shares[1], std::size_t(len) * sizeof(X), "MSM window shares"));
  kernels::sum_bases<F>
      <<<grid(len), block, 0, st>>>(reinterpret_cast<const affine<F>*>(bases.data()), idx, first, n, sum_chunk, a);
  CUZK_CUDA_LAUNCHED();
  const X* total = sum_down<F>(a, b, len, 1, st);
  std::byte out[sizeof(X)];
  CUZK_CUDA_OK(cudaMemcpyAsync(out, total, sizeof(X), cudaMemcpyDeviceToHost, st));
  CUZK_CUDA_OK(cudaStreamSynchronize(st));
  return group<Affine>::from_xyzz(out);
}

}  // namespace cuzk::cuda::msm
