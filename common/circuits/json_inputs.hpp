// Reading circuit inputs from JSON: field elements as decimal strings (as
// snarkjs writes them) or non-negative integers; errors name the field.
#pragma once

#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include <nlohmann/json.hpp>

#include "curves/bn254.hpp"
#include "ff/fr.hpp"

namespace cuzk::circuits {

/* j[key] must exist; circuit_error "<who>: inputs need \"key\"" otherwise. */
const nlohmann::json& input_field(const nlohmann::json& j, std::string_view who, std::string_view key);

/* A decimal string or non-negative integer below C's r; what names it in errors. */
template <class C = curves::bls12_381>
ff::fr<C> to_fr(const nlohmann::json& v, std::string_view what);

/* A decimal string or non-negative integer fitting 64 bits. */
std::uint64_t to_u64(const nlohmann::json& v, std::string_view what);

/* Lowercase hex string of bytes, even length, no 0x prefix required. */
std::vector<std::uint8_t> hex_to_bytes(const nlohmann::json& v, std::string_view what);
std::string bytes_to_hex(std::span<const std::uint8_t> b);

}  // namespace cuzk::circuits
