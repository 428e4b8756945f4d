// The multiplicative subgroup H = <ω> of order n = 2^k in Fr, the evaluation
// domain of the NTT, with its constants and (built on first use) its twiddles.
#pragma once

#include <cstddef>
#include <memory>
#include <span>
#include <vector>

#include "poly/roots.hpp"

namespace cuzk::poly {

class domain {
 public:
  /* Stages up to this block size (2^12 elements, 128 KiB) run in cache, per block. */
  static constexpr unsigned block_log = 12;

  /* 0 <= log_n <= 32; ω = (x^t)^(2^(32-k)) for the family's non-residue x */
  explicit domain(unsigned log_n, root_family family = root_family::bellman);

  /* One domain per (k, family) for the life of the process, so its twiddles
     are built once and not per proof (they are kept: 4 GiB at 2^28). */
  static const domain& cached(unsigned log_n, root_family family = root_family::bellman);

  unsigned log_size() const { return log_n_; }
  std::size_t size() const { return std::size_t{1} << log_n_; }
  root_family family() const { return family_; }
  const fr_t& omega() const { return omega_; }
  const fr_t& omega_inv() const { return omega_inv_; }
  const fr_t& size_inv() const { return size_inv_; }  // n^-1

  /* ω^i */
  fr_t element(std::size_t i) const { return omega_.pow(std::uint64_t(i)); }

  /* ζ = ω_{2n}, ζ^2 = ω, ζ^n = -1: ζH = {x : x^n = -1} is snarkjs's odd coset.
     Needs k < 32. */
  fr_t odd_coset_shift() const;
  /* 7, the multiplicative generator: bellman's coset shift (7 ∉ H for any k) */
  static fr_t coset_generator() { return fr_t::from_montgomery(ff::fr_params::generator); }

  /* Z(x) = x^n - 1 vanishes on H and is the constant g^n - 1 on the coset gH */
  fr_t vanishing_on_coset(const fr_t& g) const;

  /* ω^i for i in [0, n/2] (ω^(n/2) = -1 closes the table so inverse twiddles
     read it backwards). n/2 + 1 elements: 4 GiB at n = 2^28; built once, in
     parallel, on first use, and shared by copies of this domain. */
  std::span<const fr_t> twiddles() const;
  /* ω_B^i for i in [0, B/2], B = min(n, 2^block_log): the in-cache stages' table */
  std::span<const fr_t> block_twiddles() const;

 private:
  struct tables;
  const tables& built() const;

  unsigned log_n_;
  root_family family_;
  fr_t omega_, omega_inv_, size_inv_;
  std::shared_ptr<tables> tables_;
};

}  // namespace cuzk::poly
