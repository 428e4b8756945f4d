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

template <class C>
class basic_fixed_base_engine {
 public:
  using curve = C;
  using fr = ff::fr<C>;
  using g1 = ec::g1_affine<C>;
  using g2 = ec::g2_affine<C>;
  virtual ~basic_fixed_base_engine() = default;

  /* "cpu", "cuda (NVIDIA H200)", ... */
  virtual std::string name() const = 0;

  /* out_i = k_i g in affine form (infinity for k_i = 0); out.size() == k.size() */
  void mul_many_g1(const g1& g, std::span<const fr> k, std::span<g1> out) {
    check(k.size(), out.size());
    timed([&] { run_g1(g, k, out); });
  }
  void mul_many_g2(const g2& g, std::span<const fr> k, std::span<g2> out) {
    check(k.size(), out.size());
    timed([&] { run_g2(g, k, out); });
  }

  /* wall time spent in mul_many_g1/g2 since construction */
  double seconds() const { return seconds_; }

 protected:
  virtual void run_g1(const g1& g, std::span<const fr> k, std::span<g1> out) = 0;
  virtual void run_g2(const g2& g, std::span<const fr> k, std::span<g2> out) = 0;

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
template <class C>
class basic_cpu_fixed_base_engine final : public basic_fixed_base_engine<C> {
  using base = basic_fixed_base_engine<C>;

 public:
  std::string name() const override { return "cpu"; }

 protected:
  void run_g1(const typename base::g1& g, std::span<const typename base::fr> k,
              std::span<typename base::g1> out) override {
    table_for(t1_, g).mul_many(k, out);
  }
  void run_g2(const typename base::g2& g, std::span<const typename base::fr> k,
              std::span<typename base::g2> out) override {
    table_for(t2_, g).mul_many(k, out);
  }

 private:
  template <class G>
  struct cached {
    typename fixed_base_table<G>::affine_t base;
    std::optional<fixed_base_table<G>> table;
  };
  template <class G>
  static const fixed_base_table<G>& table_for(cached<G>& c, const typename fixed_base_table<G>::affine_t& g) {
    if (!c.table || !(c.base == g)) {
      c.table.emplace(g);
      c.base = g;
    }
    return *c.table;
  }
  cached<ec::g1_group<C>> t1_;
  cached<ec::g2_group<C>> t2_;
};

}  // namespace cuzk::groth16
