// A proving key of either curve as the service holds it: the curve is read
// from the key's file (io::zkey_curve), the key parsed for that curve, and
// code that needs the points or the field visits it as its own type. The
// sizes every part of the service reads (slots, limits, status) are at hand
// without a visit: key->n_vars, key->domain_size, key->curve.
#pragma once

#include <cstdint>
#include <memory>
#include <type_traits>
#include <variant>

#include "curves/dispatch.hpp"
#include "groth16/keys.hpp"

namespace cuzk::job {

template <class C>
using key_ptr = std::shared_ptr<const groth16::basic_proving_key<C>>;

struct key_shape {
  curves::curve_id curve = curves::curve_id::bls12_381;
  std::uint32_t n_vars = 0, n_public = 0, domain_size = 0;
  groth16::h_form h = groth16::h_form::odd_coset;
  bool native = false;  // groth16::basic_proving_key::native
  std::uint32_t log_domain() const { return domain_size ? (std::uint32_t)__builtin_ctz(domain_size) : 0; }
};

template <class C>
key_shape shape_of(const groth16::basic_proving_key<C>& pk) {
  return {C::id, pk.n_vars, pk.n_public, pk.domain_size, pk.h, pk.native};
}

class any_key {
 public:
  any_key() = default;
  any_key(std::nullptr_t) {}
  template <class C>
  any_key(key_ptr<C> k) : k_(std::move(k)) {
    if (const auto& p = std::get<key_ptr<C>>(k_)) shape_ = shape_of(*p);
  }

  explicit operator bool() const {
    return std::visit([](const auto& k) { return bool(k); }, k_);
  }
  const key_shape* operator->() const { return &shape_; }
  const key_shape& shape() const { return shape_; }

  /* f(const basic_proving_key<C>&) for the key's curve C; the key must be set */
  template <class F>
  decltype(auto) visit(F&& f) const {
    return std::visit([&](const auto& k) -> decltype(auto) { return f(*k); }, k_);
  }
  /* the key as C's, or null for a key of the other curve */
  template <class C>
  key_ptr<C> as() const {
    if (const auto* p = std::get_if<key_ptr<C>>(&k_)) return *p;
    return nullptr;
  }

 private:
  curves::all::variant<key_ptr> k_;
  key_shape shape_;
};

}  // namespace cuzk::job
