// The curves cuzk proves on, as one list, and the one place a run-time id (a
// file's prime, a job record) becomes the curve type the generic code is
// instantiated on: f(curves::bls12_381{}) or f(curves::bn254{}). A new curve
// is its type header, its curve_id, and one more entry in `all` and in
// CUZK_CURVES below (and CMake's CUZK_CURVES, common/CMakeLists.txt, for the
// generated translation units); what is held or chosen per curve is built from them.
#pragma once

#include <stdexcept>
#include <string>
#include <tuple>
#include <variant>

#include "curves/bls12_381.hpp"
#include "curves/bn254.hpp"
#include "curves/curve_id.hpp"

namespace cuzk::curves {

template <class... Cs>
struct curve_list {
  /* T<C> for one of the curves / for each of them */
  template <template <class> class T>
  using variant = std::variant<T<Cs>...>;
  template <template <class> class T>
  using tuple = std::tuple<T<Cs>...>;
};

using all = curve_list<bls12_381, bn254>;

/* X(curve) for each curve of `all`: explicit instantiations of the generic code */
#define CUZK_CURVES(X) X(curves::bls12_381) X(curves::bn254)

template <class C, class... Cs, class F>
decltype(auto) visit_in(curve_list<C, Cs...>, curve_id id, F& f) {
  if (id == C::id) return f(C{});
  if constexpr (sizeof...(Cs) > 0)
    return visit_in(curve_list<Cs...>{}, id, f);
  else
    throw std::invalid_argument("unknown curve id " + std::to_string(int(id)));
}

template <class F>
decltype(auto) visit(curve_id id, F&& f) {
  return visit_in(all{}, id, f);
}

}  // namespace cuzk::curves
