// cuzk-cluster-bench: what one PostgreSQL sustains as the cluster's job
// queue (issue 22, docs/benchmarks.md "Cluster queue"). Against a real
// server (--database, or one started here with initdb/pg_ctl in a temporary
// directory):
//   claims    N tiny jobs queued, then 1, 2, 3 nodes (a thread and a
//             connection each) claim and complete them one by one: jobs/s
//   latency   a node (the server's own cluster_link: LISTEN cuzk_queued, then
//             a claim) against a submitter that records one job every 20 ms:
//             submit-to-claim p50/p99
//   trips     transactions the database committed per job from Submit to a
//             stored proof (pg_stat_database), and what that means per GPU
//   cuzk-cluster-bench [--database CONNINFO] [--jobs N] [--samples N]
#include <CLI/CLI.hpp>

#include <algorithm>
#include <atomic>
#include <boost/asio.hpp>
#include <chrono>
#include <cstdio>
#include <future>
#include <memory>
#include <mutex>
#include <optional>
#include <pqxx/pqxx>
#include <thread>
#include <vector>

#include "cluster/cluster_link.hpp"
#include "cluster/cluster_store.hpp"
#include "pg_server.hpp"

namespace {

using cuzk::server::cluster_job;
using cuzk::server::cluster_store;
using clock_type = std::chrono::steady_clock;

const std::string key(32, 'a');

cluster_job tiny(const std::string& owner, std::uint64_t i) {
  cluster_job j;
  j.owner = owner;
  j.job_id = "job-" + std::to_string(i);
  j.digest_hex = "00";
  j.key_id = key;
  j.spec = "00";
  return j;
}

void reset(const std::string& conninfo) {
  pqxx::connection c(conninfo);
  pqxx::work w(c);
  w.exec("TRUNCATE cuzk_jobs, cuzk_nodes CASCADE");
  w.commit();
}

std::uint64_t commits(const std::string& conninfo) {
  pqxx::connection c(conninfo);
  pqxx::nontransaction w(c);
  w.exec("SELECT pg_stat_clear_snapshot()");
  return w.exec("SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()")[0][0]
      .as<std::uint64_t>();
}

/* jobs/s of k nodes claiming and completing n queued jobs one at a time. */
double claims_per_second(const std::string& conninfo, unsigned k, std::uint64_t n) {
  reset(conninfo);
  {
    cluster_store db(conninfo);
    for (std::uint64_t i = 0; i < n; ++i) db.submit(tiny("bench", i));
  }
  std::atomic<std::uint64_t> done{0};
  const auto t0 = clock_type::now();
  std::vector<std::thread> nodes;
  for (unsigned t = 0; t < k; ++t)
    nodes.emplace_back([&, t] {
      cluster_store db(conninfo);
      const std::string node = "node-" + std::to_string(t);
      db.heartbeat(node, {key});
      for (;;) {
        auto got = db.claim(node, {key}, 1);
        if (got.empty()) return;
        db.complete(got[0].id, node, {{0x00}});
        ++done;
      }
    });
  for (auto& t : nodes) t.join();
  const double s = std::chrono::duration<double>(clock_type::now() - t0).count();
  if (done != n)
    std::fprintf(stderr, "claims: %llu of %llu jobs completed\n", (unsigned long long)done.load(),
                 (unsigned long long)n);
  return double(done) / s;
}

/* Submit-to-claim latencies (ms) through cluster_link's LISTEN, one job every 20 ms. */
std::vector<double> latencies(const std::string& conninfo, unsigned samples) {
  reset(conninfo);
  boost::asio::io_context io;
  auto guard = boost::asio::make_work_guard(io);
  std::mutex mu;
  std::vector<clock_type::time_point> submitted(samples), claimed(samples);
  std::atomic<unsigned> got{0};
  std::unique_ptr<cuzk::server::cluster_link> link;
  bool claiming = false;
  std::function<void()> claim = [&] {
    if (claiming) return;
    claiming = true;
    link->call<std::vector<cluster_job>>([](cluster_store& db) { return db.claim("listener", {key}, 4); },
                                         [&](cuzk::util::expected<std::vector<cluster_job>, std::string> r) {
                                           claiming = false;
                                           if (!r) return;
                                           const auto now = clock_type::now();
                                           for (const auto& j : *r) {
                                             const auto i = std::stoul(j.job_id.substr(4));
                                             std::lock_guard lk(mu);
                                             if (i < samples) claimed[i] = now;
                                             ++got;
                                           }
                                           if (!r->empty()) claim();
                                         });
  };
  link = std::make_unique<cuzk::server::cluster_link>(conninfo, io);
  link->listen(cuzk::server::cluster_link::events{[](std::int64_t) {}, [&] { claim(); }, [&] { claim(); }});
  std::thread loop([&] { io.run(); });
  while (!link->listening()) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  std::this_thread::sleep_for(std::chrono::milliseconds(200));
  {
    cluster_store db(conninfo);
    for (unsigned i = 0; i < samples; ++i) {
      {
        std::lock_guard lk(mu);
        submitted[i] = clock_type::now();
      }
      db.submit(tiny("bench", i));
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
  }
  const auto until = clock_type::now() + std::chrono::seconds(10);
  while (got < samples && clock_type::now() < until) std::this_thread::sleep_for(std::chrono::milliseconds(10));
  guard.reset();
  io.stop();
  loop.join();
  link.reset();
  std::vector<double> ms;
  for (unsigned i = 0; i < samples; ++i)
    if (claimed[i] != clock_type::time_point{})
      ms.push_back(std::chrono::duration<double, std::milli>(claimed[i] - submitted[i]).count());
  std::sort(ms.begin(), ms.end());
  return ms;
}

/* Transactions committed per job, Submit to stored proof, the node's calls as the server makes them:
   submit, claim, complete, the Wait's look-ups (one before, one on the notification), one Fetch. */
double trips_per_job(const std::string& conninfo, std::uint64_t n) {
  reset(conninfo);
  std::this_thread::sleep_for(std::chrono::seconds(2));  // every backend's counts flushed (they flush when idle)
  const auto before = commits(conninfo);
  {
    cluster_store db(conninfo);
    for (std::uint64_t i = 0; i < n; ++i) {
      auto j = tiny("client", i);
      db.submit(j);
      (void)db.find(j.owner, j.job_id);  // the client's Wait, before the job is done
      auto got = db.claim("node", {key}, 1);
      if (got.empty()) continue;
      db.complete(got[0].id, "node", {{0x00}});
      (void)db.get(got[0].id);           // the Wait woken by cuzk_done
      (void)db.find(j.owner, j.job_id);  // a Fetch
    }
  }  // its connection closes: its counts are flushed
  std::this_thread::sleep_for(std::chrono::seconds(2));
  return double(commits(conninfo) - before - 1) / double(n);  // the first commits() is itself counted once
}

double percentile(const std::vector<double>& v, double p) {
  if (v.empty()) return 0;
  return v[std::min(v.size() - 1, static_cast<std::size_t>(p * double(v.size() - 1) + 0.5))];
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"cuzk-cluster-bench: the cluster's PostgreSQL job queue"};
  std::string database;
  std::uint64_t jobs = 3000;
  unsigned samples = 300;
  app.add_option("--database", database, "libpq connection string (default: a PostgreSQL started here)");
  app.add_option("--jobs", jobs, "tiny jobs per claims run");
  app.add_option("--samples", samples, "submit-to-claim samples");
  CLI11_PARSE(app, argc, argv);
  std::optional<cuzk::test::pg_server> pg;
  if (database.empty()) {
    pg.emplace();
    database = pg->conninfo();
  }
  cluster_store(database).migrate();
  std::printf("cluster queue on PostgreSQL (%s)\n", pg ? "started here: fsync off, 127.0.0.1" : database.c_str());
  (void)claims_per_second(database, 1,
                          std::min<std::uint64_t>(jobs, 500));  // warm-up: caches, the planner's statistics
  for (unsigned k : {1u, 2u, 3u})
    std::printf("claims   %u node%s  %8.0f jobs/s (claim + complete, %llu jobs)\n", k, k == 1 ? " " : "s",
                claims_per_second(database, k, jobs), (unsigned long long)jobs);
  const auto ms = latencies(database, samples);
  std::printf("latency  submit-to-claim p50 %.2f ms  p99 %.2f ms  (%zu of %u samples, LISTEN cuzk_queued)\n",
              percentile(ms, 0.5), percentile(ms, 0.99), ms.size(), samples);
  const double trips = trips_per_job(database, std::min<std::uint64_t>(jobs, 1000));
  std::printf("trips    %.1f transactions per job (submit, claim, complete, a Wait's two look-ups, a Fetch)\n", trips);
  return 0;
}
