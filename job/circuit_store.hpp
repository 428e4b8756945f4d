// Circom circuits installed in a pool by name: the circuit's key (an SRS
// region, by its key id) and its witness generator's files, in one
// shared-memory file POOL.circuit.NAME beside the pool's other files, which
// only the service may write (DESIGN §9) and the processes that run it read.
// A circuit's id hashes its key id and its generator's files: a changed
// generator is a different circuit. Installing a name again replaces it at
// once (a new file renamed over the old).
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "job/input_signals.hpp"
#include "job/witness_generator.hpp"

namespace cuzk::job {

struct installed_circuit {
  struct file {
    std::string name;  // as the generator wants it: NAME and NAME.dat, or NAME.wasm and witness_calculator.js
    std::uint64_t offset = 0, bytes = 0;
    std::string hash;  // shm::content_hash of its bytes
  };
  std::string name, id, key_id;
  witness_generator::kind kind = witness_generator::kind::cpp;
  std::vector<file> files;           // the program first
  std::vector<input_signal> inputs;  // its input signals' table, empty when none was found in its files
  std::uint64_t installed_unix = 0;

  std::string kind_name() const { return kind == witness_generator::kind::cpp ? "cpp" : "wasm"; }
};

/* 1–64 of [A-Za-z0-9._-], not starting with a dot. */
bool is_circuit_name(std::string_view name);

/* Writes POOL.circuit.NAME from the generator g (its files read now, its input signals' table from them,
   named by circom's --sym file when one is given) for the key key_id; job_error when the name is not a
   circuit name, the pool's directory refuses it, or a file cannot be read. */
installed_circuit install_circuit(const std::string& pool, const std::string& name, const std::string& key_id,
                                  const witness_generator& g, const std::filesystem::path& sym = {});
/* The circuit installed as name, or nullopt; job_error when its file is there but not the service's or not a
   circuit's. */
std::optional<installed_circuit> find_circuit(const std::string& pool, const std::string& name);
/* Every circuit installed in the pool, by name; a file that fails find_circuit is skipped. */
std::vector<installed_circuit> list_circuits(const std::string& pool);
/* Whether a circuit of that name was there. */
bool remove_circuit(const std::string& pool, const std::string& name);
/* A job's inputs for an installed circuit, written into the pool's directory as POOL.inputs.RANDOM with the
   pool's access (the job owns the file: it goes when the job ends); returns (path, file identity). */
std::pair<std::string, std::string> store_inputs(const std::string& pool, std::string_view json);
/* Whether a file is one store_inputs made for this pool (a restarted server keeps those of active jobs). */
bool is_inputs_file(const std::string& pool, const std::filesystem::path& p);
/* Those inputs read back by a worker, checked to be the file the server wrote (identity). */
std::string read_inputs(const std::string& path, const std::string& identity);

/* The generator's files written into dir (the caller's private directory), each checked against its hash: the
   generator to run from there. job_error when the circuit changed or went since c was read. */
witness_generator unpack_circuit(const std::string& pool, const installed_circuit& c, const std::filesystem::path& dir);

}  // namespace cuzk::job
