#include "circuits/poseidon_merkle.hpp"

#include <random>

#include <nlohmann/json.hpp>

#include "circuits/json_inputs.hpp"
#include "circuits/poseidon.hpp"
#include "circuits/poseidon_gadget.hpp"

namespace cuzk::circuits {

using r1cs::lc;
using r1cs::variable;

poseidon_merkle::poseidon_merkle(unsigned depth) : depth_(depth) {
  if (depth < 1 || depth > 64) throw circuit_error("poseidon-merkle: depth must be in [1, 64]");
}

std::string poseidon_merkle::spec() const {
  std::string s = "poseidon-merkle:depth=";
  s += std::to_string(depth_);
  return s;
}

std::unique_ptr<inputs> poseidon_merkle::parse_inputs(const nlohmann::json& j) const {
  const std::string who = name();
  auto in = std::make_unique<inputs_t>();
  in->leaf = to_fr(input_field(j, who, "leaf"), who + ": \"leaf\"");
  in->index = to_u64(input_field(j, who, "index"), who + ": \"index\"");
  if (depth_ < 64 && in->index >> depth_)
    throw circuit_error(who + ": \"index\" " + std::to_string(in->index) + " does not fit depth " +
                        std::to_string(depth_));
  const auto& path = input_field(j, who, "path");
  if (!path.is_array() || path.size() != depth_)
    throw circuit_error(who + ": \"path\" must be an array of " + std::to_string(depth_) + " siblings");
  for (std::size_t i = 0; i < path.size(); ++i)
    in->path.push_back(to_fr(path[i], who + ": \"path\"[" + std::to_string(i) + "]"));
  return in;
}

nlohmann::json poseidon_merkle::random_inputs(std::uint64_t seed) const {
  std::mt19937_64 g(seed);
  auto random_fr = [&] { return fr_t::from_u64(g()) * fr_t::from_u64(g()) * fr_t::from_u64(g()) * fr_t::from_u64(g()); };
  nlohmann::json path = nlohmann::json::array();
  for (unsigned i = 0; i < depth_; ++i) path.push_back(random_fr().to_decimal());
  const std::uint64_t index = depth_ == 64 ? g() : g() & ((1ull << depth_) - 1);
  return {{"leaf", random_fr().to_decimal()}, {"index", std::to_string(index)}, {"path", path}};
}

fr_t poseidon_merkle::root(const fr_t& leaf, std::uint64_t index, std::span<const fr_t> path) {
  fr_t node = leaf;
  for (std::size_t i = 0; i < path.size(); ++i)
    node = (index >> i) & 1 ? poseidon_hash2(path[i], node) : poseidon_hash2(node, path[i]);
  return node;
}

std::vector<fr_t> poseidon_merkle::public_values(const inputs& in) const {
  const auto& m = inputs_as<inputs_t>(in, spec());
  return {root(m.leaf, m.index, m.path)};
}

void poseidon_merkle::synthesize(r1cs::constraint_system& cs, const inputs* in) const {
  r1cs::scope s(cs, "poseidon-merkle");
  if (cs.needs_values() && !in) throw circuit_error(spec() + ": this mode needs inputs");
  const inputs_t placeholder{};
  const inputs_t& w = in ? inputs_as<inputs_t>(*in, spec()) : placeholder;
  auto sibling = [&](unsigned i) { return i < w.path.size() ? w.path[i] : fr_t::zero(); };

  num node = num::of(cs.alloc_aux(w.leaf), w.leaf);
  const variable index = cs.alloc_aux(fr_t::from_u64(w.index));
  std::vector<variable> bits;
  lc packed;
  fr_t pow2 = fr_t::one();
  for (unsigned i = 0; i < depth_; ++i, pow2 = pow2.dbl()) {
    r1cs::scope bs(cs, "index bit", i);
    bits.push_back(cs.alloc_aux(fr_t::from_u64((w.index >> i) & 1)));
    cs.enforce(bits.back(), lc(variable::one()) - bits.back(), lc(), "b (1 - b) = 0");
    packed.add(bits.back(), pow2);
  }
  cs.enforce(packed, variable::one(), index, "index = sum 2^i b_i");

  for (unsigned i = 0; i < depth_; ++i) {
    r1cs::scope ls(cs, "level", i);
    const bool right_child = (w.index >> i) & 1;
    const num sib = num::of(cs.alloc_aux(sibling(i)), sibling(i));
    const fr_t left_v = right_child ? sib.v : node.v;
    const variable left = cs.alloc_aux(left_v);
    cs.enforce(bits[i], sib.l - node.l, lc(left) - node.l, "left = node + b (sibling - node)");
    num right{node.l + sib.l - left, node.v + sib.v - left_v};
    right.l.compact();
    node = poseidon_hash2(cs, num::of(left, left_v), right);
  }
  const variable root = cs.alloc_input(node.v);
  cs.enforce(node.l, variable::one(), root, "root");
}

}  // namespace cuzk::circuits
