// Names a root family in GoogleTest's parameter listings.
#pragma once

#include <ostream>

#include "poly/roots.hpp"

namespace cuzk::poly {
inline void PrintTo(root_family f, std::ostream* os) { *os << (f == root_family::bellman ? "bellman" : "snarkjs"); }
}  // namespace cuzk::poly
