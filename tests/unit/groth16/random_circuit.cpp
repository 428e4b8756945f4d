#include "random_circuit.hpp"

namespace cuzk::test {

template <class C>
random_instance<C> make_random_instance(std::mt19937_64& rng, std::uint32_t n_constraints, std::uint32_t n_public,
                                        std::uint32_t n_free, double bits_share) {
  using fr = ff::fr<C>;
  /* wire layout: 0 = one, 1..n_public = public (the last n_public products),
     then n_free free inputs, then the other products */
  const std::uint32_t n_wires = 1 + n_public + n_free + n_constraints - n_public;
  auto product_wire = [&](std::uint32_t k) {
    std::uint32_t first_public = n_constraints - n_public;
    return k >= first_public ? 1 + (k - first_public) : 1 + n_public + n_free + k;
  };
  random_instance<C> inst;
  inst.m.n_wires = n_wires;
  inst.m.n_public = n_public;
  inst.z.assign(n_wires, fr::zero());
  inst.z[0] = fr::one();
  std::vector<std::uint32_t> known = {0};
  for (std::uint32_t i = 0; i < n_free; ++i) {
    const bool bit = std::uniform_real_distribution<double>(0, 1)(rng) < bits_share;
    inst.z[1 + n_public + i] = bit ? fr::from_u64(rng() & 1) : random_fr<C>(rng);
    known.push_back(1 + n_public + i);
  }
  auto random_lc = [&](r1cs::basic_sparse_rows<C>& rows) {
    std::vector<r1cs::basic_term<C>> terms;
    std::uniform_int_distribution<std::size_t> pick(0, known.size() - 1);
    std::size_t count = 1 + rng() % 3;
    for (std::size_t t = 0; t < count; ++t) {
      std::uint32_t w = known[pick(rng)];
      bool dup = false;
      for (auto& x : terms) dup |= x.wire == w;
      if (!dup) terms.push_back({w, random_fr<C>(rng)});
    }
    std::sort(terms.begin(), terms.end(), [](auto& x, auto& y) { return x.wire < y.wire; });
    fr v = fr::zero();
    for (auto& t : terms) {
      rows.push(t);
      v += t.coeff * inst.z[t.wire];
    }
    rows.end_row();
    return v;
  };
  for (std::uint32_t k = 0; k < n_constraints; ++k) {
    fr a = random_lc(inst.m.a), b = random_lc(inst.m.b);
    std::uint32_t out = product_wire(k);
    inst.z[out] = a * b;
    inst.m.c.push({out, fr::one()});
    inst.m.c.end_row();
    known.push_back(out);
  }
  return inst;
}

template random_instance<curves::bls12_381> make_random_instance(std::mt19937_64&, std::uint32_t, std::uint32_t,
                                                                 std::uint32_t, double);
template random_instance<curves::bn254> make_random_instance(std::mt19937_64&, std::uint32_t, std::uint32_t,
                                                             std::uint32_t, double);

}  // namespace cuzk::test
