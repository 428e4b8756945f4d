// Sparse linear combinations sum_k c_k * v_k over circuit variables, with
// coefficients in the scalar field of curve C (BLS12-381 where unnamed).
// Three terms live inline, so most constraints build theirs without the heap.
#pragma once

#include <algorithm>
#include <span>

#include <boost/container/small_vector.hpp>

#include "curves/bn254.hpp"
#include "ff/fr.hpp"
#include "r1cs/variable.hpp"

namespace cuzk::r1cs {

using ff::fr_t;

template <class C>
struct basic_lc_term {
  variable var;
  ff::fr<C> coeff;
};

template <class C>
class basic_linear_combination {
 public:
  using curve = C;
  using fr = ff::fr<C>;
  using lc = basic_linear_combination;
  using term = basic_lc_term<C>;

  basic_linear_combination() = default;
  basic_linear_combination(variable v) { terms_.push_back({v, fr::one()}); }

  /* c * one */
  static lc constant(const fr& c) {
    lc r;
    r.add(variable::one(), c);
    return r;
  }

  lc& add(variable v, const fr& c) {
    if (!c.is_zero()) terms_.push_back({v, c});
    return *this;
  }
  /* this += s * other */
  lc& add(const lc& other, const fr& s) {
    if (s.is_zero()) return *this;
    if (&other == this) return add(lc(other), s);
    for (const auto& t : other.terms_) terms_.push_back({t.var, s.is_one() ? t.coeff : t.coeff * s});
    return *this;
  }

  lc& operator+=(variable v) { return add(v, fr::one()); }
  lc& operator-=(variable v) { return add(v, -fr::one()); }
  lc& operator+=(const lc& o) {
    if (&o == this) return *this *= fr::one().dbl();
    terms_.insert(terms_.end(), o.terms_.begin(), o.terms_.end());
    return *this;
  }
  lc& operator-=(const lc& o) { return add(o, -fr::one()); }
  lc& operator*=(const fr& s) {
    if (s.is_zero()) terms_.clear();
    for (auto& t : terms_) t.coeff *= s;
    return *this;
  }

  /* Sorts by variable (the order of z), merges repeated variables and drops
     zero coefficients. Long chains of additions stay short this way. */
  void compact() {
    std::sort(terms_.begin(), terms_.end(), [](const term& x, const term& y) { return x.var < y.var; });
    std::size_t out = 0;
    for (std::size_t i = 0; i < terms_.size();) {
      term t = terms_[i];
      for (++i; i < terms_.size() && terms_[i].var == t.var; ++i) t.coeff += terms_[i].coeff;
      if (!t.coeff.is_zero()) terms_[out++] = t;
    }
    terms_.resize(out);
  }

  std::span<const term> terms() const { return {terms_.data(), terms_.size()}; }
  bool empty() const { return terms_.empty(); }
  std::size_t size() const { return terms_.size(); }

  /* <lc, z>, with value(v) giving z at v */
  template <class ValueOf>
  fr evaluate(ValueOf&& value) const {
    fr acc;
    for (const auto& t : terms_) {
      const fr x = value(t.var);
      acc += t.coeff.is_one() ? x : t.coeff * x;
    }
    return acc;
  }

  friend lc operator+(lc a, variable v) { return a += v; }
  friend lc operator-(lc a, variable v) { return a -= v; }
  friend lc operator+(lc a, const lc& b) { return a += b; }
  friend lc operator-(lc a, const lc& b) { return a -= b; }
  friend lc operator*(lc a, const fr& s) { return a *= s; }
  friend lc operator*(const fr& s, lc a) { return a *= s; }

 private:
  boost::container::small_vector<term, 3> terms_;
};

template <class C>
using basic_lc = basic_linear_combination<C>;

}  // namespace cuzk::r1cs
