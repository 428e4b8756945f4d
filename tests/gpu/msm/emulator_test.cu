// The device Pippenger's per-thread steps (cuda/msm/plan.cuh, buckets.cuh,
// reduce.cuh; level 0 through the same accessor additions on the same
// shared-memory word layout as the kernel) run on the host, thread by thread, with std::stable_sort and
// std::exclusive_scan standing in for CUB, and checked against the CPU's
// msm::g1_msm<C>/g2_msm<C>, in G1 and G2 of both curves. Small windows and
// short segments force crowded buckets, pieces and several accumulation
// levels; shifted copies (shift.cuh, made by its steps here too) fold the
// windows into virtual ones. No device needed.
#include <gtest/gtest.h>

#include <algorithm>
#include <numeric>
#include <string>
#include <vector>

#include "cuda/ec/convert.hpp"
#include "cuda/msm/buckets.cuh"
#include "cuda/msm/group.cuh"
#include "cuda/msm/reduce.cuh"
#include "cuda/msm/shift.cuh"
#include "msm_gpu_util.hpp"
#include "seed.hpp"

namespace cuzk::cuda::msm {
namespace {

struct shape {
  unsigned c;          // window bits
  std::uint32_t L0;    // level-0 segment
  std::uint32_t L;     // later levels' chunk
  std::uint32_t s;     // buckets a reduction share
  unsigned per_group;  // windows a group (a multiple of K)
  unsigned K = 1;      // windows a virtual window: K - 1 shifted copies
};

/* the bases in the device layout and K - 1 copies after them, copy k = 2^c copy k - 1, made by shift.cuh's steps */
template <class A>
std::vector<std::byte> shifted_layout(std::span<const A> host_bases, unsigned c, unsigned K, std::uint32_t T = 5) {
  using F = typename group<A>::field;
  const auto n = std::uint32_t(host_bases.size());
  std::vector<std::byte> packed(std::size_t(K) * n * group<A>::point_bytes);
  to_device_layout(host_bases, std::span(packed).first(std::size_t(n) * group<A>::point_bytes));
  auto* pts = reinterpret_cast<affine<F>*>(packed.data());
  std::vector<xyzz<F>> tmp(n);
  std::vector<F> prefix(n);
  for (unsigned k = 1; k < K; ++k) {
    for (std::uint32_t i = 0; i < n; ++i) kernels::shift_point<F>(i, pts + std::size_t(k - 1) * n, c, tmp.data());
    for (std::uint32_t t = 0; std::size_t(t) * T < n; ++t)
      kernels::to_affine_run<F>(t, tmp.data(), prefix.data(), n, T, pts + std::size_t(k) * n);
  }
  return packed;
}

template <class G>
typename G::jac_t emulate(std::span<const typename G::aff_t> host_bases, std::span<const test::scalar_limbs_t> k,
                          const shape& sh, unsigned* levels_seen = nullptr) {
  using A = typename G::aff_t;
  using F = typename group<A>::field;
  using X = xyzz<F>;
  const std::vector<std::byte> packed = shifted_layout(host_bases, sh.c, sh.K);
  const auto* bases = reinterpret_cast<const affine<F>*>(packed.data());

  const auto n = std::uint32_t(k.size()), stride = std::uint32_t(host_bases.size());
  const unsigned c = sh.c, K = sh.K, W = ::cuzk::msm::window_count(c, group<A>::scalar_bits), V = (W + K - 1) / K;
  const std::uint32_t h = 1u << (c - 1), h1 = h + 1;
  std::vector<std::vector<X>> sums(kernels::reduce_levels(h, sh.s), std::vector<X>(V)); /* [level][v] */
  for (unsigned w0 = 0; w0 < W; w0 += sh.per_group) {
    const unsigned wn = std::min(sh.per_group, W - w0), vn = (wn + K - 1) / K;
    const std::uint32_t nb = vn * h1, items = wn * n;
    /* assignment */
    std::vector<std::uint32_t> keys(items), vals(items);
    for (std::uint32_t i = 0; i < n; ++i) {
      std::uint32_t limbs[8];
      for (int l = 0; l < 4; ++l)
        limbs[2 * l] = std::uint32_t(k[i][l]), limbs[2 * l + 1] = std::uint32_t(k[i][l] >> 32);
      step::booth_keys(i, limbs, nullptr, 0, n, c, w0, wn, K, stride, keys.data(), vals.data());
    }
    std::vector<std::uint32_t> order(items);
    std::iota(order.begin(), order.end(), 0u);
    std::stable_sort(order.begin(), order.end(), [&](auto a, auto b) { return keys[a] < keys[b]; });
    std::vector<std::uint32_t> skeys(items), svals(items);
    for (std::uint32_t e = 0; e < items; ++e) skeys[e] = keys[order[e]], svals[e] = vals[order[e]];
    std::vector<std::uint32_t> unique, lengths;
    for (std::uint32_t e = 0; e < items; ++e) {
      if (e == 0 || skeys[e] != skeys[e - 1]) unique.push_back(skeys[e]), lengths.push_back(0);
      ++lengths.back();
    }
    std::vector<std::uint32_t> counts(nb + 1, 0), offsets(nb + 1);
    for (std::uint32_t r = 0; r < unique.size(); ++r)
      step::scatter_run(r, unique.data(), lengths.data(), c, h1, counts.data());
    std::exclusive_scan(counts.begin(), counts.end(), offsets.begin(), 0u);
    /* accumulation */
    std::vector<X> buckets(nb, X::identity());
    std::vector<std::uint32_t> chunks[2] = {std::vector<std::uint32_t>(nb + 1), std::vector<std::uint32_t>(nb + 1)};
    std::vector<std::uint32_t> first[2] = {std::vector<std::uint32_t>(nb + 1), std::vector<std::uint32_t>(nb + 1)};
    std::vector<std::uint32_t> lcounts(nb + 1), loffsets(nb + 1);
    const std::size_t max_pieces = 2 * (items / sh.L0 + 1);
    std::vector<X> pieces[2] = {std::vector<X>(max_pieces), std::vector<X>(max_pieces)};
    for (std::uint32_t b = 0; b <= nb; ++b)
      step::segment_pieces(b, counts.data(), offsets.data(), nb, h1, sh.L0, chunks[0].data());
    std::exclusive_scan(chunks[0].begin(), chunks[0].end(), first[0].begin(), 0u);
    EXPECT_LE(first[0][nb], max_pieces);
    /* level 0 as the kernel runs it in every group: the running sum through the
       accessor additions, in words laid out as its shared memory (shared_sum) */
    uint4 sum_words[4 * sizeof(F) / 16][1];
    for (std::uint32_t t = 0; std::size_t(t) * sh.L0 < items; ++t)
      kernels::accumulate_segment<F>(t, skeys.data(), svals.data(), bases, items, c, h1, sh.L0, counts.data(),
                                     offsets.data(), first[0].data(), buckets.data(), pieces[0].data(),
                                     kernels::shared_sum<F, 1>{sum_words, 0});
    unsigned cur = 0, levels = 0;
    for (std::size_t most = (std::size_t(K) * n + sh.L0 - 1) / sh.L0 + 1; most > 1; most = (most + sh.L - 1) / sh.L) {
      const unsigned next = 1 - cur;
      for (std::uint32_t b = 0; b <= nb; ++b)
        step::next_chunks(b, chunks[cur].data(), first[cur].data(), nb, sh.L, lcounts.data(), loffsets.data(),
                          chunks[next].data());
      std::exclusive_scan(chunks[next].begin(), chunks[next].end(), first[next].begin(), 0u);
      EXPECT_LE(first[next][nb], max_pieces);
      for (std::uint32_t t = 0; t < first[next][nb]; ++t)
        kernels::accumulate_chunk<F>(t, pieces[cur].data(), lcounts.data(), loffsets.data(), first[next].data(), nb,
                                     sh.L, buckets.data(), pieces[next].data());
      levels += first[next][nb] > 0;
      cur = next;
    }
    if (levels_seen) *levels_seen = std::max(*levels_seen, levels);
    /* after the last level no bucket is left in pieces */
    for (std::uint32_t b = 0; b < nb; ++b) EXPECT_LE(chunks[cur][b], 1u) << "bucket " << b;
    /* reduction, level by level: the R_j of one level are the next level's buckets */
    const unsigned reduce_levels = kernels::reduce_levels(h, sh.s);
    std::vector<X> level_buckets = buckets;
    std::uint32_t hk = h;
    for (unsigned k = 0; k < reduce_levels; ++k) {
      const std::uint32_t segs = (hk + sh.s - 1) / sh.s;
      std::vector<X> a(vn * segs), bb(vn * segs), runs(vn * segs);
      for (std::uint32_t t = 0; t < vn * segs; ++t)
        kernels::window_share<F>(t, level_buckets.data(), hk, sh.s, a.data(), runs.data());
      for (std::uint32_t len = segs; len > 1; len = (len + 7) / 8) {
        for (std::uint32_t t = 0; t < vn * ((len + 7) / 8); ++t) kernels::sum_run<F>(t, a.data(), len, 8, bb.data());
        std::swap(a, bb);
      }
      for (unsigned j = 0; j < vn; ++j) sums[k][w0 / K + j] = a[j];
      level_buckets = std::move(runs);
      hk = segs - 1;
    }
  }
  typename G::jac_t r;
  std::vector<typename G::jac_t> u(kernels::reduce_levels(h, sh.s));
  for (unsigned v = V; v-- > 0;) {
    for (unsigned i = 0; i < K * c; ++i) r = r.dbl();
    for (unsigned k = 0; k < u.size(); ++k) u[k] = group<A>::from_xyzz(reinterpret_cast<const std::byte*>(&sums[k][v]));
    r = r + kernels::combine_levels(u.data(), unsigned(u.size()), sh.s);
  }
  return r;
}

template <class G>
class MsmEmulator : public ::testing::Test {
 protected:
  std::mt19937_64 rng = cuzk::test::rng(std::hash<std::string>{}(test::group_names::GetName<G>(0)) + 977);
};
TYPED_TEST_SUITE(MsmEmulator, test::all_groups, test::group_names);

TYPED_TEST(MsmEmulator, MatchesTheCpuWithCrowdedBucketsAndManyLevels) {
  const auto bases = TypeParam::random_bases(this->rng, 600);
  unsigned levels = 0;
  for (const shape sh : {shape{3, 4, 2, 2, 100}, shape{5, 16, 8, 16, 3}, shape{9, 8, 2, 4, 1}, shape{2, 2, 2, 1, 7},
                         shape{6, 4, 2, 3, 5}}) {
    for (std::size_t n : {1, 2, 3, 17, 600}) {
      SCOPED_TRACE("c = " + std::to_string(sh.c) + ", n = " + std::to_string(n));
      auto k = TypeParam::random_scalars(this->rng, n);
      EXPECT_EQ(emulate<TypeParam>(std::span(bases).first(n), k, sh).to_affine(),
                TypeParam::cpu(std::span(bases).first(n), k).to_affine());
      /* one value everywhere: a single bucket a window holds every point */
      std::fill(k.begin(), k.end(), n % 2 ? TypeParam::minus_one() : TypeParam::random_scalar(this->rng));
      EXPECT_EQ(emulate<TypeParam>(std::span(bases).first(n), k, sh, &levels).to_affine(),
                TypeParam::cpu(std::span(bases).first(n), k).to_affine());
    }
  }
  EXPECT_GE(levels, 3u); /* the crowded buckets went through several levels of pieces */
}

TYPED_TEST(MsmEmulator, ShiftedCopiesAreTheBasesTimesPowersOfTwo) {
  using A = typename TypeParam::aff_t;
  using F = typename group<A>::field;
  auto bases = TypeParam::random_bases(this->rng, 23);
  bases[0] = {}; /* infinity stays infinity; a run starting with it, and one inside a run */
  bases[6] = {};
  bases[7] = bases[8];
  for (unsigned c : {1u, 4u, 13u}) {
    SCOPED_TRACE(c);
    for (std::uint32_t T : {1u, 5u, 23u, 64u}) {
      const auto packed = shifted_layout(std::span<const A>(bases), c, 3, T);
      const auto* dev = reinterpret_cast<const affine<F>*>(packed.data());
      for (std::size_t i = 0; i < bases.size(); ++i) {
        auto p = TypeParam::jac_t::from_affine(bases[i]);
        for (unsigned k = 0; k < 3; ++k) {
          const A want = p.to_affine();
          std::vector<std::byte> expect(group<A>::point_bytes);
          to_device_layout(std::span<const A>(&want, 1), expect);
          const auto* got = reinterpret_cast<const std::byte*>(dev + k * bases.size() + i);
          EXPECT_TRUE(std::equal(expect.begin(), expect.end(), got)) << "base " << i << ", copy " << k << ", T " << T;
          for (unsigned j = 0; j < c; ++j) p = p.dbl();
        }
      }
    }
  }
}

TYPED_TEST(MsmEmulator, ShiftedCopiesFoldTheWindowsAndMatchTheCpu) {
  const auto bases = TypeParam::random_bases(this->rng, 300);
  unsigned levels = 0;
  /* every window in one virtual window; two and a remainder; groups of two virtual windows */
  for (const shape sh :
       {shape{9, 8, 2, 16, 29, 29}, shape{11, 16, 8, 16, 24, 12}, shape{5, 4, 2, 4, 6, 3}, shape{4, 4, 2, 2, 64, 64}}) {
    for (std::size_t n : {1, 2, 33, 300}) {
      SCOPED_TRACE("c = " + std::to_string(sh.c) + ", K = " + std::to_string(sh.K) + ", n = " + std::to_string(n));
      auto k = TypeParam::random_scalars(this->rng, n);
      EXPECT_EQ(emulate<TypeParam>(std::span(bases).first(n), k, sh).to_affine(),
                TypeParam::cpu(std::span(bases).first(n), k).to_affine());
      std::fill(k.begin(), k.end(), TypeParam::minus_one());
      EXPECT_EQ(emulate<TypeParam>(std::span(bases).first(n), k, sh, &levels).to_affine(),
                TypeParam::cpu(std::span(bases).first(n), k).to_affine());
    }
  }
  EXPECT_GE(levels, 2u);
}

TYPED_TEST(MsmEmulator, SumOfBasesMatchesTheCpu) {
  using A = typename TypeParam::aff_t;
  using F = typename group<A>::field;
  auto bases = TypeParam::random_bases(this->rng, 300);
  bases[7] = {};
  bases[8] = bases[9];
  bases[10] = -bases[11];
  std::vector<std::byte> packed(bases.size() * group<A>::point_bytes);
  to_device_layout(std::span<const A>(bases), packed);
  const auto* dev = reinterpret_cast<const affine<F>*>(packed.data());
  std::vector<xyzz<F>> part((bases.size() + 15) / 16);
  for (std::uint32_t q = 0; q < part.size(); ++q)
    kernels::sum_base<F>(q, dev, nullptr, 0, std::uint32_t(bases.size()), 16, part.data());
  std::vector<xyzz<F>> out(1);
  kernels::sum_run<F>(0, part.data(), std::uint32_t(part.size()), std::uint32_t(part.size()), out.data());
  EXPECT_EQ(group<A>::from_xyzz(reinterpret_cast<const std::byte*>(out.data())).to_affine(),
            TypeParam::cpu_sum(bases).to_affine());
}

}  // namespace
}  // namespace cuzk::cuda::msm
