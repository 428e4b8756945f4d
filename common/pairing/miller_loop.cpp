// The optimal ate Miller loop of BLS12-381: f_{|x|,Q}(P), conjugated because
// x = -0xd201000000010000 < 0 (f_{-n,Q} = 1 / (f_{n,Q} v_{nQ}); the vertical
// line v and the difference between 1/f and conj(f) = f^(p^6) lie in proper
// subfields, which the final exponentiation sends to 1).
#include <vector>

#include "ec/constants.hpp"
#include "pairing/line.hpp"
#include "pairing/pairing.hpp"

namespace cuzk::pairing {

ff::fp12_t multi_miller_loop(std::span<const g1_g2_pair> pairs) {
  std::vector<const g1_g2_pair*> live;  // infinity contributes 1
  live.reserve(pairs.size());
  for (const auto& pq : pairs)
    if (!pq.first.infinity && !pq.second.infinity) live.push_back(&pq);
  if (live.empty()) return ff::fp12_t::one();
  std::vector<detail::g2_projective> t(live.size());
  for (std::size_t i = 0; i < live.size(); ++i) t[i] = {live[i]->second.x, live[i]->second.y, ff::fp2_t::one()};

  ff::fp12_t f = ff::fp12_t::one();
  /* |x| = 2^63 + 2^62 + 2^60 + 2^57 + 2^48 + 2^16; below its top bit:
     f = f^2 l_{T,T}(P), T = 2T; on a set bit f = f l_{T,Q}(P), T = T + Q */
  for (int bit = 62; bit >= 0; --bit) {
    if (bit != 62) f = f.sqr();
    for (std::size_t i = 0; i < live.size(); ++i)
      f = detail::mul_by_line(f, detail::doubling_step(t[i]), live[i]->first);
    if ((ec::consts::x_abs >> bit) & 1)
      for (std::size_t i = 0; i < live.size(); ++i)
        f = detail::mul_by_line(f, detail::addition_step(t[i], live[i]->second), live[i]->first);
  }
  return f.conjugate();  // x < 0
}

ff::fp12_t miller_loop(const ec::g1_affine_t& p, const ec::g2_affine_t& q) {
  g1_g2_pair pq{p, q};
  return multi_miller_loop({&pq, 1});
}

gt_t pairing(const ec::g1_affine_t& p, const ec::g2_affine_t& q) { return final_exponentiation(miller_loop(p, q)); }

gt_t multi_pairing(std::span<const g1_g2_pair> pairs) { return final_exponentiation(multi_miller_loop(pairs)); }

}  // namespace cuzk::pairing
