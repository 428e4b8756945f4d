// One TOML file for every cuzk process (issue 12), read with toml++:
//   [pool]    name, hugepages, slots, group, threads, jobs, leases
//   [server]  endpoint, worker_endpoint, client_group, worker_group, backend, gpus, ...
//   [worker]  name, checksum, synth_deadline, stop_timeout, progress_grace
//   [metrics] address, timeline_minutes
// A process turns the keys it reads into its own command-line options,
// placed before the real command line, so a flag given there wins. Every
// section and key in the file must be one some cuzk process reads; an
// unknown one, or a value of the wrong type, is an error naming the key and
// the file's line.
#pragma once

#include <CLI/CLI.hpp>

#include <filesystem>
#include <map>
#include <optional>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

namespace cuzk::config {

class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/* How a key becomes command-line arguments. */
struct option {
  std::string flag;      // "--worker-endpoint"
  bool is_flag = false;  // a switch: true adds the flag, false adds nothing
};

/* The keys of one section a process reads, by key. */
struct section {
  std::string name;
  std::map<std::string, option> keys;
};

/* Every key of every section that some process reads. */
const std::map<std::string, std::set<std::string>>& known_keys();

struct arguments {
  std::vector<std::string> args;  // "--pool", "cuzk", ...: after argv[0], before the command line
  /* the file position of the key behind each flag: "cuzk.toml:12: key server.backend" */
  std::map<std::string, std::string> origin;
};

/* The file's keys that `read` names, as arguments; throws error("FILE:LINE: ...") for a
   syntax error, an unknown section or key, or a value of the wrong type. */
arguments read(const std::filesystem::path& file, const std::vector<section>& read);

/* The value of --config in argv (--config FILE or --config=FILE), if any. */
std::optional<std::string> config_path(int argc, const char* const* argv);

/* argv[0], the file's arguments, then argv[1..]: what the process parses. */
std::vector<std::string> merged(int argc, const char* const* argv, const arguments& a);

/* A parse error message, prefixed with the file position when the flag it names came from the file. */
std::string explain(const std::string& message, const arguments& a);

/* The whole command line of a process: --config's file (the sections it
   reads) then argv. nullopt: parsed; else the exit code, the error printed.
   Options given twice keep the last value: create `app` with
   option_defaults()->multi_option_policy(TakeLast). */
std::optional<int> parse(CLI::App& app, int argc, char** argv, const std::vector<section>& sections);

}  // namespace cuzk::config
