// What one service job proves, as the job table stores it (≤ 2 KiB of JSON,
// shm::spec_bytes) and as Assign carries it to a worker.
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>

namespace cuzk::job {

/* A request the service cannot run; the message says which field. */
class job_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/* A deterministic proof's r ‖ s: the canonical bytes of two elements of the key's scalar field
   (groth16::basic_blinding::to_bytes), checked below r when the Submit arrived. */
using blinding_bytes = std::array<std::uint8_t, 64>;

struct spec {
  std::string zkey;                        // absolute path the key was loaded from (for people)
  std::string circuit;                     // native: "chain:size=N"; empty for circom jobs
  std::string inputs;                      // native: inputs JSON, an object or one object per partition
  std::string wtns;                        // circom: absolute path of the witness
  std::string r1cs;                        // circom, optional: absolute path; names an unsatisfied constraint
  std::optional<blinding_bytes> blinding;  // deterministic proofs (hex in the JSON)
  std::string wtns_identity = {}, r1cs_identity = {};  // job::file_identity of the files the server checked
  // An installed circom circuit (job/circuit_store.hpp): its name and id when the Submit arrived, and the file its
  // inputs were written to (in the pool's directory), with its identity; a worker computes the witness.
  std::string installed = {}, circuit_id = {}, inputs_file = {}, inputs_identity = {};

  bool is_native() const { return !circuit.empty(); }
  bool is_installed() const { return !installed.empty(); }
  std::string to_json() const;
  /* job_error on malformed JSON or a spec that is neither native nor circom. */
  static spec from_json(std::string_view text);
};

}  // namespace cuzk::job
