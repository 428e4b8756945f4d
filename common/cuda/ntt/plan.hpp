// How a transform of n = 2^k elements splits into kernel passes, each a list
// of operations on the blocks of one pass (plain data, no CUDA types: the
// host builds them, the kernels and the host emulator of the tests read them).
//
// A pass transforms the index bits [log_l, log_l + b): the element at
// position p = h 2^(log_l + b) + t 2^log_l + l belongs to the line (h, l) and
// has index t < 2^b in it; radix-2 stages of global span m = 2^(log_l + s)
// pair t and t + 2^s within each line. A block holds 2^c whole lines
// (columns: consecutive l, so that loads are runs of 2^c elements; rows:
// log_l = 0, consecutive h); each thread holds 8 elements of one line in
// registers, those whose t differ in three bits [lo, lo + 3) only, and runs up
// to three stages on them; the block exchanges elements through shared memory
// when the next round needs other bits.
#pragma once

#include <cstdint>
#include <span>
#include <vector>

namespace cuzk::cuda::ntt::detail {

inline constexpr unsigned reg_log = 3;       // 8 elements per thread
inline constexpr unsigned block_log = 11;    // 2^11 elements per block (64 KiB of shared memory)
inline constexpr unsigned min_cols_log = 2;  // column passes move runs of >= 4 elements (128 B)
inline constexpr unsigned max_log_n = 31;    // positions are 32-bit
inline constexpr unsigned max_ops = 12;

enum class op_kind : std::uint8_t {
  dif,     // Gentleman-Sande stages: (x, y) <- (x + y, (x - y) ω_2m^j)
  dit,     // Cooley-Tukey stages:    (x, y) <- (x + ω_2m^j y, x - ω_2m^j y)
  factor,  // x <- x f(j), j = p or rev_k(p)
  mulsub,  // x <- a[p] b[p] - x
};

/* f(j) = lo[j mod 2^lo_bits] hi[j >> lo_bits] (tables of Fr), or the constant c when lo is null */
struct factor_fn {
  const void* lo = nullptr;
  const void* hi = nullptr;
  std::uint32_t lo_bits = 0;
  std::uint32_t c[8] = {};  // Montgomery form, the bytes of ff::fr<C> (32 on either curve)
};

struct op {
  op_kind kind = op_kind::factor;
  std::uint8_t lo = 0;      // stages: register u's bit i is t's bit lo + i
  std::uint8_t mask = 0;    // stages: which of the three u bits (DIF from the top, DIT from the bottom)
  bool inverse = false;     // stages: ω^-1
  bool reversed = false;    // factor: j = rev_k(p)
  factor_fn f;              // factor
  const void* a = nullptr;  // mulsub
  const void* b = nullptr;
};

struct pass {
  const void* src = nullptr;  // read once per element, before dst is written
  void* dst = nullptr;
  const void* tw = nullptr;  // ω^i, i in [0, n/2]
  std::uint8_t log_n = 0, log_l = 0, b = 0, c = 0;
  bool rows = true;
  std::uint8_t n_ops = 0;
  op ops[max_ops];

  unsigned block_elems_log() const { return b + c; }
  std::uint32_t threads() const { return std::uint32_t{1} << (b + c - reg_log); }
  /* n < 8 runs as one block of one thread over 8 slots, 2^k of them real */
  std::uint32_t blocks() const { return log_n < b + c ? 1 : std::uint32_t{1} << (log_n - b - c); }
  std::size_t shared_bytes() const;
  void push(const op& o);
};

/* stage counts of the passes of a DIF transform, from the top index bits down;
   the last is the row pass, the others are column passes (a DIT runs them in reverse) */
std::vector<unsigned> pass_sizes(unsigned log_n);

/* What runs before the first pass's stages and after the last's. */
struct edge_ops {
  std::vector<op> pre, post;
};

/* A transform of 2^log_n elements from src to dst (one pass reads src, the
   others work in place in dst): DIF (natural in, bit-reversed out) or DIT
   (bit-reversed in, natural out), with ω or ω^-1. */
void append_dif(std::vector<pass>& out, unsigned log_n, const void* tw, bool inverse, const void* src, void* dst,
                const edge_ops& e);
void append_dit(std::vector<pass>& out, unsigned log_n, const void* tw, bool inverse, const void* src, void* dst,
                const edge_ops& e);
/* An inverse DIF, then `middle` on its bit-reversed output, then a forward DIT
   back to natural order: the row passes of both run as one kernel. */
void append_dif_dit(std::vector<pass>& out, unsigned log_n, const void* tw, const void* src, void* dst,
                    const op& middle, const edge_ops& e);

op factor_op(const factor_fn& f, bool reversed);
op mulsub_op(const void* a, const void* b);

}  // namespace cuzk::cuda::ntt::detail
