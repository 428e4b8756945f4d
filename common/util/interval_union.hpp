// The union of intervals [a, b) noted in any order: add() returns how much of
// an interval was not covered yet, so a running total of add() is the exact
// length of the union (e.g. the seconds a GPU ran kernels, from spans of
// proofs that overlap). Intervals wholly before a horizon may be forgotten
// (forget_before) to bound memory; an interval added later that reaches back
// behind the horizon is counted from the horizon on only.
#pragma once

#include <algorithm>
#include <iterator>
#include <map>

namespace cuzk::util {

class interval_union {
 public:
  /* [a, b) joins the union; returns the length it added */
  double add(double a, double b) {
    a = std::max(a, horizon_);
    if (!(b > a)) return 0;
    double added = b - a;
    /* merge every interval that overlaps or touches [a, b) */
    auto it = spans_.upper_bound(a);
    if (it != spans_.begin() && std::prev(it)->second >= a) --it;
    while (it != spans_.end() && it->first <= b) {
      added -= std::max(0.0, std::min(b, it->second) - std::max(a, it->first));
      a = std::min(a, it->first);
      b = std::max(b, it->second);
      it = spans_.erase(it);
    }
    spans_.emplace(a, b);
    return added;
  }
  /* drops the intervals that end before t; later additions are clipped to t */
  void forget_before(double t) {
    horizon_ = std::max(horizon_, t);
    while (!spans_.empty() && spans_.begin()->second <= t) spans_.erase(spans_.begin());
  }
  std::size_t spans() const { return spans_.size(); }

 private:
  std::map<double, double> spans_;  // disjoint, start -> end
  double horizon_ = -1e300;
};

}  // namespace cuzk::util
