// cuzk-shm subcommands. Each returns the process exit status; on error it has
// printed one line to stderr ("cuzk-shm: error: ...").
#pragma once

#include <cstdint>
#include <string>
#include <vector>

namespace cuzk::shm::tool {

/* Bounds of create's counts, for the command line, the TOML and the JSON config alike. */
inline constexpr std::uint64_t max_jobs = std::uint64_t{1} << 20;
inline constexpr unsigned max_threads = 4096;

struct create_args {
  std::string name;
  std::vector<std::string> slots;  // "4x65536", "16x4096:w=5000", "4x2^20"
  std::uint64_t jobs = 0;          // 0: config file or default
  std::uint32_t leases = 0;
  std::string hugepages;
  unsigned threads = 0;
  std::string config;
  std::string group;  // non-empty: pool, lock file and SRS regions 0660 with this group
  std::string plan;   // cuzk plan --json output: its "pool" (before --config; command-line values win)
};
int cmd_create(const create_args& a);
/* create when the pool is absent; when present, check that its layout is the configured one (never destroys) */
int cmd_ensure(const create_args& a);

struct status_args {
  std::string name;
  std::string hugepages;
  bool json = false;
  double hung_after_s = 0;  // 0: the serving (or last) gpu-server's --hung-timeout, 60 s when none has run
};
int cmd_status(const status_args& a);

struct destroy_args {
  std::string name;
  std::string hugepages;
  bool force = false;
};
int cmd_destroy(const destroy_args& a);

struct load_srs_args {
  std::string name;
  std::string hugepages;
  std::string zkey;
};
int cmd_load_srs(const load_srs_args& a);

/* Prints "cuzk-shm: error: MSG" to stderr; returns 1. */
int fail(const std::string& msg);

}  // namespace cuzk::shm::tool
