// A circom circuit's input signals as its witness generators know them:
// circom writes their table (256 entries, found by FNV-1a 64 of the signal's
// name, linear probing) into the C++ generator's NAME.dat (hash, first
// signal, size: 3 × u64) and into the wasm's data (hash u64, first signal and
// size u32). The table holds hashes, not names; circom's --sym file names
// them. A client's inputs are checked against it before any generator runs.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "job/circom_inputs.hpp"
#include "job/witness_generator.hpp"

namespace cuzk::job {

struct input_signal {
  std::uint64_t hash = 0;  // FNV-1a 64 of its name
  std::uint64_t size = 0;  // values it takes (an array's, flattened)
  std::string name;        // "" unless a .sym file named it
};

/* FNV-1a 64, as circom hashes an input signal's name. */
std::uint64_t signal_hash(std::string_view name);

/* The table g's files hold, ordered by position; empty when no table is found there (a circuit without
   inputs, or a generator of a circom this does not know), in which case only the generator checks. */
std::vector<input_signal> read_input_signals(const witness_generator& g);
/* Names the table's signals from circom's --sym file (main's own signals, indices stripped). */
void name_input_signals(std::vector<input_signal>& table, const std::filesystem::path& sym);

/* job_error naming what a client's inputs (check_circom_inputs's) get wrong against the table: a signal the
   circuit has not, one given too few or too many values, the ones missing. An empty table checks nothing. */
void check_input_signals(const std::vector<input_signal>& table, const std::vector<circom_input>& given);

}  // namespace cuzk::job
