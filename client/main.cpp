// cuzk: Groth16 on BLS12-381 and BN254 — setup, export-vk, prove, verify; submit, wait, status against cuzk-gpu-server.
#include <CLI/CLI.hpp>

#include <cstdio>
#include <exception>
#include <string>

#include "commands.hpp"

int main(int argc, char** argv) {
  using namespace cuzk::cli;
  CLI::App app{"cuzk: Groth16 proofs on BLS12-381 and BN254, compatible with snarkjs/circom"};
  app.require_subcommand(1);

  setup_args sa;
  auto* setup = app.add_subcommand(
      "setup", "development trusted setup (single party) writing a snarkjs .zkey (file or SRS region)");
  auto* src = setup->add_option_group("circuit source")->require_option(1);
  src->add_option("--r1cs", sa.r1cs, "circom .r1cs file")->check(CLI::ExistingFile);
  src->add_option("--circuit", sa.circuit, "native circuit, NAME:key=value,... (e.g. chain:size=65536)");
  auto* dst = setup->add_option_group("output")->require_option(1);
  dst->add_option("--zkey", sa.zkey, "output proving key");
  dst->add_option("--pool", sa.pool,
                  "write the key straight into an SRS region of this pool (native circuits; prints its key id)");
  setup->add_option("--curve", sa.curve,
                    "curve of a native circuit's key: bls12-381 (default) or bn254 (an .r1cs names its own)");
  setup->add_option("--seed", sa.seed, "derive the toxic waste from this string (reproducible keys)");
  setup->add_option("--h-form", sa.h_form, "H query form: odd-coset (snarkjs) or coefficient (bellman)")
      ->check(CLI::IsMember({"odd-coset", "coefficient"}));
  setup
      ->add_option("--backend", sa.backend,
                   "fixed-base multiplications on cpu, cuda or auto (cuda when a device is present)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}))
      ->capture_default_str();

  export_vk_args ea;
  auto* exp = app.add_subcommand("export-vk", "write snarkjs's verification_key.json");
  exp->add_option("--zkey", ea.zkey)->required()->check(CLI::ExistingFile);
  exp->add_option("--vk", ea.vk)->required();

  prove_args pa;
  auto* prove = app.add_subcommand("prove", "prove with a .zkey and a circom witness or a native circuit");
  prove->add_option("--zkey", pa.zkey, "the proving key (not with --pool)")->check(CLI::ExistingFile);
  prove->add_option("--pool", pa.pool, "with --circuit NAME: the pool where that circom circuit is installed");
  auto* wit = prove->add_option_group("witness")->require_option(1);
  wit->add_option("--wtns", pa.wtns, "circom witness (.wtns)")->check(CLI::ExistingFile);
  wit->add_option("--circuit", pa.circuit, "native circuit, NAME:key=value,...; with --pool, an installed circuit");
  wit->add_option("--wasm", pa.wasm, "circom's wasm witness generator (NAME.wasm; witness_calculator.js beside it)")
      ->check(CLI::ExistingFile);
  wit->add_option("--cpp", pa.cpp, "circom's C++ witness generator, built (NAME; NAME.dat beside it)")
      ->check(CLI::ExistingFile);
  prove
      ->add_option("--inputs", pa.inputs,
                   "inputs JSON of the native circuit, or of the circom circuit whose generator --wasm or --cpp names")
      ->check(CLI::ExistingFile);
  prove
      ->add_option("--r1cs", pa.r1cs,
                   "with --wtns: check the witness against the circuit first, naming a failing constraint")
      ->check(CLI::ExistingFile);
  prove->add_option("--proof", pa.proof)->required();
  prove->add_option("--public", pa.public_path)->required();
  prove->add_option("--blinding", pa.blinding, "fixed r,s (decimal) for a deterministic proof");
  prove->add_option("--threads", pa.threads, "worker threads (default: all cores)");
  prove->add_option("--backend", pa.backend, "cpu, cuda or auto (cuda when a device is present)")
      ->check(CLI::IsMember({"cpu", "cuda", "auto"}))
      ->capture_default_str();

  prove_args wit_a;  // wasm, cpp, inputs; wtns is the output
  auto* witness =
      app.add_subcommand("witness", "compute a circom witness (.wtns) from input JSON, as snarkjs wtns calculate");
  auto* gen = witness->add_option_group("generator")->require_option(1);
  gen->add_option("--wasm", wit_a.wasm, "circom's wasm witness generator (NAME.wasm)")->check(CLI::ExistingFile);
  gen->add_option("--cpp", wit_a.cpp, "circom's C++ witness generator, built")->check(CLI::ExistingFile);
  witness->add_option("--inputs", wit_a.inputs, "the circuit's input JSON")->required()->check(CLI::ExistingFile);
  witness->add_option("--wtns", wit_a.wtns, "the witness file to write")->required();

  inputs_args ia;
  auto* inputs = app.add_subcommand("inputs", "write example inputs JSON for a native circuit (random, from a seed)");
  inputs->add_option("--circuit", ia.circuit, "native circuit, NAME:key=value,...")->required();
  inputs->add_option("--seed", ia.seed, "seed of the random inputs");
  inputs->add_option("--out", ia.out, "output file (default: stdout)");
  inputs->add_option("--curve", ia.curve, "field of the values: bls12-381 (default) or bn254, the key's curve");

  std::string list_pool;
  auto* list = app.add_subcommand("circuits", "list the native circuits, and with --pool the installed circom ones");
  list->add_option("--pool", list_pool, "also the circom circuits installed in this pool");

  circuit_args ca;
  auto* circuit = app.add_subcommand("circuit", "install or remove a circom circuit in a pool, by name");
  circuit->require_subcommand(1);
  auto* cinstall = circuit->add_subcommand("install", "load a circom circuit's key and witness generator into a pool");
  cinstall->add_option("name", ca.name, "the name jobs give it")->required();
  cinstall->add_option("--pool", ca.pool)->capture_default_str();
  cinstall->add_option("--zkey", ca.zkey, "its proving key")->required()->check(CLI::ExistingFile);
  auto* cgen = cinstall->add_option_group("generator")->require_option(1);
  cgen->add_option("--wasm", ca.wasm, "circom --wasm's NAME.wasm (witness_calculator.js beside it)")
      ->check(CLI::ExistingFile);
  cgen->add_option("--cpp", ca.cpp, "circom --c's directory, built here with its Makefile, or the binary built there")
      ->check(CLI::ExistingPath);
  cinstall->add_option("--sym", ca.sym, "circom --sym's NAME.sym: names the input signals in refusals")
      ->check(CLI::ExistingFile);
  auto* cremove = circuit->add_subcommand("remove", "remove a circom circuit from a pool (its key stays)");
  cremove->add_option("name", ca.name)->required();
  cremove->add_option("--pool", ca.pool)->capture_default_str();

  verify_args va;
  auto* verify = app.add_subcommand("verify", "verify a proof: exit 0 valid, 1 invalid, 2 error");
  verify->add_option("--vk", va.vk)->required();
  verify->add_option("--public", va.public_path)->required();
  verify->add_option("--proof", va.proof)->required();

  const std::string default_endpoint = "ipc:///run/cuzk/cuzk.sock";
  auto add_server_options = [&](CLI::App* sub, server_args& a) {
    sub->add_option("--endpoint", a.endpoint, "server endpoint: ipc://PATH, or tcp://HOST:PORT for a network server")
        ->envname("CUZK_ENDPOINT")
        ->default_val(default_endpoint);
    sub->add_option("--curve-key", a.curve_key, "tcp://: this client's secret key file (cuzk keygen)")
        ->envname("CUZK_CURVE_KEY");
    sub->add_option("--server-public", a.server_public, "tcp://: the server's public key file")
        ->envname("CUZK_SERVER_PUBLIC");
    sub->add_option(
           "--request-timeout", a.request_timeout,
           "seconds one attempt waits for the server's reply before reconnecting, in every command (3 attempts; "
           "default 10, status 5 s twice, submit without --wait its --timeout in two)")
        ->envname("CUZK_REQUEST_TIMEOUT")
        ->check(CLI::Range(0.1, 3600.0));
  };
  keygen_args ka;
  auto* keygen =
      app.add_subcommand("keygen", "make a CURVE keypair: FILE (secret, 0600) and FILE.pub; prints the public key");
  auto* kout = keygen->add_option("--out", ka.out, "the secret key file to write (never over an existing one)");
  auto* kapi = keygen->add_option(
      "--api", ka.api,
      "instead: an HTTP API key NAME for cuzk-gateway; prints its token once and writes only its hash to --api-dir");
  keygen->add_option("--api-dir", ka.api_dir, "the gateway's API keys directory")->capture_default_str()->needs(kapi);
  kout->excludes(kapi);
  submit_args sb;
  auto* submit = app.add_subcommand("submit", "submit a job to cuzk-gpu-server; prints the job id");
  add_server_options(submit, sb.server);
  submit->add_option(
      "--zkey", sb.zkey,
      "proving key: a path on the server's host (under its --keys-dir) or an installed key id (not for an "
      "installed circuit)");
  submit->add_option("--vk", sb.vk,
                     "with --wait: verification key JSON to check the proof with (default: the --zkey file's)");
  auto* work = submit->add_option_group("work")->require_option(1);
  work->add_option("--wtns", sb.wtns, "circom witness (.wtns)");
  work->add_option("--circuit", sb.circuit,
                   "native circuit, NAME:key=value,...; or a circom circuit installed in the server's pool, by name");
  submit->add_option("--r1cs", sb.r1cs, "with --wtns: the circuit, to name a failing constraint");
  submit->add_option("--inputs", sb.inputs, "with --circuit: its inputs JSON (read here, sent inline)")
      ->check(CLI::ExistingFile);
  submit->add_option("--job-id", sb.job_id, "idempotency key (default: a random uuid)");
  submit
      ->add_option("--priority", sb.priority,
                   "critical (deadline work: preempts, limited per client), high, normal or low")
      ->check(CLI::IsMember({"critical", "high", "normal", "low"}));
  submit->add_option("--partitions", sb.partitions)->check(CLI::Range(1, 16));
  submit->add_option("--blinding", sb.blinding, "fixed r,s (decimal) for a deterministic proof");
  submit->add_flag("--wait", sb.wait, "wait for the proof and write --proof/--public");
  submit->add_flag("--upload", sb.upload,
                   "stream --wtns (and --r1cs) to the server instead of naming a path it reads (always over tcp://; "
                   "--zkey is then an installed key id)");
  submit->add_option("--proof", sb.proof);
  submit->add_option("--public", sb.public_path);
  submit->add_option("--timeout", sb.timeout, "seconds (default: 3600 with --wait, else 10)");

  wait_args wa;
  auto* wait = app.add_subcommand("wait", "wait for a job and write its proof (partition i > 0: NAME.i.json)");
  add_server_options(wait, wa.server);
  wait->add_option("--job-id", wa.job_id)->required();
  wait->add_option("--proof", wa.proof)->required();
  wait->add_option("--public", wa.public_path)->required();
  wait->add_option("--timeout", wa.timeout, "seconds")->default_val(3600);
  wait->add_option("--uid", wa.owner, "the uid whose job it is (operators, when several users have that job id)");
  wait->add_option("--vk", wa.vk, "verification key JSON every proof written must verify under (else: removed, exit 1)")
      ->check(CLI::ExistingFile);

  status_args ca2;
  auto* cancel = app.add_subcommand("cancel", "stop a job: it fails \"cancelled by its client\" (exit 1: it was done)");
  add_server_options(cancel, ca2.server);
  cancel->add_option("--job-id", ca2.job_id)->required();
  cancel->add_option("--uid", ca2.owner, "the uid whose job it is (operators, when several users have that job id)");
  cancel->add_flag("--json", ca2.json, "the job's status as JSON");

  status_args sa2;
  auto* status = app.add_subcommand("status", "jobs, slots and workers of a server, or one job");
  add_server_options(status, sa2.server);
  auto* job_id = status->add_option("--job-id", sa2.job_id);
  status
      ->add_option("--uid", sa2.owner,
                   "with --job-id: the uid whose job it is (operators, when several users have that job id)")
      ->needs(job_id);
  status->add_flag("--json", sa2.json, "JSON instead of tables");
  auto* capacity =
      status
          ->add_flag(
              "--capacity", sa2.capacity,
              "only the capacity: load per key and priority, free slots per class, throughput, estimated wait, and "
              "whether a Submit of yours would be accepted now")
          ->excludes(job_id);
  status
      ->add_flag("--cluster", sa2.cluster,
                 "only the cluster's nodes (a cluster node): alive, last heartbeat, keys, claims, and the database's "
                 "state")
      ->excludes(job_id)
      ->excludes(capacity);
  status->add_option("--watch", sa2.watch, "redraw the tables every SECONDS (e.g. 2) until interrupted")
      ->check(CLI::PositiveNumber);

  plan_args pl;
  auto* plan = app.add_subcommand("plan",
                                  "size a node: pool slots, /dev/shm, huge pages, device residency, host RAM and "
                                  "partitions per minute for its keys (the JSON feeds cuzk-shm create --plan)");
  plan->add_option("--key", pl.keys, "a .zkey file, or the id of a key in --pool (repeatable)");
  plan->add_option("--circuit", pl.circuits,
                   "a native circuit, NAME:key=value,... as cuzk circuits lists (repeatable)");
  plan->add_option("--curve", pl.curve, "curve of the --circuit keys: bls12-381 (default) or bn254");
  plan->add_option("--pool", pl.pool, "the pool whose keys --key ids name; the planned pool's name");
  plan->add_option("--gpus", pl.gpus,
                   "GPUs: a count (with --gpu-memory), or auto (this machine's CUDA devices); 0: CPU backend")
      ->capture_default_str();
  plan->add_option("--gpu-memory", pl.gpu_memory, "GiB of memory a GPU (an H200: 139.8)")->check(CLI::Range(0.0, 1e6));
  plan->add_option("--gpu-name", pl.gpu_name, "the GPU model, for the measured timings (default: the H200's figures)");
  plan->add_option("--host-ram", pl.host_ram, "GiB of host RAM (default: this machine's)")->check(CLI::Range(0.0, 1e7));
  plan->add_option("--shm-size", pl.shm_size, "GiB /dev/shm may hold (default: not checked)")
      ->check(CLI::Range(0.0, 1e7));
  plan->add_option("--cores", pl.cores, "CPU cores, for the CPU backend's timings (default: this machine's)");
  plan->add_option("--workers-per-gpu", pl.workers_per_gpu, "proving workers a GPU (cuzk-gpu-server's)")
      ->check(CLI::Range(1u, 8u))
      ->capture_default_str();
  plan->add_option("--synth-workers", pl.synth_workers, "synth workers (default: one a proving worker)")
      ->check(CLI::Range(0u, 4000u));
  plan->add_option("--slots", pl.slots, "slots a class (default: proving workers + synth workers + 2)")
      ->check(CLI::Range(std::uint64_t{0}, std::uint64_t{1} << 20));
  plan->add_option("--device-reserve", pl.device_reserve, "GiB left unused on each GPU (cuzk-gpu-server's)")
      ->check(CLI::Range(0.0, 1e6))
      ->capture_default_str();
  plan->add_option("--device-budget", pl.device_budget, "GiB a GPU for keys and buffers, 0: all but the reserve")
      ->check(CLI::Range(0.0, 1e6));
  plan->add_option("--msm-copies", pl.msm_copies,
                   "shifted copies a query (cuzk-gpu-server's): -1 as many as fit, 0 none")
      ->check(CLI::Range(-1, 64))
      ->capture_default_str();
  plan->add_option("--hugepages", pl.hugepages, "the hugetlbfs directory the pool will be created on");
  plan->add_option("--host-copy", pl.host_copy,
                   "the server's --host-copy: keep or drop (both are reported; this one is checked against the host)")
      ->check(CLI::IsMember({"keep", "drop"}));
  plan->add_flag("--json", pl.json, "JSON (what cuzk-shm create --plan reads) instead of the table");
  plan->add_option("--out", pl.out, "also write the JSON to this file");

  trace_args ta;
  auto* trace = app.add_subcommand(
      "trace",
      "the server's GPU timeline (phase spans of its last minutes) as Chrome trace-event JSON, from its metrics "
      "endpoint: open it in Perfetto (ui.perfetto.dev) or chrome://tracing");
  trace->add_option("--metrics", ta.metrics, "the server's metrics endpoint HOST:PORT (its --metrics)")
      ->envname("CUZK_METRICS");
  trace->add_option("--config", ta.config, "else the server's TOML configuration: its [metrics] address");
  trace->add_option("--since", ta.since,
                    "how far back: seconds or a duration (90s, 5m, 1h; default 10m, the "
                    "server keeps [metrics] timeline_minutes)");
  trace->add_option("-o,--out", ta.out, "file to write (default: stdout)");
  trace->add_flag("--html", ta.html, "the /timeline page (HTML with an SVG) instead of the JSON");
  trace->add_option("--timeout", ta.timeout, "seconds to wait for the endpoint (default 30)")
      ->check(CLI::Range(0.1, 3600.0));

  try {
    app.parse(argc, argv);
  } catch (const CLI::ParseError& e) {
    int rc = app.exit(e);
    return rc == 0 ? 0 : 2;
  }
  try {
    if (*setup) return run_setup(sa);
    if (*exp) return run_export_vk(ea);
    if (*prove) return run_prove(pa);
    if (*witness) return run_witness(wit_a);
    if (*verify) return run_verify(va);
    if (*inputs) return run_inputs(ia);
    if (*list) {
      run_list_circuits();
      return list_pool.empty() ? 0 : run_list_installed(list_pool);
    }
    if (*circuit) return *cinstall ? run_circuit_install(ca) : run_circuit_remove(ca);
    if (*submit) return run_submit(sb);
    if (*wait) return run_wait(wa);
    if (*status) return run_status(sa2);
    if (*cancel) return run_cancel(ca2);
    if (*keygen) return run_keygen(ka);
    if (*trace) return run_trace(ta);
    if (*plan) return run_plan(pl);
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuzk: error: %s\n", e.what());
    return 2;
  }
  return 2;
}
