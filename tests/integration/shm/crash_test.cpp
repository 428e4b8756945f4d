// Crash tests: real children, really killed (SIGKILL from a failpoint after
// a store of a transition), then reclamation and the invariants: every slot
// accounted for, generations never go back, FILLED payloads intact
// (checksum and bytes), every accepted job still there until it finished,
// and in the end every job done with the right proof.
// CUZK_CRASH_ITERATIONS (default 200) iterations per failpoint.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <map>
#include <random>
#include <set>

#include "pipeline.hpp"
#include "pool_guard.hpp"
#include "seed.hpp"
#include "shm/failpoint.hpp"
#include "shm/job_table.hpp"
#include "shm/lease.hpp"
#include "shm/reclaim.hpp"
#include "shm/slot_table.hpp"

namespace cuzk::shm {
namespace {

using test::pool_guard;
namespace crash = test::crash;

unsigned iterations() {
  if (const char* e = std::getenv("CUZK_CRASH_ITERATIONS")) return static_cast<unsigned>(std::strtoul(e, nullptr, 10));
  return 200;
}

struct crash_case {
  const char* point;
  /* Points inside reclamation are hit by a second child that starts a server
     (which reclaims) after a first child was killed at one of `before`. */
  std::vector<const char*> before;
};

const std::vector<const char*> pipeline_points = {
    "lease.take.lock",   "lease.take.fields",      "lease.take.publish",    "job.submit.reserve",
    "job.submit.fields", "job.submit.publish",     "job.mark_slotted.cas",  "slot.assign.binding",
    "slot.assign.cas",   "job.count_synthesis",    "slot.fill.sizes",       "slot.fill.cas",
    "slot.prove.cas",    "job.store_result.bytes", "job.store_result.part", "job.complete.cas",
    "slot.release.cas",  "job.fail.text",          "job.fail.part",         "job.fail.job",
    "slot.abandon.cas"};

std::vector<crash_case> cases() {
  std::vector<crash_case> v;
  for (const char* p : pipeline_points) v.push_back({p, {}});
  v.push_back({"reclaim.lease.cas", {"slot.fill.sizes", "slot.prove.cas"}});
  v.push_back({"slot.reclaim_assigned.cas", {"slot.assign.cas", "job.count_synthesis", "slot.fill.sizes"}});
  v.push_back({"slot.reclaim_proving.cas", {"slot.prove.cas", "job.store_result.bytes", "job.store_result.part"}});
  v.push_back({"slot.discard.cas", {"job.store_result.part", "job.complete.cas"}});
  v.push_back({"job.requeue.cas", {"slot.assign.cas", "job.mark_slotted.cas", "slot.assign.binding"}});
  v.push_back({"job.release_reserved.cas", {"job.submit.reserve", "job.submit.fields"}});
  return v;
}

/* Forks a child that arms `point` for its hit-th hit and runs the pool (or
   only starts a server, which reclaims). Returns the wait status. */
int child(const region_location& where, const std::vector<std::string>& submit, const char* point, unsigned hit,
          bool only_server_start) {
  pid_t pid = ::fork();
  if (pid == 0) {
    if (point) arm_failpoint(point, hit);
    if (only_server_start) {
      auto r = region::open(where);
      if (!r) ::_exit(crash::open_failed);
      auto s = lease::take(*r, role::server, "restarted-server");
      ::_exit(s ? crash::ok : crash::lease_failed);
    }
    ::_exit(crash::run_pool(where, submit));
  }
  int status = 0;
  while (::waitpid(pid, &status, 0) < 0 && errno == EINTR) {
  }
  return status;
}

void PrintTo(const crash_case& c, std::ostream* os) { *os << c.point; }

class Crash : public ::testing::TestWithParam<crash_case> {
 protected:
  pool_guard g{"crash"};
  std::string failures;

  void check(bool ok, const std::string& what) {
    if (!ok && failures.size() < 4000) failures += what + "\n";
  }
  static std::string job_id(const job_record& rec) { return std::string(rec.job_id); }

  /* The invariants, with no process alive and reclamation done. */
  void check_invariants(const region& r, std::vector<std::uint64_t>& gens, std::map<std::string, bool>& tracked,
                        unsigned it) {
    slot_table slots(r);
    job_table jobs(r);
    const std::string at = " (iteration " + std::to_string(it) + ")";
    for (std::uint64_t s = 0; s < slots.size(); ++s) {
      slot_word w = *slots.word(s);
      check(w.state == slot_state::free || w.state == slot_state::filled,
            "slot " + std::to_string(s) + " left in state " + std::to_string(int(w.state)) + at);
      check(w.owner == no_lease, "slot " + std::to_string(s) + " still owned" + at);
      check(w.generation >= gens[s], "slot " + std::to_string(s) + " generation went back" + at);
      gens[s] = w.generation;
      if (w.state != slot_state::filled) continue;
      check(bool(slots.verify_checksum(s)), "slot " + std::to_string(s) + " checksum" + at);
      const slot_entry& e = **slots.entry(s);
      job_ref j{e.job, e.job_generation};
      auto rec = jobs.get(j);
      check(bool(rec), "FILLED slot " + std::to_string(s) + " bound to a gone job" + at);
      if (!rec) continue;
      auto pw = jobs.part(j, e.partition);
      check(pw && pw->state == part_state::slotted && pw->slot == s,
            "FILLED slot " + std::to_string(s) + " not the slot of its partition" + at);
      auto pl = *slots.payload(s);
      check(crash::payload_matches(job_id(**rec), e.partition, pl.a, pl.b, pl.c, pl.z),
            "FILLED slot " + std::to_string(s) + " payload bytes differ" + at);
    }
    std::set<std::string> present;
    jobs.for_each([&](job_ref j, const job_record& rec) {
      auto st = job_word_state(rec);
      std::string id = job_id(rec);
      check(st != job_state::reserved, "job record " + std::to_string(j.index) + " left RESERVED" + at);
      present.insert(id);
      bool all_finished = true;
      for (std::uint32_t p = 0; p < rec.n_partitions; ++p) {
        part_word pw = part_word::unpack(rec.parts[p].word.load());
        if (pw.state == part_state::queued || pw.state == part_state::slotted) all_finished = false;
        if (pw.state == part_state::slotted && st == job_state::active) {
          auto w = slots.word(pw.slot);
          check(w && w->state == slot_state::filled,
                "job " + id + " partition " + std::to_string(p) + " SLOTTED to a slot that does not hold it" + at);
        }
        if (pw.state == part_state::done) {
          auto want = crash::proof(id, p);
          check(rec.parts[p].result_len == want.size() && std::equal(want.begin(), want.end(), rec.parts[p].result),
                "job " + id + " partition " + std::to_string(p) + " proof bytes differ" + at);
        }
        if (pw.state == part_state::failed) check(crash::is_bad(id) && p == 1, "job " + id + " failed" + at);
      }
      if (st == job_state::active) check(!all_finished, "job " + id + " finished but still ACTIVE" + at);
      if (st == job_state::done || st == job_state::failed) {
        // A failed job may leave partitions behind; a done one may not.
        if (st == job_state::done) check(all_finished, "job " + id + " DONE with work left" + at);
        tracked[id] = true;
      } else {
        tracked.emplace(id, false);
      }
    });
    for (auto& [id, finished] : tracked)
      check(finished || present.count(id), "job " + id + " lost before it finished" + at);
    const lease_entry* le = r.at<lease_entry>(r.header().lease_offset);
    for (std::uint32_t i = 0; i < r.header().lease_capacity; ++i)
      check(!lease_word::unpack(le[i].word.load()).active, "lease " + std::to_string(i) + " still marked active" + at);
  }
};

TEST_P(Crash, EveryStoreOfEveryTransitionSurvivesSigkill) {
  const crash_case& cc = GetParam();
  auto rng = test::rng(std::hash<std::string>{}(cc.point));
  ASSERT_TRUE(region::create(region_config{}
                                 .with_name(g.name)
                                 .with_slots({3, 256, crash::witness})
                                 .with_slots({1, 1024, crash::witness})
                                 .with_leases(8)
                                 .with_jobs(8)
                                 .with_touch_threads(1)));
  region r = region::open(g.where()).value();
  std::vector<std::uint64_t> gens(r.header().n_slots, 0);
  std::map<std::string, bool> tracked;  // job id → seen finished
  std::vector<std::string> pending;     // submitted by the "client", not yet seen in the table
  unsigned next_job = 0, kills = 0, n = iterations();
  const bool reclaim_point = !cc.before.empty();
  // Points on the failure path need jobs that fail: make every job fail there.
  const std::string pt = cc.point;
  const bool failing_point = pt.rfind("job.fail.", 0) == 0 || pt == "slot.abandon.cas";

  for (unsigned it = 0; it < n && failures.empty(); ++it) {
    std::size_t active = 0;
    for (auto& [id, fin] : tracked) active += !fin;
    if (active + pending.size() < 3) {
      std::string id = "job-" + std::to_string(next_job) + (next_job % 5 == 4 || failing_point ? "-bad" : "");
      ++next_job;
      pending.push_back(id);
    }
    unsigned hit = 1 + static_cast<unsigned>(rng() % 3);
    const char* first = reclaim_point ? cc.before[rng() % cc.before.size()] : cc.point;
    int st = child(g.where(), pending, first, hit, false);
    bool killed = WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
    ASSERT_TRUE(killed || (WIFEXITED(st) && WEXITSTATUS(st) == 0))
        << "child of iteration " << it << " ended with status " << st << " (exit " << WEXITSTATUS(st) << ")";
    if (reclaim_point) {
      st = child(g.where(), {}, cc.point, 1, true);
      killed = WIFSIGNALED(st) && WTERMSIG(st) == SIGKILL;
      ASSERT_TRUE(killed || (WIFEXITED(st) && WEXITSTATUS(st) == 0)) << "restart child ended with status " << st;
    }
    kills += killed;
    auto rep = reclaim(r);
    ASSERT_TRUE(rep);
    ASSERT_TRUE(rep->reconciled);
    check_invariants(r, gens, tracked, it);
    std::erase_if(pending, [&](const std::string& id) { return tracked.count(id) != 0; });
  }
  ASSERT_TRUE(failures.empty()) << failures;

  // Drain: a pool without failpoints finishes everything that was accepted.
  for (int round = 0; round < 4; ++round) {
    int st = child(g.where(), pending, nullptr, 0, false);
    ASSERT_TRUE(WIFEXITED(st) && WEXITSTATUS(st) == 0) << "drain child exit " << WEXITSTATUS(st);
    ASSERT_TRUE(reclaim(r));
    check_invariants(r, gens, tracked, n + round);
    std::erase_if(pending, [&](const std::string& id) { return tracked.count(id) != 0; });
  }
  ASSERT_TRUE(failures.empty()) << failures;
  EXPECT_TRUE(pending.empty());
  for (auto& [id, finished] : tracked) EXPECT_TRUE(finished) << "job " << id << " never finished";
  slot_table slots(r);
  for (std::uint64_t s = 0; s < slots.size(); ++s) EXPECT_EQ(slots.word(s)->state, slot_state::free) << s;
  std::printf("[crash] %s: %u iterations, %u killed at the failpoint, %u jobs\n", cc.point, n, kills, next_job);
  EXPECT_GT(kills, n / 10) << "the failpoint was hardly ever reached";
}

std::string name_of(const ::testing::TestParamInfo<crash_case>& info) {
  std::string s = info.param.point;
  for (char& c : s)
    if (c == '.') c = '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(Failpoints, Crash, ::testing::ValuesIn(cases()), name_of);

}  // namespace
}  // namespace cuzk::shm
