#include "circuits/poseidon_gadget.hpp"

#include <stdexcept>

namespace cuzk::circuits {

using r1cs::lc;

namespace {

num sbox(r1cs::constraint_system& cs, const num& x) {
  const fr_t x2v = x.v.sqr(), x4v = x2v.sqr(), x5v = x4v * x.v;
  const auto x2 = cs.alloc_aux(x2v);
  cs.enforce(x.l, x.l, x2, "x^2");
  const auto x4 = cs.alloc_aux(x4v);
  cs.enforce(x2, x2, x4, "x^4");
  const auto x5 = cs.alloc_aux(x5v);
  cs.enforce(x4, x.l, x5, "x^5");
  return num::of(x5, x5v);
}

}  // namespace

std::array<num, 3> poseidon_permute(r1cs::constraint_system& cs, std::array<num, 3> s, const poseidon_params& p) {
  if (p.t != 3) throw std::invalid_argument("poseidon_permute: parameters are not for width 3");
  r1cs::scope scope(cs, "poseidon");
  const unsigned half = p.r_f / 2;
  for (unsigned round = 0; round < p.rounds(); ++round) {
    r1cs::scope rs(cs, "round", round);
    for (unsigned i = 0; i < 3; ++i) {
      s[i].l.add(r1cs::variable::one(), p.rc(round, i));
      s[i].v += p.rc(round, i);
    }
    const bool full = round < half || round >= half + p.r_p;
    for (unsigned i = 0; i < (full ? 3u : 1u); ++i) s[i] = sbox(cs, s[i]);
    std::array<num, 3> next;
    for (unsigned i = 0; i < 3; ++i) {
      for (unsigned j = 0; j < 3; ++j) {  // s'_i = sum_j M[i][j] s_j
        next[i].l.add(s[j].l, p.m(i, j));
        next[i].v += p.m(i, j) * s[j].v;
      }
      next[i].l.compact();
    }
    s = std::move(next);
  }
  return s;
}

num poseidon_hash2(r1cs::constraint_system& cs, const num& l, const num& r) {
  return poseidon_permute(cs, {num::constant(fr_t::zero()), l, r})[0];
}

}  // namespace cuzk::circuits
