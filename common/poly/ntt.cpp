#include "poly/ntt.hpp"

#include <stdexcept>
#include <string>

#include "poly/ntt_dif.hpp"
#include "poly/vector_ops.hpp"

namespace cuzk::poly {
namespace {

template <class C>
void check_size(const basic_domain<C>& d, std::span<ff::fr<C>> a) {
  if (a.size() != d.size())
    throw std::invalid_argument("NTT of " + std::to_string(a.size()) + " elements on a domain of size " +
                                std::to_string(d.size()));
}

}  // namespace

template <class C>
void ntt(const basic_domain<C>& d, std::span<ff::fr<C>> a) {
  check_size(d, a);
  detail::dif(d, a, detail::direction::forward);
  detail::bit_reverse(a, d.log_size());
}

template <class C>
void intt(const basic_domain<C>& d, std::span<ff::fr<C>> a) {
  check_size(d, a);
  detail::dif(d, a, detail::direction::inverse);
  detail::bit_reverse(a, d.log_size(), &d.size_inv());
}

template <class C>
void coset_ntt(const basic_domain<C>& d, std::span<ff::fr<C>> a, const ff::fr<C>& g) {
  check_size(d, a);
  distribute_powers(a, ff::fr<C>::one(), g);  // a_j g^j
  ntt(d, a);
}

template <class C>
void coset_intt(const basic_domain<C>& d, std::span<ff::fr<C>> a, const ff::fr<C>& g) {
  check_size(d, a);
  detail::dif(d, a, detail::direction::inverse);
  detail::bit_reverse(a, d.log_size());
  distribute_powers(a, d.size_inv(), g.inverse());  // a_j n^-1 g^-j
}

#define CUZK_POLY_NTT(C)                                                                   \
  template void ntt(const basic_domain<C>&, std::span<ff::fr<C>>);                         \
  template void intt(const basic_domain<C>&, std::span<ff::fr<C>>);                        \
  template void coset_ntt(const basic_domain<C>&, std::span<ff::fr<C>>, const ff::fr<C>&); \
  template void coset_intt(const basic_domain<C>&, std::span<ff::fr<C>>, const ff::fr<C>&);
CUZK_POLY_NTT(curves::bls12_381)
CUZK_POLY_NTT(curves::bn254)
#undef CUZK_POLY_NTT

}  // namespace cuzk::poly
