// cuzk-gateway in front of a two-node cluster (issue 40, label cluster): a
// client's long-poll over HTTP gets its proof although the node proving its
// job, and the node the gateway asked, is killed mid-proof (SIGKILL, its
// partition synthesized and held): the gateway goes on to the other node
// (--endpoint, repeated), which takes the job back from the silent node and
// proves it. The circuit is the witness fixture's (tests/interop/witness).
#include <gtest/gtest.h>
#include <unistd.h>

#include <future>
#include <nlohmann/json.hpp>
#include <regex>
#include <thread>

#include "curves/bn254.hpp"
#include "harness.hpp"
#include "http_get.hpp"
#include "io/zkey.hpp"
#include "job/circuit_store.hpp"
#include "net/api_keys.hpp"
#include "pg_server.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;
using json = nlohmann::json;

const fs::path fixture = fs::path(CUZK_WITNESS_FIXTURE) / "bn128";

struct node {
  node(const std::string& name, const pg_server& pg) : name(name), conninfo(pg.conninfo()) {
    svc = std::make_unique<service>(std::vector<std::string>{"1x4096"});
    const auto key_id = load_srs(*svc, (fixture / "bounded.zkey").string());
    job::install_circuit(svc->pool(), "bounded", key_id,
                         job::witness_generator::at(fixture / "bounded_cpp" / "bounded"));
  }
  void start(std::vector<std::string> extra = {}) {
    std::vector<std::string> args{"--cluster-database",
                                  conninfo,
                                  "--cluster-node",
                                  name,
                                  "--cluster-heartbeat",
                                  "0.5",
                                  "--cluster-dead-after",
                                  "3",
                                  "--gateway",
                                  std::to_string(::getuid())};
    args.insert(args.end(), extra.begin(), extra.end());
    server = svc->start_server({}, args);
  }
  void add_worker() { workers.push_back(svc->start_worker(name + "-w" + std::to_string(workers.size()))); }

  std::string name, conninfo;
  std::unique_ptr<service> svc;
  std::unique_ptr<process> server;
  std::vector<std::unique_ptr<process>> workers;
};

struct reply {
  unsigned status = 0;
  json body;
};

reply http(unsigned short port, boost::beast::http::verb verb, const std::string& target, const std::string& token,
           const std::string& body = {}) {
  const auto r = http_request(port, target, verb, token, body);
  return {r.status, json::parse(r.body, nullptr, false)};
}

TEST(ClusterGateway, ALongPollGetsItsProofWhenTheNodeProvingItIsKilledMidProof) {
  ASSERT_TRUE(fs::exists(fixture / "bounded.zkey")) << "no " << fixture << ": the fixture interop.witness.fixture";
  pg_server pg;
  node a("a", pg), b("b", pg);
  a.start({"--hold-proving"});  // a synthesizes and holds the proof: "mid-proof" for as long as the test needs
  a.add_worker();
  const auto keys = a.svc->dir() / "api-keys.d";
  const auto key = net::make_api_key(keys, "alice");
  process gateway(CUZK_GATEWAY_BIN,
                  {"--listen", "127.0.0.1:0", "--insecure-loopback", "--endpoint", a.svc->endpoint(), "--endpoint",
                   b.svc->endpoint(), "--api-keys", keys.string(), "--max-wait", "120"},
                  a.svc->dir() / "gateway.log");
  unsigned short port = 0;
  ASSERT_TRUE(eventually(
      [&] {
        std::smatch m;
        const auto log = read_all(a.svc->dir() / "gateway.log");
        if (std::regex_search(log, m, std::regex("gateway on http://127.0.0.1:([0-9]+)"))) port = std::stoi(m[1]);
        return port != 0;
      },
      20s))
      << read_all(a.svc->dir() / "gateway.log");

  const auto posted = http(port, boost::beast::http::verb::post, "/v1/proofs", key.token,
                           R"({"circuit": "bounded", "inputs": {"x": ["11", "22", "33", "44"], "bound": "1000"}})");
  ASSERT_EQ(posted.status, 202u) << posted.body.dump() << server_logs(*a.svc);
  const auto id = posted.body["id"].get<std::string>();
  client::options as_alice;
  as_alice.on_behalf_of = "alice";
  client::connection ca(a.svc->endpoint(), as_alice);
  ASSERT_TRUE(
      eventually([&] { return ca.status(id).partitions.at(0).state == proto::partition_state::synthesized; }, 60s))
      << server_logs(*a.svc);

  auto poll = std::async(std::launch::async, [&] {
    return http(port, boost::beast::http::verb::get, "/v1/proofs/" + id + "?wait=120s", key.token);
  });
  std::this_thread::sleep_for(1s);  // the long-poll is at a
  a.server->kill9();
  a.workers.clear();
  b.start();
  b.add_worker();
  ASSERT_EQ(poll.wait_for(150s), std::future_status::ready);
  const auto got = poll.get();
  const auto logs = "---- a\n" + server_logs(*a.svc) + "---- b\n" + server_logs(*b.svc) + "---- gateway\n" +
                    read_all(a.svc->dir() / "gateway.log");
  ASSERT_EQ(got.status, 200u) << got.body.dump() << logs;
  ASSERT_EQ(got.body.value("state", ""), "done") << got.body.dump() << logs;
  const auto pk = io::read_zkey_file<curves::bn254>(fixture / "bounded.zkey");
  EXPECT_TRUE(verifies(pk, got.body["proof"].dump(), got.body["public_signals"].dump()));
  EXPECT_NE(server_logs(*b.svc).find("of silent nodes returned to the queue"), std::string::npos) << logs;
}

}  // namespace
}  // namespace cuzk::test
