// The elements of a vector that satisfy a predicate, taken out of it in order
// (due Waits, the Waits of a finished job).
#pragma once

#include <utility>
#include <vector>

namespace cuzk::util {

template <class T, class P>
std::vector<T> take_if(std::vector<T>& from, P&& pred) {
  std::vector<T> taken, kept;
  for (auto& x : from) (pred(x) ? taken : kept).push_back(std::move(x));
  from = std::move(kept);
  return taken;
}

}  // namespace cuzk::util
