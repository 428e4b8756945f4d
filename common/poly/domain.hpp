// The multiplicative subgroup H = <ω> of order n = 2^k in the Fr of a curve
// C, the evaluation domain of the NTT, with its constants and (built on first
// use) its twiddles. k is at most the two-adicity s of Fr: 32 on BLS12-381,
// 28 on BN254; larger sizes are refused (std::invalid_argument).
// basic_domain<C> is instantiated in domain.cpp for every curve.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "poly/roots.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::poly {

template <class C>
class basic_domain {
 public:
  using curve = C;
  using field_t = ff::fr<C>;

  /* Stages up to this block size (2^12 elements, 128 KiB) run in cache, per block. */
  static constexpr unsigned block_log = 12;
  /* s, the two-adicity of Fr: 32 (BLS12-381) or 28 (BN254) */
  static constexpr unsigned max_log_size = max_log_size_of<C>;

  /* 0 <= log_n <= s; ω = (x^t)^(2^(s-k)) for the family's non-residue x
     (poly/roots.hpp) */
  explicit basic_domain(unsigned log_n, root_family family = root_family::bellman);

  /* One domain per (k, family) for the life of the process, so its twiddles
     are built once and not per proof (they are kept: 4 GiB at 2^28). */
  static const basic_domain& cached(unsigned log_n, root_family family = root_family::bellman);

  unsigned log_size() const { return log_n_; }
  std::size_t size() const { return std::size_t{1} << log_n_; }
  root_family family() const { return family_; }
  const field_t& omega() const { return omega_; }
  const field_t& omega_inv() const { return omega_inv_; }
  const field_t& size_inv() const { return size_inv_; }  // n^-1

  /* ω^i */
  field_t element(std::size_t i) const { return omega_.pow(std::uint64_t(i)); }

  /* ζ = ω_{2n}, ζ^2 = ω, ζ^n = -1: ζH = {x : x^n = -1} is snarkjs's odd coset.
     Needs k < s. */
  field_t odd_coset_shift() const;
  /* g = fr_params::generator, the multiplicative generator of Fr: 7 on
     BLS12-381 (bellman's coset shift), 5 on BN254. A non-residue, so g ∉ H
     for any k. */
  static field_t coset_generator() { return field_t::from_montgomery(C::fr_params::generator); }

  /* Z(x) = x^n - 1 vanishes on H and is the constant g^n - 1 on the coset gH */
  field_t vanishing_on_coset(const field_t& g) const;

  /* ω^i for i in [0, n/2] (ω^(n/2) = -1 closes the table so inverse twiddles
     read it backwards). n/2 + 1 elements: 4 GiB at n = 2^28; built once, in
     parallel, on first use, and shared by copies of this domain. */
  std::span<const field_t> twiddles() const;
  /* ω_B^i for i in [0, B/2], B = min(n, 2^block_log): the in-cache stages' table */
  std::span<const field_t> block_twiddles() const;

 private:
  struct tables;
  const tables& built() const;

  unsigned log_n_;
  root_family family_;
  field_t omega_, omega_inv_, size_inv_;
  std::shared_ptr<tables> tables_;
};

#define CUZK_INSTANTIATE(C) extern template class basic_domain<C>;
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::poly
