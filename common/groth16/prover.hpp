// The Groth16 prover (eprint 2016/260 §3.2, in snarkjs's arrangement,
// groth16_prove.js):
//   π_A = α + Σ z_i A_i + r δ
//   π_B = β + Σ z_i B_i + s δ                        (in G2; B1 alike in G1)
//   π_C = Σ_{private i} z_i C_i + Σ h_j H_j + s π_A + r B1 − r s δ
// One orchestrator over an engine (engine.hpp): the engine computes H and
// the five sums, prove does the rest (DESIGN §5).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string_view>
#include <type_traits>

#include "groth16/engine.hpp"
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
using blinding = basic_blinding<curves::bls12_381>;

/* a, b, c: the evaluations <A_i,z>, <B_i,z>, <C_i,z> of every row of the
   domain (domain_size each; evaluations.hpp builds them), left unchanged.
   z: the full witness (n_vars). std::invalid_argument on wrong sizes and,
   for a coefficient-form key, on a witness with Z ∤ AB − C. preempted when
   *stop is set at a phase boundary. */
template <class C>
basic_proof<C> prove(basic_engine<C>& e, const basic_proving_key<C>& pk, std::span<const ff::fr<C>> z,
                     std::span<const ff::fr<C>> a, std::span<const ff::fr<C>> b, std::span<const ff::fr<C>> c,
                     const std::type_identity_t<std::optional<basic_blinding<C>>>& rs = {}, prove_timings* t = nullptr,
                     const std::atomic<bool>* stop = nullptr);
/* The same on a CPU engine in the caller's TBB arena. */
template <class C>
basic_proof<C> prove(const basic_proving_key<C>& pk, std::span<const ff::fr<C>> z, std::span<const ff::fr<C>> a,
                     std::span<const ff::fr<C>> b, std::span<const ff::fr<C>> c,
                     const std::type_identity_t<std::optional<basic_blinding<C>>>& rs = {}, prove_timings* t = nullptr);

}  // namespace cuzk::groth16
