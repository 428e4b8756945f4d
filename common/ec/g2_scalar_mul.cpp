// [k]P on G2 by the GLS method (Galbraith, Lin, Scott, EUROCRYPT 2009):
// k = d0 + d1 |x| + d2 |x|^2 + d3 |x|^3 with di < 2^64, and psi = [x] = -[|x|]
// on G2, so [k]P = [d0]P + [d1](-psi P) + [d2](psi^2 P) + [d3](-psi^3 P):
// one 65-step double chain with four interleaved width-5 NAFs over affine
// tables (one shared inversion, then mixed additions).
#include <algorithm>

#include "ec/batch_affine.hpp"
#include "ec/endomorphism.hpp"
#include "ec/scalar_mul.hpp"

namespace cuzk::ec {

g2_jacobian_t mul_gls(const g2_jacobian_t& p, const scalar_limbs_t& k) {
  constexpr unsigned w = 5;
  constexpr std::size_t n = 1 << (w - 2);
  if (p.is_identity()) return p;

  auto d = split_base_x(reduce_mod_r(k));

  g2_jacobian_t tj[n];
  detail::odd_multiples(p, tj, n); /* tj[i] = (2i + 1) P */
  g2_affine_t t[4][n];
  batch_to_affine<g2_curve>(tj, t[0]);
  for (std::size_t i = 0; i < n; ++i) {
    g2_affine_t s = psi(t[0][i]);
    t[1][i] = -s; /* (2i + 1) [|x|] P = -psi */
    s = psi(s);
    t[2][i] = s;       /* (2i + 1) [|x|^2] P = psi^2 */
    t[3][i] = -psi(s); /* (2i + 1) [|x|^3] P = -psi^3 */
  }

  std::int8_t digits[4][65];
  std::size_t len[4], top = 0;
  for (int j = 0; j < 4; ++j) {
    len[j] = wnaf(d[j], w, digits[j]);
    top = std::max(top, len[j]);
  }
  g2_jacobian_t acc;
  for (std::size_t i = top; i-- > 0;) {
    acc = acc.dbl();
    for (int j = 0; j < 4; ++j)
      if (i < len[j]) detail::add_wnaf_digit(acc, t[j], digits[j][i]);
  }
  return acc;
}

}  // namespace cuzk::ec
