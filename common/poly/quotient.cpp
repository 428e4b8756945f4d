#include "poly/quotient.hpp"

#include <tbb/parallel_invoke.h>

#include "poly/ntt.hpp"
#include "poly/vector_ops.hpp"

namespace cuzk::poly {

void compute_h(const domain& d, std::span<fr_t> a, std::span<fr_t> b, std::span<fr_t> c, h_convention conv) {
  const fr_t g = conv == h_convention::coefficients ? domain::coset_generator() : d.odd_coset_shift();
  auto to_coset = [&](std::span<fr_t> v) {
    intt(d, v);
    coset_ntt(d, v, g);
  };
  tbb::parallel_invoke([&] { to_coset(a); }, [&] { to_coset(b); }, [&] { to_coset(c); });
  mul_sub_assign(a, b, c);
  if (conv == h_convention::coefficients) {
    scale(a, d.vanishing_on_coset(g).inverse());  // (AB - C)/Z on gH, Z = g^n - 1
    coset_intt(d, a, g);
  }
}

}  // namespace cuzk::poly
