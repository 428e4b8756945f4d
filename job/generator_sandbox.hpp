// A circom witness generator run as a confined child: its own empty working
// directory, no network (seccomp: socket() refused; a network namespace
// too where the process may make one), no new processes (fork, vfork and
// clone without CLONE_THREAD refused), limits on CPU time, memory (data
// segment) and file size, killed at the deadline and with its parent. The
// generator is the operator's; its inputs are a client's, and they may make
// it loop, allocate or write without end.
#pragma once

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace cuzk::job {

struct sandbox_limits {
  std::chrono::milliseconds deadline{std::chrono::minutes(10)};  // wall clock
  std::uint64_t cpu_seconds = 600;
  std::uint64_t memory_bytes = 8ULL << 30;  // RLIMIT_DATA: what it may allocate
  std::uint64_t output_bytes = 1ULL << 30;  // RLIMIT_FSIZE: the largest file it may write
  std::size_t message_bytes = 4096;         // of its stderr, kept for the error
};

struct sandbox_outcome {
  enum class ending { exited, signalled, cpu_limit, output_limit, deadline, not_started };
  ending how = ending::not_started;
  int code = 0;         // the exit status or the signal
  std::string message;  // its stderr and stdout, the first message_bytes
  double seconds = 0, cpu_seconds = 0;
  std::uint64_t peak_bytes = 0;  // its maximum resident set
  bool ok() const { return how == ending::exited && code == 0; }
};

/* Runs argv (argv[0] an absolute path) in dir, which the caller made empty and owns, confined as above; the
   environment holds PATH only. */
sandbox_outcome run_confined(const std::vector<std::string>& argv, const std::filesystem::path& dir,
                             const sandbox_limits& lim);

/* "the CPU time limit (600 s)", … : which limit an outcome met, for an error; empty when none. */
std::string limit_met(const sandbox_outcome& o, const sandbox_limits& lim);

}  // namespace cuzk::job
