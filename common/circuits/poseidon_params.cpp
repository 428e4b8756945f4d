#include "circuits/poseidon_params.hpp"

#include <stdexcept>

#include "circuits/grain_lfsr.hpp"

namespace cuzk::circuits {

namespace {

using big = ff::limbs::big<4>;
constexpr unsigned field_bits = 255;

/* v mod r for v < 2^255 < 3r */
fr_t reduce(big v) {
  while (!ff::limbs::less(v, ff::fr_params::modulus)) ff::limbs::sub(v, v, ff::fr_params::modulus);
  return fr_t::from_canonical_unchecked(v);
}

}  // namespace

poseidon_params generate_poseidon_params(unsigned t, unsigned r_f, unsigned r_p) {
  poseidon_params p{t, r_f, r_p, {}, {}};
  grain_lfsr grain(1, 0, field_bits, t, r_f, r_p);
  for (unsigned k = 0; k < (r_f + r_p) * t; ++k) {
    big v = grain.next_bits(field_bits);
    while (!ff::limbs::less(v, ff::fr_params::modulus)) v = grain.next_bits(field_bits);
    p.round_constants.push_back(fr_t::from_canonical_unchecked(v));
  }
  for (;;) {
    std::vector<fr_t> xy;
    auto distinct = [&] {
      for (std::size_t i = 0; i < xy.size(); ++i)
        for (std::size_t j = 0; j < i; ++j)
          if (xy[i] == xy[j]) return false;
      return true;
    };
    do {
      xy.clear();
      for (unsigned k = 0; k < 2 * t; ++k) xy.push_back(reduce(grain.next_bits(field_bits)));
    } while (!distinct());
    p.mds.clear();
    bool ok = true;
    for (unsigned i = 0; i < t && ok; ++i)
      for (unsigned j = 0; j < t && ok; ++j) {
        const fr_t s = xy[i] + xy[t + j];
        ok = !s.is_zero();
        p.mds.push_back(s.inverse());  // M[i][j] = 1 / (x_i + y_j)
      }
    if (ok) return p;
  }
}

const poseidon_params& poseidon_t3() {
  static const poseidon_params p = generate_poseidon_params(3, 8, 57);
  return p;
}

}  // namespace cuzk::circuits
