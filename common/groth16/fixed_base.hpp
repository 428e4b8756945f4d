// Many multiples k_i G of one base G (the setup's queries): a table of
// d 2^(8w) G for every byte position w and byte value d, so each product is
// at most 32 mixed additions (Brickell–Gordon–McCurley–Wilson fixed-base
// windowing, as in "Handbook of Applied Cryptography" §14.6.3).
#pragma once

#include <array>
#include <span>
#include <vector>

#include <tbb/parallel_for.h>

#include "ec/batch_affine.hpp"
#include "ec/config.hpp"

namespace cuzk::groth16 {

template <class G>
class fixed_base_table {
 public:
  using point_t = ec::jacobian<G>;
  using affine_t = typename point_t::affine_t;
  using scalar_t = ff::fr<typename G::curve>;
  static constexpr std::size_t windows = 32, entries = 255;  // 8-bit windows of a 256-bit scalar

  explicit fixed_base_table(const affine_t& g) : table_(windows * entries) {
    std::vector<point_t> jac(windows * entries);
    tbb::parallel_for(std::size_t{0}, windows, [&](std::size_t w) {
      point_t base = point_t::from_affine(g);
      for (std::size_t i = 0; i < 8 * w; ++i) base = base.dbl(); /* 2^(8w) G */
      point_t acc = base;
      for (std::size_t d = 0; d < entries; ++d) { /* (d + 1) 2^(8w) G */
        jac[w * entries + d] = acc;
        acc += base;
      }
    });
    ec::batch_to_affine<G>(jac, table_);
  }

  /* k G = Σ_w byte_w(k) 2^(8w) G */
  point_t mul(const scalar_t& k) const {
    auto limbs = k.to_canonical();
    point_t acc;
    for (std::size_t w = 0; w < windows; ++w) {
      unsigned d = (limbs[w / 8] >> (8 * (w % 8))) & 0xff;
      if (d) acc += table_[w * entries + d - 1];
    }
    return acc;
  }

  /* out_i = k_i G, in parallel, normalized to affine in chunks */
  void mul_many(std::span<const scalar_t> k, std::span<affine_t> out) const {
    constexpr std::size_t chunk = 1024;
    tbb::parallel_for(std::size_t{0}, (k.size() + chunk - 1) / chunk, [&](std::size_t c) {
      std::size_t lo = c * chunk, hi = std::min(k.size(), lo + chunk);
      std::vector<point_t> jac(hi - lo);
      for (std::size_t i = lo; i < hi; ++i) jac[i - lo] = mul(k[i]);
      ec::batch_to_affine<G>(jac, out.subspan(lo, hi - lo));
    });
  }
  std::vector<affine_t> mul_many(std::span<const scalar_t> k) const {
    std::vector<affine_t> out(k.size());
    mul_many(k, out);
    return out;
  }

  /* entry w * entries + d - 1 is d 2^(8w) G, d = 1..255 */
  std::span<const affine_t> points() const { return table_; }

 private:
  std::vector<affine_t> table_;
};

}  // namespace cuzk::groth16
