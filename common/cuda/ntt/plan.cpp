#include "cuda/ntt/plan.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

namespace cuzk::cuda::ntt::detail {

std::size_t pass::shared_bytes() const {
  const std::size_t e = std::size_t{1} << (b + c);
  return 8 * (e + e / 32) * sizeof(std::uint32_t);  // 8 word planes, one pad word per 32 (bank spread)
}

void pass::push(const op& o) {
  if (n_ops == max_ops) throw std::logic_error("ntt pass: more than " + std::to_string(max_ops) + " operations");
  ops[n_ops++] = o;
}

std::vector<unsigned> pass_sizes(unsigned log_n) {
  if (log_n > max_log_n) throw std::invalid_argument("NTT of 2^" + std::to_string(log_n) + " elements");
  if (log_n < reg_log) return {reg_log};  // one thread, 2^log_n of its 8 slots real
  if (log_n <= block_log) return {log_n};
  unsigned last = block_log, rest = log_n - block_log;
  if (rest < reg_log) {  // a column pass needs >= 3 stages: take them from the row pass
    last -= reg_log - rest;
    rest = reg_log;
  }
  const unsigned widest = block_log - min_cols_log;
  const unsigned count = (rest + widest - 1) / widest;
  std::vector<unsigned> sizes;
  for (unsigned i = 0; i < count; ++i) sizes.push_back(rest / count + (i < rest % count ? 1 : 0));
  sizes.push_back(last);
  return sizes;
}

namespace {

op stage_op(op_kind kind, unsigned lo, unsigned mask, bool inverse) {
  op o;
  o.kind = kind;
  o.lo = std::uint8_t(lo);
  o.mask = std::uint8_t(mask);
  o.inverse = inverse;
  return o;
}

/* rounds from the top bits down: [b-3, b), [b-6, b-3), ..., then the b mod 3 lowest */
void dif_rounds(pass& ps, bool inverse) {
  if (ps.log_n < reg_log) {
    if (ps.log_n > 0) ps.push(stage_op(op_kind::dif, 0, (1u << ps.log_n) - 1, inverse));
    return;
  }
  unsigned hi = ps.b;
  for (; hi >= reg_log; hi -= reg_log) ps.push(stage_op(op_kind::dif, hi - reg_log, 7, inverse));
  if (hi > 0) ps.push(stage_op(op_kind::dif, 0, (1u << hi) - 1, inverse));
}

/* the mirror: the b mod 3 lowest bits first, then [r, r+3), [r+3, r+6), ... */
void dit_rounds(pass& ps, bool inverse) {
  if (ps.log_n < reg_log) {
    if (ps.log_n > 0) ps.push(stage_op(op_kind::dit, 0, (1u << ps.log_n) - 1, inverse));
    return;
  }
  const unsigned rem = ps.b % reg_log;
  if (rem > 0) ps.push(stage_op(op_kind::dit, 0, (1u << rem) - 1, inverse));
  for (unsigned lo = rem; lo + reg_log <= ps.b; lo += reg_log) ps.push(stage_op(op_kind::dit, lo, 7, inverse));
}

pass make_pass(unsigned log_n, unsigned log_l, unsigned b, const void* tw, const void* src, void* dst) {
  pass ps;
  ps.src = src;
  ps.dst = dst;
  ps.tw = tw;
  ps.log_n = std::uint8_t(log_n);
  ps.log_l = std::uint8_t(log_l);
  ps.b = std::uint8_t(b);
  ps.rows = log_l == 0;
  if (ps.rows) {
    const unsigned lines = log_n > b ? log_n - b : 0;
    ps.c = std::uint8_t(std::min(block_log - std::min(b, block_log), lines));
  } else {
    ps.c = std::uint8_t(block_log - b);
    if (ps.c > log_l || ps.c < min_cols_log) throw std::logic_error("ntt plan: column pass without whole runs");
  }
  return ps;
}

void push_all(pass& ps, const std::vector<op>& ops) {
  for (const op& o : ops) ps.push(o);
}

}  // namespace

op factor_op(const factor_fn& f, bool reversed) {
  op o;
  o.kind = op_kind::factor;
  o.f = f;
  o.reversed = reversed;
  return o;
}

op mulsub_op(const void* a, const void* b) {
  op o;
  o.kind = op_kind::mulsub;
  o.a = a;
  o.b = b;
  return o;
}

void append_dif(std::vector<pass>& out, unsigned log_n, const void* tw, bool inverse, const void* src, void* dst,
                const edge_ops& e) {
  const auto sizes = pass_sizes(log_n);
  unsigned done = 0;  // stages run, from the top
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const unsigned b = sizes[i];
    const unsigned log_l = log_n < reg_log ? 0 : log_n - done - b;
    pass ps = make_pass(log_n, log_l, b, tw, i == 0 ? src : dst, dst);
    if (i == 0) push_all(ps, e.pre);
    dif_rounds(ps, inverse);
    if (i + 1 == sizes.size()) push_all(ps, e.post);
    out.push_back(ps);
    done += b;
  }
}

void append_dit(std::vector<pass>& out, unsigned log_n, const void* tw, bool inverse, const void* src, void* dst,
                const edge_ops& e) {
  auto sizes = pass_sizes(log_n);
  std::reverse(sizes.begin(), sizes.end());
  unsigned done = 0;  // stages run, from the bottom
  for (std::size_t i = 0; i < sizes.size(); ++i) {
    const unsigned b = sizes[i];
    pass ps = make_pass(log_n, log_n < reg_log ? 0 : done, b, tw, i == 0 ? src : dst, dst);
    if (i == 0) push_all(ps, e.pre);
    dit_rounds(ps, inverse);
    if (i + 1 == sizes.size()) push_all(ps, e.post);
    out.push_back(ps);
    done += b;
  }
}

void append_dif_dit(std::vector<pass>& out, unsigned log_n, const void* tw, const void* src, void* dst,
                    const op& middle, const edge_ops& e) {
  const auto sizes = pass_sizes(log_n);
  const std::size_t cols = sizes.size() - 1;
  unsigned done = 0;
  for (std::size_t i = 0; i < cols; ++i) {  // inverse DIF column passes
    pass ps = make_pass(log_n, log_n - done - sizes[i], sizes[i], tw, i == 0 ? src : dst, dst);
    if (i == 0) push_all(ps, e.pre);
    dif_rounds(ps, true);
    out.push_back(ps);
    done += sizes[i];
  }
  pass row = make_pass(log_n, 0, sizes[cols], tw, cols == 0 ? src : dst, dst);
  if (cols == 0) push_all(row, e.pre);
  dif_rounds(row, true);
  row.push(middle);
  dit_rounds(row, false);
  if (cols == 0) push_all(row, e.post);
  out.push_back(row);
  done = sizes[cols];
  for (std::size_t i = cols; i-- > 0;) {  // forward DIT column passes
    pass ps = make_pass(log_n, done, sizes[i], tw, dst, dst);
    dit_rounds(ps, false);
    if (i == 0) push_all(ps, e.post);
    out.push_back(ps);
    done += sizes[i];
  }
}

}  // namespace cuzk::cuda::ntt::detail
