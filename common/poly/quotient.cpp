#include "poly/quotient.hpp"

#include <tbb/parallel_invoke.h>

#include "poly/coset_evaluations.hpp"
#include "poly/ntt.hpp"
#include "poly/vector_ops.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::poly {

template <class C>
void compute_h(const basic_domain<C>& d, std::span<ff::fr<C>> a, std::span<ff::fr<C>> b, std::span<ff::fr<C>> c,
               h_convention conv) {
  using F = ff::fr<C>;
  const F g = conv == h_convention::coefficients ? basic_domain<C>::coset_generator() : d.odd_coset_shift();
  auto to_coset = [&](std::span<F> v) { coset_evaluations(d, v, g); };
  tbb::parallel_invoke([&] { to_coset(a); }, [&] { to_coset(b); }, [&] { to_coset(c); });
  mul_sub_assign(a, b, c);
  if (conv == h_convention::coefficients) {
    scale(a, d.vanishing_on_coset(g).inverse());  // (AB - C)/Z on gH, Z = g^n - 1
    coset_intt(d, a, g);
  }
}

#define CUZK_INSTANTIATE(C)                                                                                         \
  template void compute_h(const basic_domain<C>&, std::span<ff::fr<C>>, std::span<ff::fr<C>>, std::span<ff::fr<C>>, \
                          h_convention);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::poly
