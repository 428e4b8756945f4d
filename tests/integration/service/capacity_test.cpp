// The capacity reply (issue 23 item 2): a scheduler that reads only it keeps
// a node at its limit without a single Submit answered busy; the reply's
// figures match the node (slots per class, load per key and priority,
// throughput once proofs were made); the CLI and /metrics show the same.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <set>

#include "client/lib/errors.hpp"
#include "harness.hpp"
#include "http_get.hpp"
#include "run.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string circuit = "chain:size=3000";

TEST(Capacity, ASchedulerReadingOnlyTheCapacityKeepsTheNodeFullAndIsNeverAnsweredBusy) {
  service svc({"2x4096"});
  auto server = svc.start_server(
      {}, {"--max-jobs-per-client", "3", "--max-preparing-per-client", "2", "--metrics", "127.0.0.1:0"});
  auto worker = svc.start_worker("w1");
  auto c = svc.connect();
  const auto& key = key_for(circuit);

  const auto first = c.capacity();
  ASSERT_EQ(first.classes.size(), 1u);
  EXPECT_EQ(first.classes[0].slots, 2u);
  EXPECT_EQ(first.classes[0].free, 2u);
  EXPECT_EQ(first.classes[0].domain, 4096u);
  EXPECT_TRUE(first.accepting) << first.refusal;
  EXPECT_EQ(first.jobs_held, 0u);
  EXPECT_EQ(first.jobs_limit, 3u);
  EXPECT_TRUE(first.keys.empty());

  // The scheduler: submit while the reply says a Submit would be accepted, fetch what is done otherwise.
  const int total = 12;
  int submitted = 0, fetched = 0, refusals = 0, busy = 0;
  bool saw_wait = false;
  std::set<std::string> open;
  const auto s = seed();
  const auto deadline = std::chrono::steady_clock::now() + 240s;
  while (fetched < total && std::chrono::steady_clock::now() < deadline) {
    const auto cap = c.capacity();
    if (cap.accepting && submitted < total) {
      const auto id = "j" + std::to_string(submitted);
      try {
        EXPECT_TRUE(c.submit(native_submit(id, circuit, s + submitted, "scheduler")).created);
        open.insert(id);
        ++submitted;
      } catch (const client::server_error& e) {
        ++busy;
        ADD_FAILURE() << "a Submit the capacity reply allowed was refused: " << e.what();
      }
      continue;
    }
    std::uint32_t queued = 0;
    for (const auto& k : cap.keys) queued += k.queued;
    if (queued && cap.partitions_per_minute > 0) {
      saw_wait = true;
      EXPECT_GT(cap.estimated_wait_s, 0);
    }
    if (!cap.accepting) {
      ++refusals;
      EXPECT_NE(cap.refusal.find("you hold"), std::string::npos) << cap.refusal;
    }
    for (auto it = open.begin(); it != open.end();) {
      const auto r = c.fetch(*it);
      if (const auto* p = std::get_if<proto::proof_reply>(&r)) {
        EXPECT_TRUE(verifies(*key.pk, p->partitions.at(0).proof_json, p->partitions.at(0).public_json)) << *it;
        ++fetched;
        it = open.erase(it);
      } else {
        ++it;
      }
    }
    std::this_thread::sleep_for(20ms);
  }
  EXPECT_EQ(fetched, total) << server_logs(svc);
  EXPECT_EQ(busy, 0);
  EXPECT_GT(refusals, 0) << "the scheduler never reached the node's limit: the test proved nothing";

  EXPECT_TRUE(saw_wait) << "no reply had partitions queued at a known rate";
  const auto after = c.capacity();
  EXPECT_GT(after.partitions_per_minute, 0);
  EXPECT_EQ(after.jobs_held, 0u);
  // The same figures as metrics.
  const auto port = metrics_port(svc.dir());
  ASSERT_NE(port, 0) << server_logs(svc);
  const auto text = http_request(port, "/metrics").body;
  for (const char* series : {"cuzk_partitions_per_minute ", "cuzk_estimated_wait_seconds ", "cuzk_slots{"})
    EXPECT_NE(text.find(series), std::string::npos) << series;

  // Load per key and priority while jobs wait (proving held: none finishes meanwhile).
  const std::string key_id = load_srs(svc, key.path);
  server->terminate();
  server = svc.start_server({}, {"--max-jobs-per-client", "8", "--hold-proving", "--key", key_id});
  auto again = svc.connect();
  for (int i = 0; i < 4; ++i) {
    auto sub = native_submit("h" + std::to_string(i), circuit, s + 100 + i, "scheduler");
    sub.zkey = key_id;
    sub.priority = i == 0 ? proto::priority::high : proto::priority::normal;
    ASSERT_TRUE(again.submit(sub).created);
  }
  ASSERT_TRUE(eventually(
      [&] {
        const auto cap = again.capacity();
        std::uint32_t queued = 0, running = 0;
        for (const auto& k : cap.keys) {
          queued += k.queued;
          running += k.running;
        }
        return queued + running == 4 && cap.classes.at(0).free == 0 && running == 2;
      },
      60s))
      << server_logs(svc);
  const auto held = again.capacity();
  for (const auto& k : held.keys)
    EXPECT_EQ(k.key_id, key_id) << "an operator (the test's uid owns the server) sees ids";
  EXPECT_EQ(held.jobs_held, 4u);
  EXPECT_EQ(held.estimated_wait_s, 0) << "a new server has no rate to estimate from yet";

  // The CLI prints the same reply.
  const auto r = run(cli_bin() + " status --capacity --json --endpoint " + svc.endpoint());
  ASSERT_EQ(r.rc, 0) << r.out << r.err;
  const auto j = nlohmann::json::parse(r.out);
  EXPECT_EQ(j.at("jobs_held"), 4);
  EXPECT_EQ(j.at("classes").at(0).at("slots"), 2);
  EXPECT_TRUE(j.at("accepting").get<bool>());
}

}  // namespace
}  // namespace cuzk::test
