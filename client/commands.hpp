// The subcommands of the cuzk CLI, shaped like snarkjs's. Each returns the
// process exit status.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "client/lib/connection.hpp"
#include "curves/curve_id.hpp"

namespace cuzk::cli {

struct setup_args {
  std::string r1cs, circuit, zkey, pool, seed, h_form = "odd-coset";
  std::string curve;             // native circuits: bls12-381 (default) or bn254; an .r1cs names its own
  std::string backend = "auto";  // where the fixed-base multiplications run
};
struct export_vk_args {
  std::string zkey, vk;
};
struct prove_args {
  std::string zkey, wtns, r1cs, circuit, inputs, proof, public_path, blinding;
  std::string wasm, cpp;  // circom's witness generators, run confined on --inputs
  std::string pool;       // with circuit: a circom circuit installed in this pool
  std::string backend = "auto";
  int threads = 0;
};
/* cuzk circuit install|remove NAME (cmd_circuit.cpp). */
struct circuit_args {
  std::string name, pool = "cuzk", zkey, wasm, cpp, sym;
};
struct inputs_args {
  std::string circuit, out;
  std::string curve;  // whose field the values lie in: bls12-381 (default) or bn254
  std::uint64_t seed = 1;
};
struct verify_args {
  std::string vk, public_path, proof;
};
/* The service commands (cmd_submit.cpp, cmd_wait.cpp, cmd_status.cpp); exit
   statuses in client/lib/exit_codes.hpp. */
/* Where the server is, and for tcp:// the CURVE keys to reach it with (cmd_keygen.cpp). */
struct server_args {
  std::string endpoint;
  std::string curve_key;        // this client's secret key file (cuzk keygen)
  std::string server_public;    // the server's public key file
  double request_timeout = -1;  // seconds one attempt waits for a reply (three attempts); -1: the command's default
  bool request_timeout_given() const { return request_timeout > 0; }
};
struct submit_args {
  server_args server;
  std::string zkey, wtns, r1cs, circuit, inputs, job_id, priority = "normal", blinding, vk;
  std::uint32_t partitions = 1;
  bool wait = false;
  bool upload = false;             // stream --wtns/--r1cs into the server's spool (always over tcp://)
  std::string proof, public_path;  // with wait
  double timeout = -1;             // seconds; -1: 3600 with wait, else 10
};
struct wait_args {
  server_args server;
  std::string job_id, proof, public_path;
  double timeout = 3600;
  std::optional<std::uint32_t> owner = std::nullopt;  // --uid: whose job (operators)
  std::string vk;  // --vk: every partition written must verify under it (else the files are removed, exit 1)
};
struct status_args {
  server_args server;
  std::string job_id;
  std::optional<std::uint32_t> owner = std::nullopt;  // --uid, with --job-id
  bool json = false;
  double watch = 0;       // > 0: redraw every this many seconds until interrupted
  bool capacity = false;  // only the capacity (a scheduler's view)
  bool cluster = false;   // only the cluster's nodes (a cluster node's view)
};

struct keygen_args {
  std::string out;
  std::string api, api_dir = "/etc/cuzk/api-keys.d";  // --api NAME: an HTTP API key instead of a CURVE keypair
};
/* cuzk trace (cmd_trace.cpp): the metrics endpoint's /trace.json (or /timeline) */
struct trace_args {
  std::string metrics;  // HOST:PORT
  std::string config;   // else [metrics] address of this file
  std::string since = "10m";
  std::string out;      // "" or "-": stdout
  bool html = false;    // the /timeline page instead
  double timeout = 30;  // seconds for the connection and the reply
};

/* cuzk plan (cmd_plan.cpp): exit 0 when everything fits, 1 when something does not (the plan is printed), 2 on error */
struct plan_args {
  std::vector<std::string> keys;      // key ids (of --pool) or .zkey files
  std::vector<std::string> circuits;  // native circuit specs
  std::string curve;                  // of the circuits
  std::string pool;                   // where key ids live; the plan's pool name
  std::string gpus = "0";             // a count, or auto
  double gpu_memory = 0;              // GiB a GPU (with a count; with auto: overrides the device's)
  std::string gpu_name;               // with a count: which device's timings (default: the H200's)
  double host_ram = 0;                // GiB; 0: this machine's
  double shm_size = 0;                // GiB of /dev/shm; 0: not checked
  unsigned cores = 0;                 // 0: this machine's
  unsigned workers_per_gpu = 2, synth_workers = 0;
  std::uint64_t slots = 0;  // slots a class; 0: proving workers + synth workers + 2
  double device_reserve = 2, device_budget = 0;
  int msm_copies = -1;
  std::string hugepages;
  std::string host_copy = "keep";  // the server's --host-copy: which total is checked against the host's RAM
  bool json = false;
  std::string out;  // also write the JSON here
};

/* The connection options for these server arguments: the CURVE keys read when given. */
client::options connection_options(const server_args& a);

/* --curve's value (cuzk's names or snarkjs's); BLS12-381 when empty. */
curves::curve_id curve_option(const std::string& value);

/* Where wait writes partition i's file: path itself for 0, NAME.i.EXT after. */
std::string partition_path(const std::string& path, std::size_t i);

int run_setup(const setup_args& a);
int run_export_vk(const export_vk_args& a);
int run_prove(const prove_args& a);
/* a.wasm or a.cpp run on a.inputs; the witness written to a.wtns. */
int run_witness(const prove_args& a);
int run_circuit_install(const circuit_args& a);
int run_circuit_remove(const circuit_args& a);
/* The circom circuits installed in the pool. */
int run_list_installed(const std::string& pool);
int run_verify(const verify_args& a);
int run_inputs(const inputs_args& a);
int run_list_circuits();
int run_submit(const submit_args& a);
/* proofs: the proofs written, also kept for the caller (submit --wait checks them without reading its files). */
int run_wait(const wait_args& a, proto::proof_reply* proofs = nullptr);
int run_status(const status_args& a);
/* cuzk cancel --job-id: the job's status after (exit 0 when it is cancelled or had failed, 1 when it was done). */
int run_cancel(const status_args& a);
int run_keygen(const keygen_args& a);
int run_trace(const trace_args& a);
int run_plan(const plan_args& a);

/* "[cuzk] what (1.23 s)" on stderr, for long steps */
void progress(const std::string& what);

}  // namespace cuzk::cli
