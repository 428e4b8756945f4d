// A proof as a server sent it, checked here: its public signals when it
// verifies under the verification key, on the key's curve C.
#pragma once

#include <exception>
#include <optional>
#include <vector>

#include <nlohmann/json.hpp>

#include "groth16/verifier.hpp"
#include "io/snarkjs_json.hpp"
#include "proto/message.hpp"

namespace cuzk::cli {

template <class C>
std::optional<std::vector<ff::fr<C>>> verified_signals(const groth16::basic_verifying_key<C>& vk,
                                                       const proto::partition_proof& part) {
  try {
    auto signals = io::public_from_json<C>(nlohmann::json::parse(part.public_json));
    if (signals.size() + 1 != vk.ic.size() ||
        !groth16::verify<C>(vk, signals, io::proof_from_json<C>(nlohmann::json::parse(part.proof_json))))
      return std::nullopt;
    return signals;
  } catch (const std::exception&) {
    return std::nullopt;
  }
}

}  // namespace cuzk::cli
