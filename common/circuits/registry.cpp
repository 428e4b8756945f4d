#include "circuits/registry.hpp"

#include "circuits/chain.hpp"
#include "circuits/poseidon_merkle.hpp"
#include "circuits/sha256_preimage.hpp"
#include "circuits/spec.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::circuits {

const std::vector<circuit_info>& known_circuits() {
  static const std::vector<circuit_info> all = {
      {"chain", "size=N", "x_{i+1} = x_i^2 + i for N steps; private x, public x_N; N constraints"},
      {"poseidon-merkle", "depth=D", "Poseidon Merkle inclusion proof; public root; 245 D + 2 constraints"},
      {"sha256", "bytes=L | blocks=N", "SHA-256 preimage of a public digest; about 27k constraints a block"},
  };
  return all;
}

template <class C>
std::unique_ptr<basic_circuit<C>> make_circuit(std::string_view text) {
  const circuit_spec s = parse_spec(text);
  param_reader p(s);
  if (s.name == "chain") {
    const auto size = p.u64("size", 1024, 1, (1ull << 31) - 1);
    p.finish("size");
    return std::make_unique<basic_chain<C>>(size);
  }
  if (s.name == "poseidon-merkle") {
    const auto depth = p.u64("depth", 20, 1, 64);
    p.finish("depth");
    return std::make_unique<basic_poseidon_merkle<C>>(static_cast<unsigned>(depth));
  }
  if (s.name == "sha256") {
    if (p.has("bytes") && p.has("blocks")) throw circuit_error("sha256: give bytes or blocks, not both");
    std::uint64_t bytes = p.u64("bytes", 55, 0, basic_sha256_preimage<C>::max_bytes);
    if (p.has("blocks")) bytes = 64 * p.u64("blocks", 1, 1, (basic_sha256_preimage<C>::max_bytes + 9) / 64) - 9;
    p.finish("bytes, blocks");
    return std::make_unique<basic_sha256_preimage<C>>(bytes);
  }
  std::string known;
  for (const auto& c : known_circuits()) known += (known.empty() ? "" : ", ") + std::string(c.name);
  throw circuit_error("unknown circuit \"" + s.name + "\" (known: " + known + ")");
}

#define CUZK_INSTANTIATE(C) template std::unique_ptr<basic_circuit<C>> make_circuit<C>(std::string_view);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::circuits
