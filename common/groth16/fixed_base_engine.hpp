// Where the setup's fixed-base multiplications run: many multiples k_i G of
// one base G, in G1 and G2. The CPU engine is fixed_base_table under oneTBB;
// a CUDA engine (cuda/setup/fixed_base_engine.hpp) computes the same affine
// points on a GPU (affine points are unique, so the keys are byte-identical).
#pragma once

#include <chrono>
#include <memory>
#include <optional>
#include <span>
#include <stdexcept>
#include <string>

#include "ec/config.hpp"
#include "groth16/fixed_base.hpp"

namespace cuzk::groth16 {

class fixed_base_engine {
 public:
  virtual ~fixed_base_engine() = default;

  /* "cpu", "cuda (NVIDIA H200)", ... */
  virtual std::string name() const = 0;

  /* out_i = k_i g in affine form (infinity for k_i = 0); out.size() == k.size() */
  void mul_many_g1(const ec::g1_affine_t& g, std::span<const ec::fr_t> k, std::span<ec::g1_affine_t> out) {
    check(k.size(), out.size());
    timed([&] { g1(g, k, out); });
  }
  void mul_many_g2(const ec::g2_affine_t& g, std::span<const ec::fr_t> k, std::span<ec::g2_affine_t> out) {
    check(k.size(), out.size());
    timed([&] { g2(g, k, out); });
  }

  /* wall time spent in mul_many_g1/g2 since construction */
  double seconds() const { return seconds_; }

 protected:
  virtual void g1(const ec::g1_affine_t& g, std::span<const ec::fr_t> k, std::span<ec::g1_affine_t> out) = 0;
  virtual void g2(const ec::g2_affine_t& g, std::span<const ec::fr_t> k, std::span<ec::g2_affine_t> out) = 0;

 private:
  static void check(std::size_t k, std::size_t out) {
    if (k != out)
      throw std::invalid_argument("fixed_base_engine: " + std::to_string(k) + " scalars but room for " +
                                  std::to_string(out) + " points");
  }
  template <class F>
  void timed(F&& f) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    seconds_ += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  }
  double seconds_ = 0;
};

/* fixed_base_table in the caller's oneTBB arena; the table of the last base
   of each group is kept for the next call. */
class cpu_fixed_base_engine final : public fixed_base_engine {
 public:
  std::string name() const override { return "cpu"; }

 protected:
  void g1(const ec::g1_affine_t& g, std::span<const ec::fr_t> k, std::span<ec::g1_affine_t> out) override {
    table_for(t1_, g).mul_many(k, out);
  }
  void g2(const ec::g2_affine_t& g, std::span<const ec::fr_t> k, std::span<ec::g2_affine_t> out) override {
    table_for(t2_, g).mul_many(k, out);
  }

 private:
  template <class C>
  struct cached {
    typename fixed_base_table<C>::affine_t base;
    std::optional<fixed_base_table<C>> table;
  };
  template <class C>
  static const fixed_base_table<C>& table_for(cached<C>& c, const typename fixed_base_table<C>::affine_t& g) {
    if (!c.table || !(c.base == g)) {
      c.table.emplace(g);
      c.base = g;
    }
    return *c.table;
  }
  cached<ec::g1_curve> t1_;
  cached<ec::g2_curve> t2_;
};

}  // namespace cuzk::groth16
