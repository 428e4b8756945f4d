#include "circuits/chain.hpp"

#include <random>

#include <nlohmann/json.hpp>

#include "circuits/json_inputs.hpp"

namespace cuzk::circuits {

using r1cs::lc;
using r1cs::variable;

chain::chain(std::uint64_t size) : size_(size) {
  if (size == 0 || size >= (1ull << 31)) throw circuit_error("chain: size must be in [1, 2^31)");
}

std::string chain::spec() const {
  std::string s = "chain:size=";
  s += std::to_string(size_);
  return s;
}

std::unique_ptr<inputs> chain::parse_inputs(const nlohmann::json& j) const {
  auto in = std::make_unique<inputs_t>();
  in->x = to_fr(input_field(j, "chain", "x"), "chain: \"x\"");
  return in;
}

nlohmann::json chain::random_inputs(std::uint64_t seed) const {
  std::mt19937_64 g(seed);
  const fr_t x = fr_t::from_u64(g()) * fr_t::from_u64(g()) * fr_t::from_u64(g()) * fr_t::from_u64(g());
  return {{"x", x.to_decimal()}};
}

fr_t chain::evaluate(const fr_t& x, std::uint64_t size) {
  fr_t v = x;
  for (std::uint64_t i = 0; i < size; ++i) v = v.sqr() + fr_t::from_u64(i);  // x_{i+1} = x_i^2 + i
  return v;
}

std::vector<fr_t> chain::public_values(const inputs& in) const {
  return {evaluate(inputs_as<inputs_t>(in, spec()).x, size_)};
}

void chain::synthesize(r1cs::constraint_system& cs, const inputs* in) const {
  r1cs::scope s(cs, "chain");
  const bool values = cs.needs_values();
  if (values && !in) throw circuit_error("chain: this mode needs inputs");
  fr_t x = values ? inputs_as<inputs_t>(*in, spec()).x : fr_t::zero();
  variable prev = cs.alloc_aux(x);
  for (std::uint64_t i = 0; i < size_; ++i) {
    r1cs::scope step(cs, "step", static_cast<std::int64_t>(i));
    const fr_t i_fr = fr_t::from_u64(i);
    if (values) x = x.sqr() + i_fr;
    // inputs precede aux in z whatever the allocation order: x_N is wire 1
    const variable next = i + 1 == size_ ? cs.alloc_input(x) : cs.alloc_aux(x);
    lc a;
    a.add(prev, -fr_t::one());
    cs.enforce(a, prev, lc::constant(i_fr) - next, "x_{i+1} = x_i^2 + i");
    prev = next;
  }
}

}  // namespace cuzk::circuits
