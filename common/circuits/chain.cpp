#include "circuits/chain.hpp"

#include <random>

#include <nlohmann/json.hpp>

#include "circuits/json_inputs.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::circuits {

using r1cs::variable;

template <class C>
basic_chain<C>::basic_chain(std::uint64_t size) : size_(size) {
  if (size == 0 || size >= (1ull << 31)) throw circuit_error("chain: size must be in [1, 2^31)");
}

template <class C>
std::string basic_chain<C>::spec() const {
  std::string s = "chain:size=";
  s += std::to_string(size_);
  return s;
}

template <class C>
std::unique_ptr<inputs> basic_chain<C>::parse_inputs(const nlohmann::json& j) const {
  auto in = std::make_unique<inputs_t>();
  in->x = to_fr<C>(input_field(j, "chain", "x"), "chain: \"x\"");
  return in;
}

template <class C>
nlohmann::json basic_chain<C>::random_inputs(std::uint64_t seed) const {
  std::mt19937_64 g(seed);
  const fr x = fr::from_u64(g()) * fr::from_u64(g()) * fr::from_u64(g()) * fr::from_u64(g());
  return {{"x", x.to_decimal()}};
}

template <class C>
auto basic_chain<C>::evaluate(const fr& x, std::uint64_t size) -> fr {
  fr v = x;
  for (std::uint64_t i = 0; i < size; ++i) v = v.sqr() + fr::from_u64(i);  // x_{i+1} = x_i^2 + i
  return v;
}

template <class C>
auto basic_chain<C>::public_values(const inputs& in) const -> std::vector<fr> {
  return {evaluate(inputs_as<inputs_t>(in, spec()).x, size_)};
}

template <class C>
void basic_chain<C>::synthesize(constraint_system& cs, const inputs* in) const {
  using lc = r1cs::basic_lc<C>;
  r1cs::scope s(cs, "chain");
  const bool values = cs.needs_values();
  if (values && !in) throw circuit_error("chain: this mode needs inputs");
  fr x = values ? inputs_as<inputs_t>(*in, spec()).x : fr::zero();
  variable prev = cs.alloc_aux(x);
  for (std::uint64_t i = 0; i < size_; ++i) {
    r1cs::scope step(cs, "step", static_cast<std::int64_t>(i));
    const fr i_fr = fr::from_u64(i);
    if (values) x = x.sqr() + i_fr;
    // inputs precede aux in z whatever the allocation order: x_N is wire 1
    const variable next = i + 1 == size_ ? cs.alloc_input(x) : cs.alloc_aux(x);
    lc a;
    a.add(prev, -fr::one());
    cs.enforce(a, prev, lc::constant(i_fr) - next, "x_{i+1} = x_i^2 + i");
    prev = next;
  }
}

#define CUZK_INSTANTIATE(C) template class basic_chain<C>;
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::circuits
