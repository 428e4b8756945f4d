// sha256:bytes=L (or sha256:blocks=N, meaning L = 64 N - 9, the longest
// message that pads to N blocks) — knowledge of an L-byte preimage of a
// public SHA-256 digest.
//   inputs {"preimage_hex": "<2L hex digits>"}, private: one boolean wire a bit;
//   or {"preimage_seed": S}: the L bytes `cuzk inputs --seed S` would give
//   (a service job's inputs hold 2 KiB: longer preimages can only be named)
//   public: the digest as two field elements, hi = bytes 0..15 and
//   lo = bytes 16..31, each read as a 128-bit big-endian integer
// The padding is constant (L is a parameter); about 27,000 constraints a block.
#pragma once

#include "circuits/circuit.hpp"

namespace cuzk::circuits {

template <class C>
class basic_sha256_preimage final : public basic_circuit<C> {
 public:
  using typename basic_circuit<C>::fr;
  using typename basic_circuit<C>::constraint_system;

  struct inputs_t : inputs {
    std::vector<std::uint8_t> preimage;
  };

  static constexpr std::uint64_t max_bytes = 1ull << 24;

  explicit basic_sha256_preimage(std::uint64_t bytes);

  std::string name() const override { return "sha256"; }
  std::string spec() const override;
  std::unique_ptr<inputs> parse_inputs(const nlohmann::json& j) const override;
  nlohmann::json random_inputs(std::uint64_t seed) const override;
  std::vector<fr> public_values(const inputs& in) const override;
  void synthesize(constraint_system& cs, const inputs* in) const override;
  /* blocks = ceil((L + 9) / 64), each compression at least 20,000 constraints (about 27,000) once the
     message holds a witness byte (L = 0: constants only, folded) */
  std::uint64_t min_constraints() const override { return bytes_ ? (bytes_ + 9 + 63) / 64 * 20000 : 0; }

  /* (hi, lo) of a digest */
  static std::array<fr, 2> pack_digest(const std::array<std::uint8_t, 32>& digest);

 private:
  std::uint64_t bytes_;
};

}  // namespace cuzk::circuits
