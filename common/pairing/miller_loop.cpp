// The optimal ate Miller loops.
//
// BLS12-381: f_{|x|,Q}(P), conjugated because x = -0xd201000000010000 < 0
// (f_{-n,Q} = 1 / (f_{n,Q} v_{nQ}); the vertical line v and the difference
// between 1/f and conj(f) = f^(p^6) lie in proper subfields, which the final
// exponentiation sends to 1).
// BN254: f_{6x+2,Q}(P) over the NAF digits of 6x + 2 (a digit -1 adds -Q),
// then the lines through T and Q1 = pi(Q), and through T + Q1 and
// -Q2 = -pi^2(Q), where pi = psi is the p-power Frobenius on the twist
// (Vercauteren, "Optimal pairings", IEEE TIT 2010, and Beuchat et al.,
// eprint 2010/354, Algorithm 1).
#include <vector>

#include "ec/endomorphism.hpp"
#include "pairing/line.hpp"
#include "pairing/pairing.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::pairing {

namespace {

/* T = 2T for every pair, f = f prod l_{T,T}(P) */
template <class C>
void double_all(ff::fp12<C>& f, std::vector<detail::g2_projective<C>>& t,
                const std::vector<const g1_g2_pair_of<C>*>& live) {
  for (std::size_t i = 0; i < live.size(); ++i) f = detail::mul_by_line(f, detail::doubling_step(t[i]), live[i]->first);
}
/* T = T + Q_i for every pair, f = f prod l_{T,Q_i}(P) */
template <class C, class Q>
void add_all(ff::fp12<C>& f, std::vector<detail::g2_projective<C>>& t, const std::vector<const g1_g2_pair_of<C>*>& live,
             Q q_of) {
  for (std::size_t i = 0; i < live.size(); ++i)
    f = detail::mul_by_line(f, detail::addition_step(t[i], q_of(*live[i])), live[i]->first);
}

}  // namespace

template <class C>
ff::fp12<C> multi_miller_loop(std::span<const g1_g2_pair_of<C>> pairs) {
  std::vector<const g1_g2_pair_of<C>*> live;  // infinity contributes 1
  live.reserve(pairs.size());
  for (const auto& pq : pairs)
    if (!pq.first.infinity && !pq.second.infinity) live.push_back(&pq);
  if (live.empty()) return ff::fp12<C>::one();
  std::vector<detail::g2_projective<C>> t(live.size());
  for (std::size_t i = 0; i < live.size(); ++i) t[i] = {live[i]->second.x, live[i]->second.y, ff::fp2<C>::one()};
  auto q = [](const g1_g2_pair_of<C>& pq) { return pq.second; };

  ff::fp12<C> f = ff::fp12<C>::one();
  if constexpr (C::fam == curves::family::bls12) {
    /* below the top bit of |x|: f = f^2 l_{T,T}(P), T = 2T; on a set bit
       f = f l_{T,Q}(P), T = T + Q */
    constexpr std::uint64_t x = C::x_abs;
    for (int bit = 62 - __builtin_clzll(x), top = bit; bit >= 0; --bit) {
      if (bit != top) f = f.sqr();
      double_all(f, t, live);
      if ((x >> bit) & 1) add_all(f, t, live, q);
    }
  } else {
    /* below the leading digit of 6x + 2 (NAF, most significant first) */
    constexpr auto& naf = C::ate_loop_naf;
    constexpr std::size_t n = sizeof naf / sizeof naf[0];
    for (std::size_t i = 1; i < n; ++i) {
      if (i != 1) f = f.sqr();
      double_all(f, t, live);
      if (naf[i] == 1)
        add_all(f, t, live, q);
      else if (naf[i] == -1)
        add_all(f, t, live, [](const g1_g2_pair_of<C>& pq) { return -pq.second; });
    }
    add_all(f, t, live, [](const g1_g2_pair_of<C>& pq) { return ec::psi(pq.second); });           /* + Q1 */
    add_all(f, t, live, [](const g1_g2_pair_of<C>& pq) { return -ec::psi(ec::psi(pq.second)); }); /* - Q2 */
  }
  if constexpr (C::x_negative) f = f.conjugate();
  return f;
}

#define CUZK_INSTANTIATE(C) template ff::fp12<C> multi_miller_loop(std::span<const g1_g2_pair_of<C>>);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::pairing
