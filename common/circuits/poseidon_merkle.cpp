#include "circuits/poseidon_merkle.hpp"

#include <random>

#include <nlohmann/json.hpp>

#include "circuits/json_inputs.hpp"
#include "circuits/poseidon.hpp"
#include "circuits/poseidon_gadget.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::circuits {

using r1cs::variable;

template <class C>
basic_poseidon_merkle<C>::basic_poseidon_merkle(unsigned depth) : depth_(depth) {
  if (depth < 1 || depth > 64) throw circuit_error("poseidon-merkle: depth must be in [1, 64]");
}

template <class C>
std::string basic_poseidon_merkle<C>::spec() const {
  std::string s = "poseidon-merkle:depth=";
  s += std::to_string(depth_);
  return s;
}

template <class C>
std::unique_ptr<inputs> basic_poseidon_merkle<C>::parse_inputs(const nlohmann::json& j) const {
  const std::string who = name();
  auto in = std::make_unique<inputs_t>();
  in->leaf = to_fr<C>(input_field(j, who, "leaf"), who + ": \"leaf\"");
  in->index = to_u64(input_field(j, who, "index"), who + ": \"index\"");
  if (depth_ < 64 && in->index >> depth_)
    throw circuit_error(who + ": \"index\" " + std::to_string(in->index) + " does not fit depth " +
                        std::to_string(depth_));
  const auto& path = input_field(j, who, "path");
  if (!path.is_array() || path.size() != depth_)
    throw circuit_error(who + ": \"path\" must be an array of " + std::to_string(depth_) + " siblings");
  for (std::size_t i = 0; i < path.size(); ++i)
    in->path.push_back(to_fr<C>(path[i], who + ": \"path\"[" + std::to_string(i) + "]"));
  return in;
}

template <class C>
nlohmann::json basic_poseidon_merkle<C>::random_inputs(std::uint64_t seed) const {
  std::mt19937_64 g(seed);
  auto random_fr = [&] { return fr::from_u64(g()) * fr::from_u64(g()) * fr::from_u64(g()) * fr::from_u64(g()); };
  nlohmann::json path = nlohmann::json::array();
  for (unsigned i = 0; i < depth_; ++i) path.push_back(random_fr().to_decimal());
  const std::uint64_t index = depth_ == 64 ? g() : g() & ((1ull << depth_) - 1);
  return {{"leaf", random_fr().to_decimal()}, {"index", std::to_string(index)}, {"path", path}};
}

template <class C>
auto basic_poseidon_merkle<C>::root(const fr& leaf, std::uint64_t index, std::span<const fr> path) -> fr {
  fr node = leaf;
  for (std::size_t i = 0; i < path.size(); ++i)
    node = (index >> i) & 1 ? poseidon_hash2<C>(path[i], node) : poseidon_hash2<C>(node, path[i]);
  return node;
}

template <class C>
auto basic_poseidon_merkle<C>::public_values(const inputs& in) const -> std::vector<fr> {
  const auto& m = inputs_as<inputs_t>(in, spec());
  return {root(m.leaf, m.index, m.path)};
}

template <class C>
void basic_poseidon_merkle<C>::synthesize(constraint_system& cs, const inputs* in) const {
  using lc = r1cs::basic_lc<C>;
  using num = basic_num<C>;
  r1cs::scope s(cs, "poseidon-merkle");
  if (cs.needs_values() && !in) throw circuit_error(spec() + ": this mode needs inputs");
  const inputs_t placeholder{};
  const inputs_t& w = in ? inputs_as<inputs_t>(*in, spec()) : placeholder;
  auto sibling = [&](unsigned i) { return i < w.path.size() ? w.path[i] : fr::zero(); };

  num node = num::of(cs.alloc_aux(w.leaf), w.leaf);
  const variable index = cs.alloc_aux(fr::from_u64(w.index));
  std::vector<variable> bits;
  lc packed;
  fr pow2 = fr::one();
  for (unsigned i = 0; i < depth_; ++i, pow2 = pow2.dbl()) {
    r1cs::scope bs(cs, "index bit", i);
    bits.push_back(cs.alloc_aux(fr::from_u64((w.index >> i) & 1)));
    cs.enforce(bits.back(), lc(variable::one()) - bits.back(), lc(), "b (1 - b) = 0");
    packed.add(bits.back(), pow2);
  }
  cs.enforce(packed, variable::one(), index, "index = sum 2^i b_i");

  for (unsigned i = 0; i < depth_; ++i) {
    r1cs::scope ls(cs, "level", i);
    const bool right_child = (w.index >> i) & 1;
    const num sib = num::of(cs.alloc_aux(sibling(i)), sibling(i));
    const fr left_v = right_child ? sib.v : node.v;
    const variable left = cs.alloc_aux(left_v);
    cs.enforce(bits[i], sib.l - node.l, lc(left) - node.l, "left = node + b (sibling - node)");
    num right{node.l + sib.l - left, node.v + sib.v - left_v};
    right.l.compact();
    node = poseidon_hash2(cs, num::of(left, left_v), right);
  }
  const variable root = cs.alloc_input(node.v);
  cs.enforce(node.l, variable::one(), root, "root");
}

#define CUZK_INSTANTIATE(C) template class basic_poseidon_merkle<C>;
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::circuits
