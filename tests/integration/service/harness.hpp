// Real processes for the service tests: a pool made with cuzk-shm, a
// cuzk-gpu-server and cuzk-synth-workers started with posix_spawn (logs in
// the test's directory), killed with SIGKILL or stopped with SIGTERM.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <thread>
#include <string>
#include <vector>

#include "client/lib/connection.hpp"
#include "groth16/keys.hpp"
#include "net/curve_keys.hpp"

namespace cuzk::test {

namespace fs = std::filesystem;

class process {
 public:
  process(const std::string& exe, const std::vector<std::string>& args, const fs::path& log,
          const std::map<std::string, std::string>& env = {});
  ~process();  // SIGKILL if still running
  process(const process&) = delete;
  process& operator=(const process&) = delete;

  pid_t pid() const { return pid_; }
  bool running();
  void kill9();
  /* SIGTERM, then the exit status (-1 if it had to be killed after `grace`). */
  int terminate(std::chrono::seconds grace = std::chrono::seconds(30));
  /* Waits for the process to end by itself; its raw wait status, or nullopt on timeout. */
  std::optional<int> wait_exit(std::chrono::seconds limit);

 private:
  pid_t pid_ = -1;
  std::optional<int> status_;
};

/* One service: pool, endpoint and a directory, all unique to the test. */
class service {
 public:
  /* slots: cuzk-shm --slots values, e.g. {"4x4096", "2x32768"}. */
  explicit service(const std::vector<std::string>& slots, const std::vector<std::string>& create_args = {});
  ~service();  // kills what runs, destroys the pool (and its SRS regions)
  /* The pool name the next service of this process will have. */
  static std::string next_pool();

  const fs::path& dir() const { return dir_; }
  const std::string& pool() const { return pool_; }
  const std::string& endpoint() const { return endpoint_; }
  const std::string& worker_endpoint() const { return worker_endpoint_; }
  /* --backend of start_server (the GPU service tests: cuda). */
  std::string backend = "cpu";
  /* A command start_server runs the server under, e.g. {"prlimit", "--nofile=1024:1024", "--"}. */
  std::vector<std::string> server_wrapper;

  std::unique_ptr<process> start_server(const std::map<std::string, std::string>& env = {},
                                        const std::vector<std::string>& extra_args = {});
  std::unique_ptr<process> start_worker(const std::string& name, const std::map<std::string, std::string>& env = {});
  /* A worker with more command-line arguments (--synth-deadline 1, ...). */
  std::unique_ptr<process> start_worker_with(const std::string& name, const std::vector<std::string>& extra_args,
                                             const std::map<std::string, std::string>& env = {});
  client::connection connect(std::chrono::milliseconds timeout = std::chrono::milliseconds(20000));
  /* cuzk-shm status --json, parsed. */
  std::string shm_status_json();
  /* cuzk status --json [--job-id ID] against this service, its output. */
  std::string cli_status_json(const std::string& job_id = "");

 private:
  fs::path dir_;
  std::string pool_, endpoint_, worker_endpoint_;
  int logs_ = 0;
};

/* The service's binaries: CUZK_SHM_BIN, CUZK_SERVER_BIN or CUZK_WORKER_BIN from
   the environment when set (a GPU machine runs binaries packed elsewhere),
   else the ones this build made. */
std::string shm_bin();
std::string server_bin();
std::string worker_bin();
std::string cli_bin();  // CUZK_CLI_BIN: the cuzk client

/* A dev key for a native circuit over curve C, made once per test binary (cached by spec). */
template <class C>
struct basic_test_key {
  std::string path;
  std::shared_ptr<const groth16::basic_proving_key<C>> pk;
};
using test_key = basic_test_key<curves::bls12_381>;
template <class C = curves::bls12_381>
const basic_test_key<C>& key_for(const std::string& circuit_spec);

/* Random valid inputs for a circuit, as JSON text. */
std::string inputs_for(const std::string& circuit_spec, std::uint64_t seed);

/* A satisfying witness of a native circuit (BLS12-381, its test key) for random inputs, written as DIR/name (.wtns). */
fs::path witness_file(const fs::path& dir, const std::string& name, const std::string& circuit_spec,
                      std::uint64_t seed);

/* A Submit of a native circuit with random inputs, under its test key. */
proto::submit native_submit(const std::string& job_id, const std::string& circuit_spec, std::uint64_t seed,
                            const std::string& client);

/* A whole file as text (a log, a status dump). */
std::string read_all(const fs::path& p);

/* Every server log of the service, concatenated. */
std::string server_logs(const service& svc);

/* `cuzk-shm load-srs` of a key file into the service's pool: its key id. */
std::string load_srs(const service& svc, const std::string& zkey);

/* The proof and public signals parse, and the proof verifies under the key's vk. */
template <class C>
bool verifies(const groth16::basic_proving_key<C>& pk, const std::string& proof_json, const std::string& public_json);

/* The port of the metrics endpoint a server started with --metrics 127.0.0.1:0 logged ("metrics on
   127.0.0.1:PORT") in one of the logs in `dir`; 0 when none did within `limit`. */
unsigned short metrics_port(const fs::path& dir, std::chrono::milliseconds limit = std::chrono::seconds(30));

/* The endpoint a server started with --network-endpoint tcp://ADDR:* logged ("network clients on tcp://…"),
   or "" when none did within 30 s. */
std::string network_endpoint(const service& svc);

/* `cuzk keygen` keypairs DIR/NAME.key (and .key.pub) in the service's directory for each name; those in
   `authorized` are copied into DIR/clients.d as NAME.pub. Throws when keygen fails. */
std::map<std::string, net::curve_keypair> keygen(const service& svc, const std::vector<std::string>& names,
                                                 const std::vector<std::string>& authorized);
/* A client's options for CURVE under `me` against `server`: one attempt of `timeout`. */
client::options curve_options(const net::curve_keypair& me, const net::curve_keypair& server,
                              std::chrono::milliseconds timeout);

/* The worst latency of c.status(), asked every 20 ms while more(samples so far) holds; the count in *samples. */
std::chrono::nanoseconds worst_status(client::connection& c, const std::function<bool(int)>& more,
                                      int* samples = nullptr);

/* Polls f() every 50 ms until it returns true or `limit` passes. */
template <class F>
bool eventually(F&& f, std::chrono::milliseconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (std::chrono::steady_clock::now() < end) {
    if (f()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(50));
  }
  return f();
}

}  // namespace cuzk::test
