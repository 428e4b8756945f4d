#include "circuits/poseidon_params.hpp"

#include <stdexcept>

#include "circuits/grain_lfsr.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::circuits {

namespace {

using big = ff::limbs::big<4>;

/* v mod r for v < 2^n < 2r, n the bit length of r */
template <class C>
ff::fr<C> reduce(big v) {
  const auto& r = C::fr_params::modulus;
  while (!ff::limbs::less(v, r)) ff::limbs::sub(v, v, r);
  return ff::fr<C>::from_canonical_unchecked(v);
}

}  // namespace

template <class C>
basic_poseidon_params<C> generate_poseidon_params(unsigned t, unsigned r_f, unsigned r_p) {
  using fr = ff::fr<C>;
  static_assert(fr::n_limbs == 4, "the generator draws into four limbs");
  constexpr unsigned field_bits = fr::bits;
  const auto& r = C::fr_params::modulus;
  basic_poseidon_params<C> p{t, r_f, r_p, {}, {}};
  grain_lfsr grain(1, 0, field_bits, t, r_f, r_p);
  for (unsigned k = 0; k < (r_f + r_p) * t; ++k) {
    big v = grain.next_bits(field_bits);
    while (!ff::limbs::less(v, r)) v = grain.next_bits(field_bits);
    p.round_constants.push_back(fr::from_canonical_unchecked(v));
  }
  for (;;) {
    std::vector<fr> xy;
    auto distinct = [&] {
      for (std::size_t i = 0; i < xy.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
          if (xy[i] == xy[j]) return false;
      return true;
    };
    do {
      xy.clear();
      for (unsigned k = 0; k < 2 * t; ++k) xy.push_back(reduce<C>(grain.next_bits(field_bits)));
    } while (!distinct());
    p.mds.clear();
    bool ok = true;
    for (unsigned i = 0; i < t && ok; ++i)
      for (unsigned j = 0; j < t && ok; ++j) {
        const fr s = xy[i] + xy[t + j];
        ok = !s.is_zero();
        p.mds.push_back(s.inverse());  // M[i][j] = 1 / (x_i + y_j)
      }
    if (ok) return p;
  }
}

template <class C>
const basic_poseidon_params<C>& poseidon_t3() {
  static const basic_poseidon_params<C> p = generate_poseidon_params<C>(3, 8, 57);
  return p;
}

#define CUZK_INSTANTIATE(C)                                                                    \
  template basic_poseidon_params<C> generate_poseidon_params<C>(unsigned, unsigned, unsigned); \
  template const basic_poseidon_params<C>& poseidon_t3<C>();
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::circuits
