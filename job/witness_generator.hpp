// A circom circuit's witness generator, either of circom's two: the C++ one
// (circom --c, built: the binary with its NAME.dat beside it) or the wasm
// one (circom --wasm: NAME.wasm with circom's witness_calculator.js beside
// it, run by Node.js). It runs confined (generator_sandbox.hpp) on a
// client's inputs and writes a .wtns.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "job/generator_sandbox.hpp"

namespace cuzk::job {

struct witness_generator {
  enum class kind { cpp, wasm };
  kind k = kind::cpp;
  std::filesystem::path program;  // cpp: the binary; wasm: NAME.wasm

  /* A .wasm (its witness_calculator.js beside it) or a C++ generator (its NAME.dat beside it); job_error naming
     what is missing. */
  static witness_generator at(const std::filesystem::path& p);
  /* The files it runs from: the binary and its .dat, or the .wasm and witness_calculator.js. */
  std::vector<std::filesystem::path> files() const;
};

/* A directory of this process's (0700) under the temporary directory, removed with its content. */
struct private_dir {
  std::filesystem::path path;
  explicit private_dir(std::string_view tag);
  ~private_dir();
  private_dir(const private_dir&) = delete;
  private_dir& operator=(const private_dir&) = delete;
};

struct generated_witness {
  std::vector<std::uint8_t> wtns;  // the .wtns file's bytes
  double seconds = 0, cpu_seconds = 0;
  std::uint64_t peak_bytes = 0;
};

/* Runs g on inputs (a JSON object, checked by check_circom_inputs) confined under lim, in a fresh private
   directory it removes. job_error with circom's own message (a failed assert: its template and line; an input
   signal missing, short or unknown) or the limit the generator met. */
generated_witness generate_witness(const witness_generator& g, const std::string& inputs_json,
                                   const sandbox_limits& lim);

}  // namespace cuzk::job
