// One proof's inputs, on curve C, as every prover takes them: the orchestrator
// (groth16::prove), its engines (engine.hpp's basic_engine_input adds what the
// orchestrator derives), and the server's backends, which prove a slot's memory.
#pragma once

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>

#include "groth16/keys.hpp"

namespace cuzk::groth16 {

/* Fixed r and s make the proof a function of its inputs alone, so backends
   can be compared bit for bit (DESIGN §5); otherwise both are random. */
template <class C>
struct basic_blinding {
  ff::fr<C> r, s;
  static basic_blinding random();
  /* "R,S": two decimal numbers below r; nullopt otherwise. */
  static std::optional<basic_blinding> parse(std::string_view text);
  /* r ‖ s, each canonical little-endian (n_bytes), and back (nullopt: not both below r). */
  std::array<std::uint8_t, 2 * ff::fr<C>::n_bytes> to_bytes() const {
    std::array<std::uint8_t, 2 * ff::fr<C>::n_bytes> out;
    const auto br = r.to_bytes_le(), bs = s.to_bytes_le();
    std::copy(br.begin(), br.end(), out.begin());
    std::copy(bs.begin(), bs.end(), out.begin() + br.size());
    return out;
  }
  static std::optional<basic_blinding> from_bytes(std::span<const std::uint8_t> b) {
    if (b.size() != 2 * ff::fr<C>::n_bytes) return std::nullopt;
    auto r = ff::fr<C>::from_bytes_le(b.first(ff::fr<C>::n_bytes));
    auto s = ff::fr<C>::from_bytes_le(b.last(ff::fr<C>::n_bytes));
    if (!r || !s) return std::nullopt;
    return basic_blinding{*r, *s};
  }
};

/* a, b, c: the evaluations <A_i,z>, <B_i,z>, <C_i,z> of every row of the
   domain (domain_size each; evaluations.hpp builds them), const: no prover
   writes them (a server's slot must stay intact until the proof is stored),
   unless the caller gives them up (abc_consumed).
   z: the full witness (n_vars). */
template <class C>
struct basic_prove_input {
  const basic_proving_key<C>& pk;
  std::string_view key_id;  // names the key on a device (the SRS region's content hash); may be empty
  std::span<const ff::fr<C>> a, b, c;
  std::span<const ff::fr<C>> z;
  std::optional<basic_blinding<C>> rs;      // nullopt: random
  const std::atomic<bool>* stop = nullptr;  // set: stop at the next phase boundary (preempted)
  /* true: a, b, c are the caller's own writable buffers, given up to the
     prover (cuzk prove's), which may compute in them instead of a copy */
  bool abc_consumed = {};
};

}  // namespace cuzk::groth16
