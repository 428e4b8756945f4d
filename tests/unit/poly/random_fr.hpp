// Uniform random elements of Fr for the poly tests, by rejection sampling.
#pragma once

#include <ostream>
#include <random>
#include <vector>

#include "ff/fr.hpp"
#include "poly/roots.hpp"

namespace cuzk::test {

inline ff::fr_t random_fr(std::mt19937_64& g) {
  for (;;) {
    ff::fr_params::limbs_t c;
    for (auto& w : c) w = g();
    c[3] &= 0x7fffffffffffffffull;  // r < 2^255: accept about 9 draws in 10
    if (auto x = ff::fr_t::from_canonical(c)) return *x;
  }
}

inline std::vector<ff::fr_t> random_vector(std::mt19937_64& g, std::size_t n) {
  std::vector<ff::fr_t> v(n);
  for (auto& x : v) x = random_fr(g);
  return v;
}

}  // namespace cuzk::test

namespace cuzk::poly {
/* names the family in GoogleTest's parameter listings */
inline void PrintTo(root_family f, std::ostream* os) { *os << (f == root_family::bellman ? "bellman" : "snarkjs"); }
}  // namespace cuzk::poly
