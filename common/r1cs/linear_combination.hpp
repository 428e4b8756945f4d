// Sparse linear combinations sum_k c_k * v_k over circuit variables. Three
// terms live inline, so most constraints build theirs without the heap.
#pragma once

#include <algorithm>
#include <span>

#include <boost/container/small_vector.hpp>

#include "ff/fr.hpp"
#include "r1cs/variable.hpp"

namespace cuzk::r1cs {

using ff::fr_t;

struct lc_term {
  variable var;
  fr_t coeff;
};

class linear_combination {
 public:
  linear_combination() = default;
  linear_combination(variable v) { terms_.push_back({v, fr_t::one()}); }

  /* c * one */
  static linear_combination constant(const fr_t& c) {
    linear_combination r;
    r.add(variable::one(), c);
    return r;
  }

  linear_combination& add(variable v, const fr_t& c) {
    if (!c.is_zero()) terms_.push_back({v, c});
    return *this;
  }
  /* this += s * other */
  linear_combination& add(const linear_combination& other, const fr_t& s) {
    if (s.is_zero()) return *this;
    if (&other == this) return add(linear_combination(other), s);
    for (const auto& t : other.terms_) terms_.push_back({t.var, s.is_one() ? t.coeff : t.coeff * s});
    return *this;
  }

  linear_combination& operator+=(variable v) { return add(v, fr_t::one()); }
  linear_combination& operator-=(variable v) { return add(v, -fr_t::one()); }
  linear_combination& operator+=(const linear_combination& o) {
    if (&o == this) return *this *= fr_t::one().dbl();
    terms_.insert(terms_.end(), o.terms_.begin(), o.terms_.end());
    return *this;
  }
  linear_combination& operator-=(const linear_combination& o) { return add(o, -fr_t::one()); }
  linear_combination& operator*=(const fr_t& s) {
    if (s.is_zero()) terms_.clear();
    for (auto& t : terms_) t.coeff *= s;
    return *this;
  }

  /* Sorts by variable (the order of z), merges repeated variables and drops
     zero coefficients. Long chains of additions stay short this way. */
  void compact() {
    std::sort(terms_.begin(), terms_.end(), [](const lc_term& x, const lc_term& y) { return x.var < y.var; });
    std::size_t out = 0;
    for (std::size_t i = 0; i < terms_.size();) {
      lc_term t = terms_[i];
      for (++i; i < terms_.size() && terms_[i].var == t.var; ++i) t.coeff += terms_[i].coeff;
      if (!t.coeff.is_zero()) terms_[out++] = t;
    }
    terms_.resize(out);
  }

  std::span<const lc_term> terms() const { return {terms_.data(), terms_.size()}; }
  bool empty() const { return terms_.empty(); }
  std::size_t size() const { return terms_.size(); }

  /* <lc, z>, with value(v) giving z at v */
  template <class ValueOf>
  fr_t evaluate(ValueOf&& value) const {
    fr_t acc;
    for (const auto& t : terms_) {
      const fr_t x = value(t.var);
      acc += t.coeff.is_one() ? x : t.coeff * x;
    }
    return acc;
  }

 private:
  boost::container::small_vector<lc_term, 3> terms_;
};

using lc = linear_combination;

inline lc operator+(lc a, variable v) { return a += v; }
inline lc operator-(lc a, variable v) { return a -= v; }
inline lc operator+(lc a, const lc& b) { return a += b; }
inline lc operator-(lc a, const lc& b) { return a -= b; }
inline lc operator*(lc a, const fr_t& s) { return a *= s; }
inline lc operator*(const fr_t& s, lc a) { return a *= s; }

}  // namespace cuzk::r1cs
