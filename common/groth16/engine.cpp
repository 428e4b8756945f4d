#include "groth16/engine.hpp"

#include <algorithm>
#include <stdexcept>
#include <string>

#include "curves/dispatch.hpp"
#include "poly/domain.hpp"

namespace cuzk::groth16 {

template <class C>
basic_h_plan<C> basic_h_plan<C>::for_key(const basic_proving_key<C>& pk) {
  const std::uint32_t n = pk.domain_size;
  if (n < 2 || (n & (n - 1)) != 0)
    throw std::invalid_argument("prove: the key's domain size " + std::to_string(n) + " is not a power of two >= 2");
  basic_h_plan p;
  p.log_n = pk.log_domain();
  p.family = poly::root_family::snarkjs;
  const poly::basic_domain<C> d(p.log_n, p.family);
  if (pk.h == h_form::odd_coset) {
    p.convention = poly::h_convention::odd_coset;
    p.shift = d.odd_coset_shift();  // ζ = ω_2n
    p.z_inv = ff::fr<C>::one();     // Z = ζ^n − 1 = −2 is folded into the key's hExps
    p.h_len = n;
  } else {
    p.convention = poly::h_convention::coefficients;
    p.shift = poly::basic_domain<C>::coset_generator();  // g
    p.z_inv = d.vanishing_on_coset(p.shift).inverse();   // (g^n − 1)^−1
    p.h_len = n - 1;
  }
  return p;
}

#define CUZK_H_PLAN(C) template struct basic_h_plan<C>;
CUZK_CURVES(CUZK_H_PLAN)

split_view split_view::of(const msm::scalar_split& s, std::uint32_t first) {
  const auto ones = std::lower_bound(s.ones.begin(), s.ones.end(), first) - s.ones.begin();
  const auto others = std::lower_bound(s.others.begin(), s.others.end(), first) - s.others.begin();
  split_view v;
  v.ones = std::span<const std::uint32_t>(s.ones).subspan(std::size_t(ones));
  v.others = std::span<const std::uint32_t>(s.others).subspan(std::size_t(others));
  v.other_scalars = std::span<const ec::scalar_limbs_t>(s.other_scalars).subspan(std::size_t(others));
  v.first = first;
  return v;
}

}  // namespace cuzk::groth16
