#include "cuda/ntt/pipeline.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::cuda::ntt::detail {

void append_transform(std::vector<pass>& out, const transform_spec& t, const void* src, void* dst) {
  edge_ops e;
  /* DIF reads element j at position j and writes it at rev(j); DIT the other way */
  if (t.pre) e.pre.push_back(factor_op(*t.pre, !t.natural_in));
  if (t.post) e.post.push_back(factor_op(*t.post, t.natural_in));
  if (t.natural_in)
    append_dif(out, t.log_n, t.tw, t.inverse, src, dst, e);
  else
    append_dit(out, t.log_n, t.tw, t.inverse, src, dst, e);
}

template <class C>
h_keys<C> compute_h_keys(poly::h_convention conv, unsigned log_n, const ff::fr<C>& shift, const ff::fr<C>& z_inv) {
  using fr = ff::fr<C>;
  const fr n_inv = fr::from_u64(2).pow(std::uint64_t(log_n)).inverse();
  const fr r_inv = fr::from_montgomery({1, 0, 0, 0});  // Montgomery limbs 1: R^-1
  h_keys<C> k;
  k.to_coset = {shift, n_inv};
  k.to_coset_rinv = {shift, n_inv * r_inv};
  k.from_coset = {shift.inverse(), conv == poly::h_convention::coefficients ? n_inv * z_inv * r_inv : n_inv};
  return k;
}

#define CUZK_INSTANTIATE(C) \
  template h_keys<C> compute_h_keys<C>(poly::h_convention, unsigned, const ff::fr<C>&, const ff::fr<C>&);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

void append_compute_h(std::vector<pass>& out, const h_spec& h, const void* a, const void* b, const void* c,
                      void* result, void* scratch) {
  const bool odd = h.convention == poly::h_convention::odd_coset;
  const std::size_t n = std::size_t{1} << h.log_n;
  void* ea = scratch;
  void* eb = static_cast<char*>(scratch) + n * 32;  // 32 B an element on either curve
  void* ec = result;
  /* each input: iNTT (DIF, bit-reversed coefficients j at rev(j)), times n^-1 g^j, NTT (DIT) on gH */
  const auto to_coset = [&](const void* src, void* dst, const factor_fn& f, const edge_ops& e) {
    append_dif_dit(out, h.log_n, h.tw, src, dst, factor_op(f, true), e);
  };
  to_coset(a, ea, odd ? h.to_coset_rinv : h.to_coset, {});
  to_coset(b, eb, h.to_coset, {});
  if (odd) {
    /* (A B − C)(ζ ω^i), i in natural order, from A' = A R^-1, C' = C R^-1 */
    to_coset(c, ec, h.to_coset_rinv, {{}, {mulsub_op(ea, eb)}});
    return;
  }
  to_coset(c, ec, h.to_coset, {});
  /* A B − C on gH, then the coset iNTT: coefficient j at rev(j), times n^-1 z^-1 R^-1 g^-j */
  edge_ops e;
  e.pre.push_back(mulsub_op(ea, eb));
  e.post.push_back(factor_op(h.from_coset, true));
  append_dif(out, h.log_n, h.tw, true, ec, result, e);
}

std::size_t first_reader(const std::vector<pass>& passes, const void* p) {
  for (std::size_t i = 0; i < passes.size(); ++i) {
    const pass& ps = passes[i];
    if (ps.src == p) return i;
    for (unsigned k = 0; k < ps.n_ops; ++k)
      if (ps.ops[k].kind == op_kind::mulsub && (ps.ops[k].a == p || ps.ops[k].b == p)) return i;
  }
  return passes.size();
}

}  // namespace cuzk::cuda::ntt::detail
