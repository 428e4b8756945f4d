#include "poly/ntt.hpp"

#include <stdexcept>
#include <string>

#include "poly/ntt_dif.hpp"
#include "poly/vector_ops.hpp"

namespace cuzk::poly {
namespace {

void check_size(const domain& d, std::span<fr_t> a) {
  if (a.size() != d.size())
    throw std::invalid_argument("NTT of " + std::to_string(a.size()) + " elements on a domain of size " +
                                std::to_string(d.size()));
}

}  // namespace

void ntt(const domain& d, std::span<fr_t> a) {
  check_size(d, a);
  detail::dif(d, a, detail::direction::forward);
  detail::bit_reverse(a, d.log_size());
}

void intt(const domain& d, std::span<fr_t> a) {
  check_size(d, a);
  detail::dif(d, a, detail::direction::inverse);
  detail::bit_reverse(a, d.log_size(), &d.size_inv());
}

void coset_ntt(const domain& d, std::span<fr_t> a, const fr_t& g) {
  check_size(d, a);
  distribute_powers(a, fr_t::one(), g);  // a_j g^j
  ntt(d, a);
}

void coset_intt(const domain& d, std::span<fr_t> a, const fr_t& g) {
  check_size(d, a);
  detail::dif(d, a, detail::direction::inverse);
  detail::bit_reverse(a, d.log_size());
  distribute_powers(a, d.size_inv(), g.inverse());  // a_j n^-1 g^-j
}

}  // namespace cuzk::poly
