#include "harness.hpp"

#include <fcntl.h>
#include <fstream>
#include <iterator>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <mutex>
#include <regex>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <thread>

#include "circuits/registry.hpp"
#include "groth16/native.hpp"
#include "groth16/verifier.hpp"
#include "io/snarkjs_json.hpp"
#include "io/zkey.hpp"
#include "r1cs/wtns_file.hpp"

extern char** environ;

namespace cuzk::test {

process::process(const std::string& exe, const std::vector<std::string>& args, const fs::path& log,
                 const std::map<std::string, std::string>& env) {
  std::vector<std::string> envs;
  for (char** e = environ; *e; ++e) {
    std::string kv = *e;
    if (!env.count(kv.substr(0, kv.find('=')))) envs.push_back(kv);
  }
  for (const auto& [k, v] : env) envs.push_back(k + "=" + v);
  std::vector<char*> argv{const_cast<char*>(exe.c_str())}, envp;
  for (const auto& a : args) argv.push_back(const_cast<char*>(a.c_str()));
  argv.push_back(nullptr);
  for (auto& e : envs) envp.push_back(e.data());
  envp.push_back(nullptr);
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 1, log.c_str(), O_WRONLY | O_CREAT | O_APPEND, 0644);
  posix_spawn_file_actions_adddup2(&fa, 1, 2);
  int rc = posix_spawn(&pid_, exe.c_str(), &fa, nullptr, argv.data(), envp.data());
  posix_spawn_file_actions_destroy(&fa);
  if (rc != 0) throw std::runtime_error("cannot start " + exe);
}

process::~process() {
  if (running()) kill9();
}

bool process::running() {
  if (status_) return false;
  int st = 0;
  if (waitpid(pid_, &st, WNOHANG) == pid_) {
    status_ = st;
    return false;
  }
  return true;
}

void process::kill9() {
  if (!running()) return;
  ::kill(pid_, SIGKILL);
  int st = 0;
  waitpid(pid_, &st, 0);
  status_ = st;
}

std::optional<int> process::wait_exit(std::chrono::seconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  while (running()) {
    if (std::chrono::steady_clock::now() > end) return std::nullopt;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  return status_;
}

int process::terminate(std::chrono::seconds grace) {
  if (running()) ::kill(pid_, SIGTERM);
  auto st = wait_exit(grace);
  if (!st) {
    kill9();
    return -1;
  }
  return WIFEXITED(*st) ? WEXITSTATUS(*st) : 128 + WTERMSIG(*st);
}

namespace {

std::string from_env(const char* name, const char* built) {
  const char* v = std::getenv(name);
  return v && *v ? v : built;
}

}  // namespace

std::string shm_bin() { return from_env("CUZK_SHM_BIN", CUZK_SHM_BIN); }
std::string server_bin() { return from_env("CUZK_SERVER_BIN", CUZK_SERVER_BIN); }
std::string worker_bin() { return from_env("CUZK_WORKER_BIN", CUZK_WORKER_BIN); }
std::string cli_bin() { return from_env("CUZK_CLI_BIN", CUZK_CLI_BIN); }

namespace {
int services_made = 0;
}  // namespace

std::string service::next_pool() {
  return "cuzk-test-" + std::to_string(::getpid()) + "-" + std::to_string(services_made);
}

service::service(const std::vector<std::string>& slots, const std::vector<std::string>& create_args) {
  pool_ = next_pool();
  ++services_made;
  dir_ = fs::temp_directory_path() / pool_;
  fs::create_directories(dir_);
  endpoint_ = "ipc://" + (dir_ / "cuzk.sock").string();
  worker_endpoint_ = "ipc://" + (dir_ / "worker.sock").string();
  std::string cmd = shm_bin() + " create --name " + pool_;
  for (const auto& s : slots) cmd += " --slots " + s;
  for (const auto& a : create_args) cmd += " " + a;
  cmd += " >> " + (dir_ / "cuzk-shm.log").string() + " 2>&1";
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("cuzk-shm create failed: " + cmd);
}

service::~service() {
  std::string cmd =
      shm_bin() + " destroy --force --name " + pool_ + " >> " + (dir_ / "cuzk-shm.log").string() + " 2>&1";
  if (std::system(cmd.c_str()) != 0) std::fprintf(stderr, "warning: %s failed\n", cmd.c_str());
  if (!std::getenv("CUZK_KEEP_TEST_DIRS")) fs::remove_all(dir_);
}

std::unique_ptr<process> service::start_server(const std::map<std::string, std::string>& env,
                                               const std::vector<std::string>& extra_args) {
  // Test keys and witnesses live under the temporary directory, which the server may read for its clients.
  std::vector<std::string> args{"--pool",
                                pool_,
                                "--endpoint",
                                endpoint_,
                                "--worker-endpoint",
                                worker_endpoint_,
                                "--backend",
                                backend,
                                "--keys-dir",
                                fs::temp_directory_path().string(),
                                "--witness-dir",
                                fs::temp_directory_path().string()};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  std::string exe = server_bin();
  if (!server_wrapper.empty()) {
    args.insert(args.begin(), exe);
    args.insert(args.begin(), server_wrapper.begin() + 1, server_wrapper.end());
    exe = server_wrapper.front();
  }
  return std::make_unique<process>(exe, args, dir_ / ("server." + std::to_string(logs_++) + ".log"), env);
}

std::unique_ptr<process> service::start_worker(const std::string& name, const std::map<std::string, std::string>& env) {
  return std::make_unique<process>(
      worker_bin(),
      std::vector<std::string>{"--pool", pool_, "--endpoint", worker_endpoint_, "--name", name, "--checksum"},
      dir_ / (name + "." + std::to_string(logs_++) + ".log"), env);
}

std::unique_ptr<process> service::start_worker_with(const std::string& name, const std::vector<std::string>& extra_args,
                                                    const std::map<std::string, std::string>& env) {
  std::vector<std::string> args{"--pool", pool_, "--endpoint", worker_endpoint_, "--name", name, "--checksum"};
  args.insert(args.end(), extra_args.begin(), extra_args.end());
  return std::make_unique<process>(worker_bin(), args, dir_ / (name + "." + std::to_string(logs_++) + ".log"), env);
}

client::connection service::connect(std::chrono::milliseconds timeout) {
  client::options o;
  o.timeout = timeout;
  o.attempts = 3;
  return client::connection(endpoint_, o);
}

std::string service::shm_status_json() {
  const auto out = dir_ / "status.json";
  std::string cmd = shm_bin() + " status --json --name " + pool_ + " > " + out.string();
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("cuzk-shm status failed");
  std::ifstream f(out);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

std::string service::cli_status_json(const std::string& job_id) {
  const auto out = dir_ / "cli-status.json";
  std::string cmd = cli_bin() + " status --json --endpoint " + endpoint_;
  if (!job_id.empty()) cmd += " --job-id " + job_id;
  cmd += " > " + out.string() + " 2>> " + (dir_ / "cli.log").string();
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("cuzk status failed: " + cmd);
  std::ifstream f(out);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

template <class C>
const basic_test_key<C>& key_for(const std::string& spec) {
  static std::mutex mu;
  static std::map<std::string, basic_test_key<C>> keys;
  std::lock_guard lk(mu);
  if (auto it = keys.find(spec); it != keys.end()) return it->second;
  auto c = circuits::make_circuit<C>(spec);
  auto pk = std::make_shared<groth16::basic_proving_key<C>>(
      groth16::setup_circuit<C>(*c, groth16::basic_toxic_waste<C>::random()));
  // Without the native mark, as a key made from the circuit's .r1cs would be: the pool keeps its coefficients,
  // so the tests may submit the circuit's witnesses as .wtns (host_memory_test covers native keys).
  pk->native = false;
  static const fs::path dir = fs::temp_directory_path() / ("cuzk-test-keys-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  std::string name = spec + (std::is_same_v<C, curves::bls12_381> ? "" : "@" + std::string(curves::name(C::id)));
  for (auto& ch : name)
    if (ch == ':' || ch == '=' || ch == ',' || ch == '@') ch = '_';
  const auto path = dir / (name + ".zkey");
  io::write_zkey_file(path, *pk);
  return keys.emplace(spec, basic_test_key<C>{path.string(), pk}).first->second;
}
template const basic_test_key<curves::bls12_381>& key_for(const std::string&);
template const basic_test_key<curves::bn254>& key_for(const std::string&);

std::string inputs_for(const std::string& spec, std::uint64_t seed) {
  return circuits::make_circuit(spec)->random_inputs(seed).dump();
}

proto::submit native_submit(const std::string& job_id, const std::string& spec, std::uint64_t seed,
                            const std::string& client) {
  proto::submit s;
  s.job_id = job_id;
  s.client = client;
  s.zkey = key_for(spec).path;
  s.work = proto::native_work{spec, inputs_for(spec, seed)};
  return s;
}

fs::path witness_file(const fs::path& dir, const std::string& name, const std::string& spec, std::uint64_t seed) {
  const auto& pk = *key_for(spec).pk;
  auto c = circuits::make_circuit(spec);
  groth16::basic_prover_buffers<curves::bls12_381> buf(pk);
  groth16::synthesize_into(pk, *c, *c->parse_inputs(nlohmann::json::parse(inputs_for(spec, seed))), buf);
  const auto bytes = r1cs::write_wtns(std::span<const ff::fr_t>(buf.z));
  const auto path = dir / name;
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), std::streamsize(bytes.size()));
  return path;
}

std::chrono::nanoseconds worst_status(client::connection& c, const std::function<bool(int)>& more, int* samples) {
  std::chrono::nanoseconds worst{0};
  int n = 0;
  while (more(n)) {
    const auto t0 = std::chrono::steady_clock::now();
    (void)c.status();
    worst = std::max(worst, std::chrono::steady_clock::now() - t0);
    ++n;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  if (samples) *samples = n;
  return worst;
}

std::string read_all(const fs::path& p) {
  std::ifstream f(p);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

std::string server_logs(const service& svc) {
  std::string all;
  for (const auto& e : fs::directory_iterator(svc.dir()))
    if (e.path().filename().string().rfind("server.", 0) == 0) all += read_all(e.path());
  return all;
}

std::string load_srs(const service& svc, const std::string& zkey) {
  const auto out = svc.dir() / ("key-id-" + std::to_string(std::hash<std::string>{}(zkey)));
  const std::string cmd = shm_bin() + " load-srs --name " + svc.pool() + " --zkey " + zkey + " > " + out.string();
  if (std::system(cmd.c_str()) != 0) throw std::runtime_error("failed: " + cmd);
  std::string id = read_all(out);
  id.erase(id.find_last_not_of('\n') + 1);
  return id;
}

template <class C>
bool verifies(const groth16::basic_proving_key<C>& pk, const std::string& proof_json, const std::string& public_json) {
  auto p = io::proof_from_json<C>(nlohmann::json::parse(proof_json));
  auto pub = io::public_from_json<C>(nlohmann::json::parse(public_json));
  return pub.size() == pk.n_public && groth16::verify<C>(pk.vk(), pub, p);
}
template bool verifies(const groth16::basic_proving_key<curves::bls12_381>&, const std::string&, const std::string&);
template bool verifies(const groth16::basic_proving_key<curves::bn254>&, const std::string&, const std::string&);

unsigned short metrics_port(const fs::path& dir, std::chrono::milliseconds limit) {
  const std::regex logged("metrics on 127\\.0\\.0\\.1:([0-9]+)");
  unsigned short port = 0;
  eventually(
      [&] {
        for (const auto& e : fs::directory_iterator(dir)) {
          if (e.path().extension() != ".log") continue;
          std::ifstream f(e.path());
          const std::string text{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
          if (std::smatch m; std::regex_search(text, m, logged)) port = static_cast<unsigned short>(std::stoul(m[1]));
        }
        return port != 0;
      },
      limit);
  return port;
}

std::string network_endpoint(const service& svc) {
  const std::regex logged("network clients on (tcp://[0-9.]+:[0-9]+)");
  std::string ep;
  eventually(
      [&] {
        const auto text = server_logs(svc);
        if (std::smatch m; std::regex_search(text, m, logged)) ep = m[1];
        return !ep.empty();
      },
      std::chrono::seconds(30));
  return ep;
}

std::map<std::string, net::curve_keypair> keygen(const service& svc, const std::vector<std::string>& names,
                                                 const std::vector<std::string>& authorized) {
  const auto d = svc.dir();
  fs::create_directories(d / "clients.d");
  std::map<std::string, net::curve_keypair> out;
  for (const auto& who : names) {
    const auto path = d / (who + ".key");
    if (std::system((cli_bin() + " keygen --out " + path.string() + " > /dev/null 2>&1").c_str()) != 0)
      throw std::runtime_error("cuzk keygen --out " + path.string() + " failed");
    out.emplace(who, net::read_curve_secret(path));
  }
  for (const auto& who : authorized) fs::copy_file(d / (who + ".key.pub"), d / "clients.d" / (who + ".pub"));
  return out;
}

client::options curve_options(const net::curve_keypair& me, const net::curve_keypair& server,
                              std::chrono::milliseconds timeout) {
  client::options o;
  o.timeout = timeout;
  o.attempts = 1;
  o.curve = client::curve_keys{me.public_key, me.secret_key, server.public_key};
  return o;
}

}  // namespace cuzk::test
