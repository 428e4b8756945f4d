#include "circuits/poseidon_gadget.hpp"

#include <stdexcept>

namespace cuzk::circuits {

namespace {

template <class C>
basic_num<C> sbox(r1cs::basic_constraint_system<C>& cs, const basic_num<C>& x) {
  const ff::fr<C> x2v = x.v.sqr(), x4v = x2v.sqr(), x5v = x4v * x.v;
  const auto x2 = cs.alloc_aux(x2v);
  cs.enforce(x.l, x.l, x2, "x^2");
  const auto x4 = cs.alloc_aux(x4v);
  cs.enforce(x2, x2, x4, "x^4");
  const auto x5 = cs.alloc_aux(x5v);
  cs.enforce(x4, x.l, x5, "x^5");
  return basic_num<C>::of(x5, x5v);
}

}  // namespace

template <class C>
std::array<basic_num<C>, 3> poseidon_permute(r1cs::basic_constraint_system<C>& cs, std::array<basic_num<C>, 3> s,
                                             const basic_poseidon_params<C>& p) {
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
    std::array<basic_num<C>, 3> next;
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

template <class C>
basic_num<C> poseidon_hash2(r1cs::basic_constraint_system<C>& cs, const basic_num<C>& l, const basic_num<C>& r) {
  return poseidon_permute(cs, {basic_num<C>::constant(ff::fr<C>::zero()), l, r})[0];
}

#define CUZK_CIRCUITS_POSEIDON_GADGET(C)                                                                               \
  template std::array<basic_num<C>, 3> poseidon_permute(r1cs::basic_constraint_system<C>&,                             \
                                                        std::array<basic_num<C>, 3>, const basic_poseidon_params<C>&); \
  template basic_num<C> poseidon_hash2(r1cs::basic_constraint_system<C>&, const basic_num<C>&, const basic_num<C>&);
CUZK_CIRCUITS_POSEIDON_GADGET(curves::bls12_381)
CUZK_CIRCUITS_POSEIDON_GADGET(curves::bn254)

}  // namespace cuzk::circuits
