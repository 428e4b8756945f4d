// One block of one NTT pass (plan.hpp), for any field type F with + - * on
// 32-byte elements: the kernels run it with the block's threads, the tests'
// host emulator runs it thread by thread with ff::fr_t. Exec supplies
// threads(fn), fn(tid, x) on each thread's 8 registers x, and sync().
#pragma once

#include <cstdint>
#include <cstring>

#include "cuda/ntt/plan.hpp"

#if defined(__CUDACC__)
#define CUZK_NTT_HD __host__ __device__ __forceinline__
#else
#define CUZK_NTT_HD inline
#endif
#if defined(__CUDA_ARCH__)
#define CUZK_NTT_UNROLL _Pragma("unroll")
#else
#define CUZK_NTT_UNROLL  // the host compiler would ignore "#pragma unroll"
#endif

namespace cuzk::cuda::ntt::detail {

/* which stage kinds a kernel carries code for */
enum stage_set : unsigned { dif_fwd = 1, dif_inv = 2, dit_fwd = 4, dit_inv = 8 };

CUZK_NTT_HD std::uint32_t reverse_bits(std::uint32_t v, unsigned bits) {
  if (bits == 0) return 0;
#if defined(__CUDA_ARCH__)
  return __brev(v) >> (32 - bits);
#else
  v = ((v >> 1) & 0x55555555u) | ((v & 0x55555555u) << 1);
  v = ((v >> 2) & 0x33333333u) | ((v & 0x33333333u) << 2);
  v = ((v >> 4) & 0x0f0f0f0fu) | ((v & 0x0f0f0f0fu) << 4);
  v = ((v >> 8) & 0x00ff00ffu) | ((v & 0x00ff00ffu) << 8);
  return ((v >> 16) | (v << 16)) >> (32 - bits);
#endif
}

/* 32-byte elements as two 16-byte words; tables through the read-only path */
template <class F>
CUZK_NTT_HD F load(const void* base, std::uint32_t i) {
  static_assert(sizeof(F) == 32);
  F r;
#if defined(__CUDA_ARCH__)
  const uint4* q = static_cast<const uint4*>(base) + 2 * std::size_t(i);
  const uint4 w[2] = {q[0], q[1]};
  memcpy(&r, w, 32);
#else
  std::memcpy(&r, static_cast<const char*>(base) + 32 * std::size_t(i), 32);
#endif
  return r;
}

template <class F>
CUZK_NTT_HD F load_table(const void* base, std::uint32_t i) {
#if defined(__CUDA_ARCH__)
  const uint4* q = static_cast<const uint4*>(base) + 2 * std::size_t(i);
  const uint4 w[2] = {__ldg(q), __ldg(q + 1)};
  F r;
  memcpy(&r, w, 32);
  return r;
#else
  return load<F>(base, i);
#endif
}

template <class F>
CUZK_NTT_HD void store(void* base, std::uint32_t i, const F& x) {
#if defined(__CUDA_ARCH__)
  uint4 w[2];
  memcpy(w, &x, 32);
  uint4* q = static_cast<uint4*>(base) + 2 * std::size_t(i);
  q[0] = w[0];
  q[1] = w[1];
#else
  std::memcpy(static_cast<char*>(base) + 32 * std::size_t(i), &x, 32);
#endif
}

/* Where thread tid's register u lives when the registers hold t bits [lo, lo + 3). */
struct geometry {
  const pass& ps;
  std::uint32_t tt, col, base, l;

  CUZK_NTT_HD geometry(const pass& p, std::uint32_t blk, std::uint32_t tid) : ps(p) {
    const unsigned b = p.b, c = p.c;
    if (p.rows) {  // rows [blk 2^c, (blk + 1) 2^c), each 2^b contiguous elements; t varies fastest over threads
      tt = tid & ((1u << (b - reg_log)) - 1);
      col = tid >> (b - reg_log);
      base = ((blk << c) | col) << b;
      l = 0;
    } else {  // columns l = lg 2^c + col of the lines (h, l); col varies fastest over threads
      col = tid & ((1u << c) - 1);
      tt = tid >> c;
      const unsigned groups_log = p.log_l - c;
      const std::uint32_t h = blk >> groups_log, lg = blk & ((1u << groups_log) - 1);
      l = (lg << c) | col;
      base = (h << (p.log_l + b)) | l;
    }
  }
  /* t of register u: tt's bits around u's three */
  CUZK_NTT_HD std::uint32_t t_of(unsigned u, unsigned lo) const {
    return (tt & ((1u << lo) - 1)) | (std::uint32_t(u) << lo) | ((tt >> lo) << (lo + reg_log));
  }
  CUZK_NTT_HD std::uint32_t position(std::uint32_t t) const { return base | (t << ps.log_l); }
  /* index in the block's shared memory, in global order, one pad word per 32 */
  CUZK_NTT_HD std::uint32_t slot(std::uint32_t t) const {
    const std::uint32_t e = ps.rows ? (col << ps.b) | t : (t << ps.c) | col;
    return e + (e >> 5);
  }
  /* n < 8: only positions below n exist */
  CUZK_NTT_HD bool real(std::uint32_t p) const { return ps.log_n >= reg_log || p < (1u << ps.log_n); }
};

/* The stages of u bit UB on all 8 registers. A pair (t, t + 2^s), s = lo + UB,
   has span m = 2^(log_l + s) and j = (t mod 2^s) 2^log_l + l < m: its twiddle
   is ω_2m^j = ω^(j n/2m) = tw[j << (k - 1 - log_l - s)]; ω^-i = -ω^(n/2 - i). */
template <class F, unsigned UB, bool DIT, bool INV>
CUZK_NTT_HD void stage(F* x, const geometry& g, unsigned lo) {
  const pass& ps = g.ps;
  const unsigned s = lo + UB;
  constexpr unsigned bit = 1u << UB;
  if (ps.rows && s == 0) {  // j = 0: ω^0 = 1 in both directions
    CUZK_NTT_UNROLL
    for (unsigned u = 0; u < 8; ++u)
      if (!(u & bit)) {
        const F sum = x[u] + x[u | bit];
        x[u | bit] = x[u] - x[u | bit];
        x[u] = sum;
      }
    return;
  }
  const unsigned shift = ps.log_n - 1 - ps.log_l - s;
  const std::uint32_t half = ps.log_n ? std::uint32_t{1} << (ps.log_n - 1) : 0;
  /* pairs that differ only in u bits above UB share j */
  CUZK_NTT_UNROLL
  for (unsigned low = 0; low < bit; ++low) {
    const std::uint32_t t = g.t_of(low, lo);
    const std::uint32_t j = ((t & ((1u << s) - 1)) << ps.log_l) | g.l;
    const std::uint32_t i = j << shift;
    const F w = load_table<F>(ps.tw, INV ? half - i : i);
    CUZK_NTT_UNROLL
    for (unsigned high = 0; high < 8 / (2 * bit); ++high) {
      const unsigned u = high * 2 * bit + low, v = u | bit;
      if constexpr (!DIT) {
        const F d = INV ? x[v] - x[u] : x[u] - x[v];  // (y - x) ω^(n/2 - i) = (x - y) ω^-i
        x[u] = x[u] + x[v];
        x[v] = d * w;
      } else {
        const F wy = x[v] * w;  // inverse: wy = -ω^-i y
        x[v] = INV ? x[u] + wy : x[u] - wy;
        x[u] = INV ? x[u] - wy : x[u] + wy;
      }
    }
  }
}

template <class F, bool DIT, bool INV>
CUZK_NTT_HD void stages(F* x, const geometry& g, const op& o) {
  if constexpr (DIT) {
    if (o.mask & 1) stage<F, 0, true, INV>(x, g, o.lo);
    if (o.mask & 2) stage<F, 1, true, INV>(x, g, o.lo);
    if (o.mask & 4) stage<F, 2, true, INV>(x, g, o.lo);
  } else {
    if (o.mask & 4) stage<F, 2, false, INV>(x, g, o.lo);
    if (o.mask & 2) stage<F, 1, false, INV>(x, g, o.lo);
    if (o.mask & 1) stage<F, 0, false, INV>(x, g, o.lo);
  }
}

template <class F>
CUZK_NTT_HD F factor_at(const factor_fn& f, std::uint32_t j) {
  if (!f.lo) {
    F c;
    memcpy(&c, f.c, 32);
    return c;
  }
  return load_table<F>(f.lo, j & ((1u << f.lo_bits) - 1)) * load_table<F>(f.hi, j >> f.lo_bits);
}

/* one operation on one thread's registers, which hold t bits [lo, lo + 3) */
template <class F, unsigned S>
CUZK_NTT_HD void apply(F* x, const geometry& g, const op& o, unsigned lo) {
  switch (o.kind) {
    case op_kind::dif:
      if constexpr ((S & dif_fwd) != 0)
        if (!o.inverse) stages<F, false, false>(x, g, o);
      if constexpr ((S & dif_inv) != 0)
        if (o.inverse) stages<F, false, true>(x, g, o);
      break;
    case op_kind::dit:
      if constexpr ((S & dit_fwd) != 0)
        if (!o.inverse) stages<F, true, false>(x, g, o);
      if constexpr ((S & dit_inv) != 0)
        if (o.inverse) stages<F, true, true>(x, g, o);
      break;
    case op_kind::factor:
      CUZK_NTT_UNROLL
      for (unsigned u = 0; u < 8; ++u) {
        const std::uint32_t p = g.position(g.t_of(u, lo));
        if (g.real(p)) x[u] = x[u] * factor_at<F>(o.f, o.reversed ? reverse_bits(p, g.ps.log_n) : p);
      }
      break;
    case op_kind::mulsub:
      CUZK_NTT_UNROLL
      for (unsigned u = 0; u < 8; ++u) {
        const std::uint32_t p = g.position(g.t_of(u, lo));
        if (g.real(p)) x[u] = load_table<F>(o.a, p) * load_table<F>(o.b, p) - x[u];
      }
      break;
  }
}

/* registers from the t bits at `from` to those at `to`, through shared memory (8 word planes) */
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
template <class F, class Exec>
CUZK_NTT_HD void exchange(Exec& ex, const pass& ps, std::uint32_t blk, std::uint32_t* sm, unsigned from, unsigned to) {
  const std::uint32_t e = std::uint32_t{1} << (ps.b + ps.c), plane = e + e / 32;
  ex.threads([&](std::uint32_t tid, F* x) {
    const geometry g(ps, blk, tid);
    CUZK_NTT_UNROLL
    for (unsigned u = 0; u < 8; ++u) {
      std::uint32_t w[8];
      memcpy(w, &x[u], 32);
      const std::uint32_t k = g.slot(g.t_of(u, from));
      CUZK_NTT_UNROLL
      for (unsigned i = 0; i < 8; ++i) sm[i * plane + k] = w[i];
    }
  });
  ex.sync();
  ex.threads([&](std::uint32_t tid, F* x) {
    const geometry g(ps, blk, tid);
    CUZK_NTT_UNROLL
    for (unsigned u = 0; u < 8; ++u) {
      std::uint32_t w[8];
      const std::uint32_t k = g.slot(g.t_of(u, to));
      CUZK_NTT_UNROLL
      for (unsigned i = 0; i < 8; ++i) w[i] = sm[i * plane + k];
      memcpy(&x[u], w, 32);
    }
  });
  ex.sync();
}

/* Load with the registers on the top three t bits (threads on consecutive t or
   l: coalesced), run the operations, store the same way. Column passes load
   and store coalesced in any layout (threads differ in l first), so they skip
   the exchange back. */
#if defined(__CUDACC__)
#pragma nv_exec_check_disable
#endif
template <class F, unsigned S, class Exec>
CUZK_NTT_HD void run_block(Exec& ex, const pass& ps, std::uint32_t blk, std::uint32_t* sm) {
  const unsigned top = ps.b - reg_log;
  unsigned lo = top;
  ex.threads([&](std::uint32_t tid, F* x) {
    const geometry g(ps, blk, tid);
    CUZK_NTT_UNROLL
    for (unsigned u = 0; u < 8; ++u) {
      const std::uint32_t p = g.position(g.t_of(u, lo));
      x[u] = g.real(p) ? load<F>(ps.src, p) : F{};
    }
  });
  for (unsigned i = 0; i < ps.n_ops; ++i) {
    const op& o = ps.ops[i];
    const bool staged = o.kind == op_kind::dif || o.kind == op_kind::dit;
    if (staged && o.lo != lo) {
      exchange<F>(ex, ps, blk, sm, lo, o.lo);
      lo = o.lo;
    }
    ex.threads([&](std::uint32_t tid, F* x) { apply<F, S>(x, geometry(ps, blk, tid), o, lo); });
  }
  if (ps.rows && lo != top) {
    exchange<F>(ex, ps, blk, sm, lo, top);
    lo = top;
  }
  ex.threads([&](std::uint32_t tid, F* x) {
    const geometry g(ps, blk, tid);
    CUZK_NTT_UNROLL
    for (unsigned u = 0; u < 8; ++u) {
      const std::uint32_t p = g.position(g.t_of(u, lo));
      if (g.real(p)) store<F>(ps.dst, p, x[u]);
    }
  });
}

}  // namespace cuzk::cuda::ntt::detail
