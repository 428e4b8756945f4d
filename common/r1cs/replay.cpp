#include "r1cs/replay.hpp"

#include <string>

#include "r1cs/error.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::r1cs {

template <class C>
void replay(basic_constraint_system<C>& cs, const std::type_identity_t<basic_matrices<C>>& m,
            std::span<const ff::fr<C>> z) {
  using fr = ff::fr<C>;
  const bool values = !z.empty();
  if (!values && cs.needs_values()) throw error("replay: this mode needs the witness");
  if (values && z.size() != m.n_wires)
    throw error("replay: witness has " + std::to_string(z.size()) + " values, the constraint system " +
                std::to_string(m.n_wires) + " wires");
  if (values && !z[0].is_one()) throw error("replay: witness value 0 must be 1 (the constant one)");
  const fr zero;
  for (std::uint32_t w = 1; w < m.n_wires; ++w) {
    const fr& v = values ? z[w] : zero;
    if (w <= m.n_public)
      cs.alloc_input(v);
    else
      cs.alloc_aux(v);
  }
  auto to_lc = [&](std::span<const basic_term<C>> row) {
    basic_lc<C> x;
    for (const auto& t : row)
      x.add(t.wire <= m.n_public ? variable::input(t.wire) : variable::aux(t.wire - m.n_public - 1), t.coeff);
    return x;
  };
  for (std::uint64_t i = 0; i < m.n_constraints(); ++i)
    cs.enforce(to_lc(m.a.row(i)), to_lc(m.b.row(i)), to_lc(m.c.row(i)));
}

#define CUZK_INSTANTIATE(C) \
  template void replay(basic_constraint_system<C>&, const basic_matrices<C>&, std::span<const ff::fr<C>>);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::r1cs
