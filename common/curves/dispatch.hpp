// From a curve id read at run time (a file's prime, a job record) to the
// curve type the generic code is instantiated on: f(curves::bls12_381{}) or
// f(curves::bn254{}), the one place a run-time id becomes a type.
#pragma once

#include <stdexcept>
#include <string>

#include "curves/bls12_381.hpp"
#include "curves/bn254.hpp"
#include "curves/curve_id.hpp"

namespace cuzk::curves {

template <class F>
decltype(auto) visit(curve_id id, F&& f) {
  switch (id) {
    case curve_id::bls12_381: return f(bls12_381{});
    case curve_id::bn254: return f(bn254{});
  }
  throw std::invalid_argument("unknown curve id " + std::to_string(int(id)));
}

}  // namespace cuzk::curves
