// cuzk-gpu-server --pool NAME --endpoint E [--backend cpu|cuda|auto] [--gpus LIST] [--no-register] [--metrics
// HOST:PORT]
//                 [--hold-proving]
// Exit codes: 0 after SIGTERM, 1 on a startup error, 75 after a sticky device error (restart it).
#include <CLI/CLI.hpp>
#include <pwd.h>
#include <spdlog/spdlog.h>

#include <algorithm>
#include <cmath>
#include <csignal>
#include <cstdio>
#include <exception>
#include <filesystem>
#include <optional>
#include <tuple>
#include <vector>

#include "cluster/cluster_credentials.hpp"
#include "config/config_file.hpp"
#include "config/range.hpp"
#include "log/log_setup.hpp"
#include "net/endpoint.hpp"
#include "listeners/authorized_clients.hpp"
#include "server.hpp"
#include "shm/srs_region.hpp"

namespace {

/* A local user by name or number. */
std::optional<uid_t> user_uid(const std::string& who) {
  if (!who.empty() && who.find_first_not_of("0123456789") == std::string::npos && who.size() <= 10) {
    const auto v = std::stoull(who);
    if (v < UINT32_MAX) return static_cast<uid_t>(v);
    return std::nullopt;
  }
  struct passwd pw {};
  struct passwd* found = nullptr;
  std::vector<char> buf(16384);
  if (::getpwnam_r(who.c_str(), &pw, buf.data(), buf.size(), &found) != 0 || !found) return std::nullopt;
  return found->pw_uid;
}

}  // namespace

int main(int argc, char** argv) {
  // Before any thread starts: SIGTERM and SIGINT (stop), SIGUSR1 and SIGUSR2
  // (hold and resume proving) are taken by the server's signal thread
  // (sigtimedwait), whatever the loop is doing.
  sigset_t stop;
  sigemptyset(&stop);
  for (int sig : {SIGTERM, SIGINT, SIGUSR1, SIGUSR2}) sigaddset(&stop, sig);
  pthread_sigmask(SIG_BLOCK, &stop, nullptr);
  CLI::App app{"cuzk-gpu-server: schedules jobs, hands slots to synthesis workers, proves filled slots",
               "cuzk-gpu-server"};
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);  // flags override --config
  std::string config;
  app.add_option("--config", config, "TOML configuration ([pool] and [server]; flags given here win)");
  cuzk::server::server_options o;
  // Every count and duration is bounded: an absurd value (10^8 threads) is
  // refused with the option's name and range, never tried.
  constexpr unsigned max_threads = 4096;
  constexpr double max_gib = 1 << 20, day = 24 * 3600;
  app.add_option("--pool", o.pool, "pool region name (created by cuzk-shm create)")->required();
  app.add_option("--hugepages", o.hugepage_dir, "hugetlbfs directory the pool was created in");
  app.add_option("--endpoint", o.endpoint, "clients' ZeroMQ endpoint to bind, e.g. ipc:///run/cuzk/cuzk.sock")
      ->required();
  app.add_option(
      "--worker-endpoint", o.worker_endpoint,
      "synthesis workers' endpoint (default: the client endpoint + \".worker\"); 0600, or 0660 with --worker-group");
  app.add_option("--client-group", o.client_group, "group whose members may connect to --endpoint (socket 0660)");
  app.add_option("--worker-group", o.worker_group, "service group whose members may connect to --worker-endpoint");
  app.add_option("--keys-dir", o.keys_dirs, "directory of .zkey files clients may name by path (repeatable)")
      ->check(CLI::ExistingDirectory);
  app.add_option("--witness-dir", o.witness_dirs, "directory of .wtns/.r1cs files clients may name (repeatable)")
      ->check(CLI::ExistingDirectory);
  app.add_option("--backend", o.backend.kind, "cpu, cuda or auto")->check(CLI::IsMember({"cpu", "cuda", "auto"}));
  using cuzk::config::range;
  // Jobs, files and connections a client or the server may have: 1 to 2^20.
  const auto count = [&](const std::string& flag, auto& field, const std::string& help) {
    return app.add_option(flag, field, help)->check(range(1u, 1u << 20));
  };
  app.add_option("--threads", o.backend.threads, "CPU backend threads (0: all cores)")->check(range(0u, max_threads));
  bool no_register = false;
  app.add_flag("--no-register", no_register,
               "do not register the pool with CUDA: copy a, b, c, z through heap memory first (the old, slow way)");
  app.add_flag("--hold-proving", o.hold_proving,
               "start with proving held: workers synthesize into slots, FILLED slots wait until SIGUSR2 "
               "(SIGUSR1 holds again), e.g. to fill a backlog or for GPU maintenance");
  app.add_option("--gpus", o.backend.gpus,
                 "CUDA devices to prove on, e.g. 0,1 (a device named twice is two logical GPUs); "
                 "default: every visible device")
      ->delimiter(',')
      ->check(range(0, 255));
  app.add_option("--workers-per-gpu", o.backend.workers_per_gpu,
                 "proving workers per GPU (one copies while another computes)")
      ->check(range(1u, 8u));
  app.add_option(
         "--msm-copies", o.backend.msm_copies,
         "shifted copies of each MSM query's bases kept on the device beside a resident key, so a Pippenger "
         "window reads a copy instead of doubling: -1 as many as pay and fit the budget left (H first), 0 none, "
         "N at most N a query")
      ->check(range(-1, 64));
  double reserve_gib = 2, budget_gib = 0;
  app.add_option("--device-reserve", reserve_gib, "GiB of device memory left unused on each GPU")
      ->check(range(0.0, max_gib));
  app.add_option("--device-budget", budget_gib,
                 "GiB of device memory per GPU for resident keys and proof buffers (0: all but the reserve); "
                 "a key that does not fit is streamed for each proof")
      ->check(range(0.0, max_gib));
  const CLI::Validator key_id([](std::string& k) { return cuzk::shm::is_key_id(k) ? "" : k + " is not a key id"; },
                              "KEY_ID");
  app.add_option("--key", o.keys,
                 "a .zkey to load into its SRS region, or the id of a key the pool holds, to parse and make resident "
                 "before serving (repeatable)")
      ->check(key_id | CLI::ExistingFile);
  std::string host_copy = "keep";
  app.add_option("--host-copy", host_copy,
                 "keep: a --key file's points stay in its SRS region (a restart is READY in seconds); drop: they "
                 "leave host memory once every GPU holds them, and a restart reads them from the file")
      ->check(CLI::IsMember({"keep", "drop"}));
  app.add_option("--host-copy-drop", o.host_copy_drop, "a --key (file or id) whose points are dropped (repeatable)");
  app.add_option("--host-copy-keep", o.host_copy_keep, "a --key (file or id) whose points are kept (repeatable)");
  double hung_s = 60;
  app.add_option("--hung-timeout", hung_s, "seconds without a heartbeat after which a worker holding a slot is killed")
      ->check(range(0.001, day) & cuzk::config::whole(1000, "milliseconds"));
  double retention_s = 24 * 3600;
  app.add_option("--retention", retention_s, "seconds a finished job whose result was never fetched is kept")
      ->check(range(0.0, 365 * day) & cuzk::config::whole(1, "seconds"));
  count("--max-jobs-per-client", o.max_jobs_per_client, "unfinished jobs one client uid may have");
  app.add_option("--max-waits-per-client", o.max_waits_per_client, "pending waits one client uid may have")
      ->check(range(1u, 1u << 16));
  app.add_option("--prepare-threads", o.prepare_threads, "threads that load keys and check submissions")
      ->check(range(1u, 256u));
  app.add_option("--max-synth-crashes", o.max_synth_crashes,
                 "syntheses of one partition that may end their worker (killed, out of memory?) before its job "
                 "fails as poison input")
      ->check(range(1u, 100u));
  app.add_option("--max-preparing", o.max_preparing, "Submits waiting for or in preparation, all clients")
      ->check(range(1u, 4096u));
  app.add_option("--max-preparing-per-client", o.max_preparing_per_client,
                 "Submits of one client uid waiting for or in preparation")
      ->check(range(1u, 4096u));
  app.add_option("--max-fetches-per-client", o.max_fetches_per_client,
                 "proof replies of one client uid being built at once")
      ->check(range(1u, 1024u));
  app.add_option("--max-connections-per-client", o.clients.per_uid, "client connections one uid may hold")
      ->check(range(1u, 65536u));
  count("--max-connections", o.clients.total, "client connections in total (capped below the descriptor limit)");
  app.add_option("--operator", o.operators,
                 "uid that may see every job (repeatable; root and the server's uid always may)");
  std::vector<std::string> gateways;
  app.add_option("--gateway", gateways,
                 "who may speak for API keys (cuzk-gateway; repeatable): a local user (name or uid) connecting to "
                 "--endpoint, or curve:NAME, a network client of --clients-dir; they speak for http: identities only");
  app.add_option("--metrics", o.metrics_address,
                 "HOST:PORT to serve /metrics (Prometheus), /healthz and /readyz on, e.g. 127.0.0.1:9464 "
                 "(port 0: any free port, logged); default: no metrics endpoint");
  app.add_option("--timeline-minutes", o.timeline_minutes,
                 "minutes of phase spans /timeline and /trace.json on the metrics endpoint keep (default 10)")
      ->check(range(1u, 24u * 60u));
  app.add_option("--network-endpoint", o.network.endpoint,
                 "tcp://ADDR:PORT for clients on other machines, secured with CURVE (port *: any free port, logged)");
  app.add_option("--server-key", o.network.server_key, "the server's CURVE secret key file (cuzk keygen)")
      ->check(CLI::ExistingFile);
  app.add_option(
         "--clients-dir", o.network.clients_dir,
         "directory of NAME.pub files: the network clients the operator authorized (read again when it changes)")
      ->check(CLI::ExistingDirectory);
  app.add_flag("--insecure-loopback", o.network.insecure_loopback,
               "serve the network endpoint in plaintext, without keys; refused unless it is a loopback address");
  count("--network-max-connections", o.network.max_connections,
        "network connections in total, handshaking or not (capped below the descriptor limit)");
  count("--network-max-per-address", o.network.max_per_address,
        "network connections from one source address, counted before any key is shown");
  double network_handshake_s = 5;
  app.add_option("--network-handshake-timeout", network_handshake_s,
                 "seconds a network connection has to prove an authorized key before it is closed")
      ->check(range(0.1, 600.0));
  app.add_option("--spool-dir", o.uploads.spool_dir,
                 "directory (made 0700) where clients' streamed witnesses are kept until their job ends "
                 "(cuzk submit --upload); default: no uploads");
  double spool_gib = 16, stall_s = 30;
  app.add_option("--max-spool-per-client", spool_gib, "GiB of streamed files one client may have in the spool")
      ->check(range(0.0, max_gib));
  count("--max-spool-files-per-client", o.uploads.max_files_per_client,
        "spooled files one client may have that no job names yet (uploads in progress or complete)");
  app.add_option("--upload-stall", stall_s,
                 "seconds without a chunk after which an upload is dropped and its file removed")
      ->check(range(1.0, day) & cuzk::config::whole(1, "seconds"));
  app.add_option("--cluster-database", o.cluster.database,
                 "libpq connection string of the PostgreSQL database a cluster of nodes shares as its job queue "
                 "(postgresql://USER@HOST/DB); default: no cluster, jobs stay on this node");
  std::string database_file;
  app.add_option("--cluster-database-file", database_file,
                 "a file only the service's user reads (chmod 600) whose first line is --cluster-database's connection "
                 "string: where a password may be");
  app.add_option("--cluster-node", o.cluster.node,
                 "this node's name in the cluster, unique among its live nodes (default: the host name)")
      ->check(CLI::Validator(
          [](std::string& n) -> std::string {
            const bool visible =
                std::all_of(n.begin(), n.end(), [](unsigned char ch) { return ch > 0x20 && ch < 0x7f; });
            return !n.empty() && n.size() <= 63 && visible ? "" : n + " is not 1 to 63 visible ASCII characters";
          },
          "NAME"));
  double dead_after_s = 60, heartbeat_s = 5;
  app.add_option("--cluster-dead-after", dead_after_s,
                 "seconds without a heartbeat after which a node's unfinished jobs go to other nodes")
      ->check(range(2.0, day) & cuzk::config::whole(1, "seconds"));
  app.add_option("--cluster-heartbeat", heartbeat_s, "seconds between this node's heartbeats")
      ->check(range(0.2, 3600.0) & cuzk::config::whole(1000, "milliseconds"));
  app.add_option("--critical-per-client", o.critical.max_per_client,
                 "unfinished critical jobs one client may have (0: critical jobs refused)")
      ->check(range(0u, 1u << 16));
  count("--critical-partitions-per-client", o.critical.max_partitions_per_client,
        "partitions of one client's unfinished critical jobs, together");
  app.add_option("--critical-partitions-per-minute", o.critical.partitions_per_minute,
                 "critical partitions one client may submit per minute (a bucket of a minute's worth; 0: no bound)")
      ->check(range(0.0, 1e6));
  app.add_option("--critical-max-preemptions", o.critical.max_preemptions,
                 "times one job may lose its synthesis or its proof to critical jobs; then it is preempted no more")
      ->check(range(0u, 1000u));
  app.add_option("--critical-reserve-workers", o.critical.reserve_workers,
                 "synthesis workers kept idle for critical jobs (never every worker); 0: critical jobs abort a "
                 "lower synthesis when no worker or slot is free")
      ->check(range(0u, 1024u));
  app.add_option("--critical-reserve-provers", o.critical.reserve_provers,
                 "proving workers per GPU kept for critical proofs (never every one); 0: a critical proof stops the "
                 "lowest-priority proof at its next phase boundary when every prover is busy")
      ->check(range(0u, 8u));
  using cuzk::config::option;
  const std::vector<cuzk::config::section> sections = {
      {"pool", {{"name", {"--pool"}}, {"hugepages", {"--hugepages"}}}},
      {"server",
       {{"endpoint", {"--endpoint"}},
        {"worker_endpoint", {"--worker-endpoint"}},
        {"client_group", {"--client-group"}},
        {"worker_group", {"--worker-group"}},
        {"backend", {"--backend"}},
        {"threads", {"--threads"}},
        {"gpus", {"--gpus"}},
        {"workers_per_gpu", {"--workers-per-gpu"}},
        {"device_reserve_gib", {"--device-reserve"}},
        {"device_budget_gib", {"--device-budget"}},
        {"msm_copies", {"--msm-copies"}},
        {"no_register", {"--no-register", true}},
        {"keys", {"--key"}},
        {"keys_dirs", {"--keys-dir"}},
        {"witness_dirs", {"--witness-dir"}},
        {"hung_timeout", {"--hung-timeout"}},
        {"retention", {"--retention"}},
        {"max_jobs_per_client", {"--max-jobs-per-client"}},
        {"max_waits_per_client", {"--max-waits-per-client"}},
        {"prepare_threads", {"--prepare-threads"}},
        {"max_synth_crashes", {"--max-synth-crashes"}},
        {"max_preparing", {"--max-preparing"}},
        {"max_preparing_per_client", {"--max-preparing-per-client"}},
        {"max_fetches_per_client", {"--max-fetches-per-client"}},
        {"max_connections_per_client", {"--max-connections-per-client"}},
        {"max_connections", {"--max-connections"}},
        {"operators", {"--operator"}},
        {"gateways", {"--gateway"}},
        {"hold_proving", {"--hold-proving", true}},
        {"spool_dir", {"--spool-dir"}},
        {"max_spool_per_client_gib", {"--max-spool-per-client"}},
        {"upload_stall", {"--upload-stall"}},
        {"max_spool_files_per_client", {"--max-spool-files-per-client"}}}},
      {"keys", {{"host_copy", {"--host-copy"}}, {"drop", {"--host-copy-drop"}}, {"keep", {"--host-copy-keep"}}}},
      {"metrics", {{"address", {"--metrics"}}, {"timeline_minutes", {"--timeline-minutes"}}}},
      {"network",
       {{"endpoint", {"--network-endpoint"}},
        {"server_key", {"--server-key"}},
        {"clients_dir", {"--clients-dir"}},
        {"insecure_loopback", {"--insecure-loopback", true}},
        {"max_connections", {"--network-max-connections"}},
        {"max_per_address", {"--network-max-per-address"}},
        {"handshake_timeout", {"--network-handshake-timeout"}}}},
      {"critical",
       {{"max_per_client", {"--critical-per-client"}},
        {"reserve_workers", {"--critical-reserve-workers"}},
        {"max_partitions_per_client", {"--critical-partitions-per-client"}},
        {"partitions_per_minute", {"--critical-partitions-per-minute"}},
        {"max_preemptions", {"--critical-max-preemptions"}},
        {"reserve_provers", {"--critical-reserve-provers"}}}},
      {"cluster",
       {{"database", {"--cluster-database"}},
        {"database_file", {"--cluster-database-file"}},
        {"node", {"--cluster-node"}},
        {"dead_after", {"--cluster-dead-after"}},
        {"heartbeat", {"--cluster-heartbeat"}}}},
  };
  if (auto rc = cuzk::config::parse(app, argc, argv, sections)) return *rc;
  o.network.handshake = std::chrono::milliseconds(static_cast<long>(network_handshake_s * 1000));
  for (const auto& g : gateways) {
    if (g.starts_with("curve:") && cuzk::server::is_client_name(g.substr(6))) {
      o.gateway_clients.push_back(g.substr(6));
      continue;
    }
    const auto uid = user_uid(g);
    if (!uid) {
      std::fprintf(stderr, "cuzk-gpu-server: --gateway %s: not a user on this host, a uid, or curve:NAME\n", g.c_str());
      return 1;
    }
    o.gateway_uids.push_back(*uid);
  }
  o.host_copy = host_copy == "drop" ? cuzk::job::host_copy::drop : cuzk::job::host_copy::keep;
  // Each allowed directory as given (absolute) and as resolved: a client names
  // files by either path when a directory above it is a symlink (/tmp → ...).
  for (auto* dirs : {&o.keys_dirs, &o.witness_dirs}) {
    std::vector<std::filesystem::path> both;
    for (const auto& d : *dirs) {
      both.push_back(std::filesystem::canonical(d));
      if (auto a = std::filesystem::absolute(d).lexically_normal(); a != both.back()) both.push_back(a);
    }
    *dirs = std::move(both);
  }
  // A group is set on a socket file: an abstract ipc socket (ipc://@name) or
  // tcp has none, and the group would silently limit nobody.
  const std::string worker_endpoint = o.worker_endpoint.empty() ? o.endpoint + ".worker" : o.worker_endpoint;
  for (const auto& [group, flag, endpoint, endpoint_flag] :
       {std::tuple(o.client_group, "--client-group", o.endpoint, "--endpoint"),
        std::tuple(o.worker_group, "--worker-group", worker_endpoint, "--worker-endpoint")})
    if (!group.empty() && !cuzk::net::ipc_path(endpoint)) {
      std::fprintf(stderr,
                   "cuzk-gpu-server: %s %s cannot limit who connects to %s %s: it has no socket file whose group could "
                   "be set (an abstract ipc:// socket or tcp); bind a path, e.g. ipc:///run/cuzk/cuzk.sock\n",
                   flag, group.c_str(), endpoint_flag, endpoint.c_str());
      return 1;
    }
  o.backend.register_pool = !no_register;
  o.backend.device_reserve = static_cast<std::size_t>(reserve_gib * double(1ULL << 30));
  o.backend.device_budget = static_cast<std::size_t>(budget_gib * double(1ULL << 30));
  o.retention = std::chrono::seconds(std::llround(retention_s));
  o.uploads.max_bytes_per_client = static_cast<std::uint64_t>(spool_gib * double(1ULL << 30));
  o.uploads.stall = std::chrono::seconds(std::llround(stall_s));
  o.hung_timeout = std::chrono::milliseconds(std::llround(hung_s * 1000));
  {
    bool in_argv = false;  // a command line is every local user's to read
    for (int i = 1; i < argc; ++i)
      in_argv |= std::string_view(argv[i]) == "--cluster-database" ||
                 std::string_view(argv[i]).starts_with("--cluster-database=");
    std::optional<std::string> why;
    if (!database_file.empty() && !o.cluster.database.empty())
      why = "give the cluster database by --cluster-database or --cluster-database-file, not both";
    else if (!database_file.empty())
      why = cuzk::server::read_credential_file(database_file, o.cluster.database);
    else
      why = cuzk::server::database_refusal(o.cluster.database, in_argv, config);
    if (why) {
      std::fprintf(stderr, "cuzk-gpu-server: %s\n", why->c_str());
      return 1;
    }
  }
  o.cluster.dead_after = std::chrono::seconds(std::llround(dead_after_s));
  o.cluster.heartbeat = std::chrono::milliseconds(std::llround(heartbeat_s * 1000));
  if (o.cluster.enabled() && o.cluster.heartbeat * 2 > o.cluster.dead_after) {
    std::fprintf(stderr,
                 "cuzk-gpu-server: --cluster-heartbeat %g s must be at most half of --cluster-dead-after %g s: a node "
                 "must beat at least twice before others count it dead\n",
                 heartbeat_s, dead_after_s);
    return 1;
  }
  cuzk::log::setup("gpu-server");
  try {
    cuzk::server::server s(o);
    return s.run();
  } catch (const std::exception& e) {
    spdlog::error("{}", e.what());
    return 1;
  }
}
