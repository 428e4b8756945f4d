// Which curve a key, witness, job or proof belongs to. The id travels in
// files' primes, job records, slots, SRS regions and the protocol; the
// numbers are stored, so they never change.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace cuzk::curves {

enum class curve_id : std::uint8_t { bls12_381 = 1, bn254 = 2 };

/* How a family builds its pairing: BLS12 (loop over x, HHT hard part) or BN
   (loop over 6x + 2 with two Frobenius steps, FKR hard part). */
enum class family : std::uint8_t { bls12, bn };
/* The sextic twist carrying G2: M (b' = b xi) or D (b' = b / xi). */
enum class twist : std::uint8_t { m, d };

constexpr std::string_view name(curve_id c) { return c == curve_id::bn254 ? "bn254" : "bls12-381"; }
/* as people write it in prose and logs */
constexpr std::string_view display_name(curve_id c) { return c == curve_id::bn254 ? "BN254" : "BLS12-381"; }
/* snarkjs's and ffjavascript's names ("curve" in its JSON files) */
constexpr std::string_view snarkjs_name(curve_id c) { return c == curve_id::bn254 ? "bn128" : "bls12381"; }

/* Accepts cuzk's names and the ones other tools use. */
inline std::optional<curve_id> parse_curve(std::string_view s) {
  std::string t;
  for (char ch : s) t.push_back(ch >= 'A' && ch <= 'Z' ? char(ch - 'A' + 'a') : ch);
  if (t == "bls12-381" || t == "bls12_381" || t == "bls12381") return curve_id::bls12_381;
  if (t == "bn254" || t == "bn128" || t == "alt_bn128" || t == "bn256") return curve_id::bn254;
  return std::nullopt;
}

inline bool valid_curve_id(std::uint8_t v) { return v == 1 || v == 2; }

}  // namespace cuzk::curves
