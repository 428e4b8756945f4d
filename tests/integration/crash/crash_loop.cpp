#include "crash_loop.hpp"

#include <gtest/gtest.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/wait.h>

#include <fstream>
#include <string_view>
#include <nlohmann/json.hpp>
#include <thread>

#include "circuits/registry.hpp"
#include "io/snarkjs_json.hpp"
#include "r1cs/wtns_file.hpp"
#include "shm/job_table.hpp"
#include "shm/lease.hpp"
#include "shm/slot_table.hpp"

namespace cuzk::test::crash {

namespace {

using namespace std::chrono_literals;
using clk = std::chrono::steady_clock;

constexpr int good_per_batch = 2;
// A dead server is noticed quickly; requests are retried (all are idempotent).
constexpr auto request_timeout = std::chrono::milliseconds(30);
constexpr int bad_per_batch = 2;

/* The failpoint that kills a helper process to set a workload up. */
const char* prelude_point(workload w) {
  switch (w) {
    case workload::worker_died:
      return "worker.synthesized";  // a worker dies holding its ASSIGNED slot
    case workload::server_died_proving:
      return "server.proved";  // a server dies with a PROVING slot
    case workload::server_died_stored:
      return "job.store_result.part";  // ... with the proof stored, the slot PROVING
    case workload::server_died_reserved:
      return "job.submit.reserve";  // ... with a job record RESERVED
    default:
      return "";
  }
}

/* Lines of a CUZK_FAILPOINT_COUNT file that name `point`: its hits so far. */
std::uint64_t hits_in(const std::string& count_file, std::string_view point) {
  std::ifstream f(count_file);
  std::uint64_t n = 0;
  for (std::string line; std::getline(f, line);) n += line == point;
  return n;
}

double cpu_seconds() {
  double t = 0;
  for (int who : {RUSAGE_SELF, RUSAGE_CHILDREN}) {
    rusage u{};
    ::getrusage(who, &u);
    t += static_cast<double>(u.ru_utime.tv_sec + u.ru_stime.tv_sec) + (u.ru_utime.tv_usec + u.ru_stime.tv_usec) / 1e6;
  }
  return t;
}

std::string describe(int status) {
  if (WIFSIGNALED(status)) return "killed by signal " + std::to_string(WTERMSIG(status));
  return "exited with status " + std::to_string(WEXITSTATUS(status));
}

}  // namespace

crash_loop::crash_loop(std::uint64_t seed) : seed_(seed), rng_(seed) {
  svc_ = std::make_unique<service>(std::vector<std::string>{"4x256"});
  std::string why;
  auto r = shm::region::open({svc_->pool(), ""}, &why);
  if (!r) throw std::runtime_error("cannot open the test pool: " + why);
  region_ = std::make_unique<shm::region>(std::move(*r));
  workers_.resize(3);
  {
    client::options o;
    o.timeout = request_timeout;
    o.attempts = 1;
    conn_ = std::make_unique<client::connection>(svc_->endpoint(), o);
  }
  count_file_ = (svc_->dir() / "hits").string();
  helper_count_file_ = (svc_->dir() / "helper-hits").string();
  (void)key_for(circuit_);
}

crash_loop::~crash_loop() {
  for (auto& w : workers_)
    if (w) w->kill9();
  for (auto& w : retiring_) w->kill9();
  if (server_) server_->kill9();
}

crash_loop::env crash_loop::env_for(arm a, kind k) {
  env e{{"CUZK_FAILPOINT", ""}, {"CUZK_FAILPOINT_COUNT", ""}};
  if (a == arm::count) e["CUZK_FAILPOINT_COUNT"] = count_file_;
  if (a == arm::kill || a == arm::kill_next) {
    const std::uint64_t k = std::uniform_int_distribution<std::uint64_t>(1, hits_)(rng_);
    const long rest = static_cast<long>(hits_ - std::min(armed_k_, hits_)) + 1 + skip_adjust_;
    const std::uint64_t skip = a == arm::kill_next ? static_cast<std::uint64_t>(std::max(0L, rest)) : 0;
    armed_next_ = a == arm::kill_next;
    armed_k_ = k;
    e["CUZK_FAILPOINT"] = std::string(point_->name) + ":" + std::to_string(skip + k);
  }
  if (a == arm::prelude) e["CUZK_FAILPOINT"] = std::string(prelude_point(point_->load)) + ":1";
  if (a == arm::prelude && k == kind::worker && point_->who == kind::worker) {
    e["CUZK_FAILPOINT"] += ":stall";
    e["CUZK_FAILPOINT_COUNT"] = helper_count_file_;  // its line says the helper reached the stall
    std::ofstream(helper_count_file_, std::ios::trunc).flush();
    helper_stalls_ = true;
  }
  return e;
}

// ---- processes ----

void crash_loop::start_server(arm a) {
  // A restarted server hears of running workers only at their next Ready (a
  // second apart) and would hand work to one that is being replaced: the old
  // worker goes first, a fresh one announces itself once the server is up.
  if (workers_[0]) {
    retire_worker();
    worker_wanted_ = true;
  }
  // Workers die at random points here, some in the same synthesis more than
  // once: that is recovery, not the poison input --max-synth-crashes refuses.
  server_ = svc_->start_server(env_for(a, kind::server), {"--threads", "1", "--max-synth-crashes", "100"});
  server_arm_ = a;
  if (a == arm::kill || a == arm::kill_next) target_ = server_->pid();
  if (a == arm::kill_next) server_arm_ = arm::kill;
  wait_server_up();
  if (worker_wanted_ && server_->running()) {  // else the next server start brings it
    start_worker(0, arm::none);
    worker_wanted_ = false;
  }
}

// Each attempt on a fresh socket, which connects at once (a socket that found
// no server waits out its reconnect interval, 100 ms).
void crash_loop::wait_server_up() {
  const auto end = clk::now() + 20s;
  while (server_->running() && clk::now() < end) {
    client::options o;
    o.timeout = 25ms;
    o.attempts = 1;
    try {
      (void)client::connection(svc_->endpoint(), o).status();
      break;
    } catch (const std::exception&) {
    }
  }
  client::options o;
  o.timeout = request_timeout;
  o.attempts = 1;
  conn_ = std::make_unique<client::connection>(svc_->endpoint(), o);
}

void crash_loop::start_worker(std::size_t i, arm a) {
  workers_[i] = svc_->start_worker("w" + std::to_string(next_name_++), env_for(a, kind::worker));
  if (i == 0) worker_arm_ = a;
  if (a == arm::kill || a == arm::kill_next) target_ = workers_[i]->pid();
  if (i == 0 && a == arm::kill_next) worker_arm_ = arm::kill;
}

void crash_loop::retire_worker() {
  if (workers_[0] && workers_[0]->running()) {
    ::kill(workers_[0]->pid(), SIGTERM);  // finishes what it holds, then exits (0)
    retiring_.push_back(std::move(workers_[0]));
  }
  workers_[0].reset();
}

void crash_loop::stop_server() {
  if (!server_) return;
  const int rc = server_->terminate(30s);
  if (rc != 0 && !(rc == 128 + SIGKILL && server_arm_ != arm::none)) {
    ADD_FAILURE() << "the server stopped with " << rc << " on SIGTERM";
    failed_ = true;
  }
  server_.reset();
}

void crash_loop::stop_worker(std::size_t i) {
  if (!workers_[i]) return;
  (void)workers_[i]->terminate(30s);
  workers_[i].reset();
}

void crash_loop::on_death(std::unique_ptr<process>& p, kind k, std::size_t index) {
  const int st = *p->wait_exit(0s);
  const bool target = p->pid() == target_;
  if (!WIFSIGNALED(st) || WTERMSIG(st) != SIGKILL) {
    ADD_FAILURE() << (k == kind::server ? "the server" : "a worker") << " " << describe(st) << " (logs in "
                  << svc_->dir() << ")";
    failed_ = true;
  }
  if (k == kind::worker) ++worker_sigkills_;
  if (target) {
    ++stats_.kills;
    stats_.most_kills_per_check = std::max(stats_.most_kills_per_check, ++unchecked_kills_);
    if (unchecked_kills_ > 1) ++skip_adjust_;  // it died again before the check: skip more next time
    armed_next_ = false;
    target_ = -1;
  } else {
    ++stats_.other_deaths;
  }
  p.reset();
  // Where jobs flowing hit the point, the killed target comes back armed for
  // a hit after the round it recovers (the invariants are checked first,
  // unless its recovery hits more often than the rest of the round would have);
  // elsewhere it comes back unarmed.
  const bool flowing =
      point_->load == workload::flow || point_->load == workload::bad_witness || point_->load == workload::bad_proof;
  if (k == kind::server) {
    arm next = target ? (flowing ? arm::kill_next : arm::none) : arm::kill;
    if (calibrating_ && next != arm::none) next = arm::count;
    start_server(next);
    return;
  }
  if (index == 2) {  // worker_died: the helper's death brings the armed worker; the target is not replaced
    if (!target && point_->who == kind::worker) start_worker(2, calibrating_ ? arm::count : arm::kill);
    return;
  }
  start_worker(index, target && flowing && index == 0 ? arm::kill_next : arm::none);
}

void crash_loop::hand_over_stalled_helper() {
  if (!helper_stalls_ || !workers_[2] || !server_ || !server_->running()) return;
  if (hits_in(helper_count_file_, prelude_point(point_->load)) == 0) return;  // not at its stall yet
  helper_stalls_ = false;
  ::kill(server_->pid(), SIGSTOP);
  workers_[2]->kill9();                    // dies where it stalled, holding its ASSIGNED slot
  on_death(workers_[2], kind::worker, 2);  // starts the armed worker
  const pid_t armed = workers_[2] ? workers_[2]->pid() : -1;
  const auto leased = [&] {
    const auto* e = shm::lease_entries(*region_);
    for (std::uint32_t i = 0; i < region_->header().lease_capacity; ++i)
      if (e[i].pid == armed) return true;
    return false;
  };
  // Until its lease take is over (the pid is written after the reclaim) or it died in it.
  (void)eventually([&] { return armed < 0 || !workers_[2] || !workers_[2]->running() || leased(); }, 30s);
  ::kill(server_->pid(), SIGCONT);
}

void crash_loop::supervise() {
  hand_over_stalled_helper();
  if (server_ && !server_->running()) on_death(server_, kind::server, 0);
  for (std::size_t i = 0; i < workers_.size(); ++i)
    if (workers_[i] && !workers_[i]->running()) on_death(workers_[i], kind::worker, i);
  std::erase_if(retiring_, [](std::unique_ptr<process>& p) { return !p->running(); });
}

void crash_loop::helper_ready(std::size_t workers) {
  (void)eventually(
      [&] {
        supervise();
        try {
          return conn_->status().workers.size() >= workers;
        } catch (const std::exception&) {
          return false;
        }
      },
      5s);
}

// ---- jobs ----

std::vector<crash_loop::job> crash_loop::make_batch(int good, int bad) {
  std::vector<job> out;
  for (int i = 0; i < good + bad; ++i) {
    job j;
    j.id = "crash-" + std::to_string(next_job_++);
    j.bad = i >= good;
    if (!j.bad) {
      j.inputs = inputs_for(circuit_, rng_());
    } else {
      // A witness of the right size: z[0] = 0 fails synthesis (bad_witness);
      // z[0] = 1 and random values give a proof that does not verify (bad_proof).
      const auto& pk = *key_for(circuit_).pk;
      std::vector<ff::fr_t> z(pk.n_vars);
      for (auto& v : z) v = ff::fr_t::from_u64(rng_() % 1000 + 2);
      z[0] = point_->load == workload::bad_proof ? ff::fr_t::one() : ff::fr_t::zero();
      const auto bytes = r1cs::write_wtns(z);
      j.wtns = (svc_->dir() / (j.id + ".wtns")).string();
      std::ofstream(j.wtns, std::ios::binary)
          .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
    }
    out.push_back(std::move(j));
  }
  return out;
}

void crash_loop::submit(const job& j) {
  proto::submit s;
  s.job_id = j.id;
  s.client = "crash";
  s.zkey = key_for(circuit_).path;
  if (j.bad)
    s.work = proto::circom_work{j.wtns, std::nullopt};
  else
    s.work = proto::native_work{circuit_, j.inputs};
  const auto end = clk::now() + 60s;
  while (!failed_) {
    supervise();
    try {
      (void)conn_->submit(s);
      return;
    } catch (const client::unreachable&) {
    } catch (const client::server_error& e) {
      // busy: a retry after a timed-out attempt finds that attempt still being prepared (a loaded machine)
      if (e.code() != proto::error_code::unavailable && e.code() != proto::error_code::busy) {
        ADD_FAILURE() << "submit " << j.id << " refused: " << e.what();
        failed_ = true;
        return;
      }
      std::this_thread::sleep_for(5ms);
    }
    if (clk::now() > end) {
      ADD_FAILURE() << "submit " << j.id << ": no server accepted it within 60 s";
      failed_ = true;
    }
  }
}

bool crash_loop::fetch(job& j) {
  const auto end = clk::now() + 60s;
  while (!failed_ && clk::now() < end) {
    supervise();
    try {
      auto out = conn_->fetch(j.id);
      if (auto* pr = std::get_if<proto::proof_reply>(&out)) {
        if (pr->partitions.size() != 1) {
          ADD_FAILURE() << j.id << ": " << pr->partitions.size() << " partitions in its proof reply";
          return false;
        }
        j.proof = pr->partitions[0].proof_json;
        j.pub = pr->partitions[0].public_json;
        return true;
      }
      const auto& st = std::get<proto::job_status>(out);
      if (st.state == proto::job_state::failed) {
        j.failed = true;
        j.error = st.error;
        return true;
      }
      ADD_FAILURE() << j.id << ": finished in the job table, but the server answers it is not";
      return false;
    } catch (const client::unreachable&) {
    } catch (const client::server_error& e) {
      if (e.code() == proto::error_code::unavailable || e.code() == proto::error_code::busy) {  // retry later
        std::this_thread::sleep_for(5ms);
        continue;
      }
      ADD_FAILURE() << "job " << j.id << " was accepted and is lost: " << e.what();
      return false;
    }
  }
  ADD_FAILURE() << "no server answered a fetch of " << j.id << " within 60 s";
  return false;
}

bool crash_loop::run_batch(std::vector<job>& batch, std::chrono::seconds limit) {
  for (const auto& j : batch) {
    if (failed_) return false;
    submit(j);
  }
  // Polled in the job table (no request per poll); fetched through the server
  // once all are finished (fewer requests for a dying server to swallow).
  const auto end = clk::now() + limit;
  while (!failed_) {
    supervise();
    bool all = true;
    for (auto& j : batch) {
      if (j.finished) continue;
      const auto* rec = record_of(j.id);
      if (!rec) {
        ADD_FAILURE() << "job " << j.id << " was accepted and is not in the job table";
        failed_ = true;
        return false;
      }
      const auto st = shm::job_word_state(*rec);
      j.finished = st == shm::job_state::done || st == shm::job_state::failed;
      all = all && j.finished;
    }
    if (all) {
      for (auto& j : batch)
        if (!fetch(j)) {
          failed_ = true;
          return false;
        }
      return true;
    }
    if (clk::now() > end) {
      std::string pending;
      for (const auto& j : batch)
        if (!j.finished) pending += " " + j.id;
      ADD_FAILURE() << "jobs never finished:" << pending << " (seed " << seed_ << ", point " << point_->name
                    << ", logs in " << svc_->dir() << ")";
      failed_ = true;
      return false;
    }
    std::this_thread::sleep_for(2ms);
  }
  return false;
}

// The record of a job id, also where the server stores ids namespaced by
// client ("uid/crash-7"): the ids of this loop are unique as suffixes.
const shm::job_record* crash_loop::record_of(const std::string& id) const {
  const shm::job_record* found = nullptr;
  shm::job_table(*region_).for_each([&](shm::job_ref, const shm::job_record& rec) {
    const auto t = shm::field_text(rec.job_id);
    if (t == id || (t.size() > id.size() && t.ends_with(id) &&
                    !std::isalnum(static_cast<unsigned char>(t[t.size() - id.size() - 1]))))
      found = &rec;
  });
  return found;
}

std::string crash_loop::unsettled() const {
  shm::slot_table slots(*region_);
  for (std::uint64_t s = 0; s < slots.size(); ++s)
    if (auto w = slots.word(s); w->state != shm::slot_state::free)
      return "slot " + std::to_string(s) + " is " + std::to_string(static_cast<int>(w->state)) + " (0 free)";
  std::string out;
  shm::job_table(*region_).for_each([&](shm::job_ref, const shm::job_record& rec) {
    const auto st = shm::job_word_state(rec);
    if (out.empty() && st != shm::job_state::done && st != shm::job_state::failed)
      out = "job " + std::string(shm::field_text(rec.job_id)) + " is " + std::to_string(static_cast<int>(st));
  });
  return out;
}

bool crash_loop::check_quiescent(std::vector<job>& batch) {
  const auto& key = key_for(circuit_);
  auto c = circuits::make_circuit(circuit_);
  std::uint64_t extra = 0;
  for (auto& j : batch) {
    if (j.bad) {
      if (!j.failed) {
        ADD_FAILURE() << j.id << " (a witness that cannot be proven) did not fail";
        return false;
      }
      continue;
    }
    if (j.failed) {
      ADD_FAILURE() << j.id << " failed: " << j.error;
      return false;
    }
    if (!verifies(*key.pk, j.proof, j.pub)) {
      ADD_FAILURE() << j.id << ": its proof does not verify";
      return false;
    }
    const auto pub = io::public_from_json(nlohmann::json::parse(j.pub));
    if (pub != c->public_values(*c->parse_inputs(nlohmann::json::parse(j.inputs)))) {
      ADD_FAILURE() << j.id << ": its proof is of another job's inputs";
      return false;
    }
  }
  // Results stable across the kills since the previous check; syntheses
  // repeated only for workers that died.
  for (const auto& j : previous_) {
    if (j.bad) continue;
    job again = j;
    if (!fetch(again)) return false;
    if (again.failed || again.proof != j.proof || again.pub != j.pub) {
      ADD_FAILURE() << j.id << ": its result changed after it was done";
      return false;
    }
  }
  // Every slot FREE once the server has discarded what nobody needs; no job record left ACTIVE or RESERVED.
  std::string why;
  for (const auto end = clk::now() + 10s; !(why = unsettled()).empty() && clk::now() < end;) {
    supervise();
    std::this_thread::sleep_for(2ms);
  }
  if (!why.empty()) {
    ADD_FAILURE() << "after the batch: " << why << " (seed " << seed_ << ", point " << point_->name << ", logs in "
                  << svc_->dir() << ")";
    return false;
  }
  for (const auto& j : batch) {
    if (j.bad) continue;
    const auto* rec = record_of(j.id);
    if (!rec) {
      ADD_FAILURE() << j.id << " left the job table";
      return false;
    }
    const auto syntheses = rec->parts[0].syntheses.load();
    if (syntheses == 0) {
      ADD_FAILURE() << j.id << " is done but was never synthesized";
      return false;
    }
    extra += syntheses - 1;
  }
  if (extra > static_cast<std::uint64_t>(worker_sigkills_)) {
    ADD_FAILURE() << extra << " repeated syntheses after " << worker_sigkills_ << " worker deaths";
    return false;
  }
  worker_sigkills_ = 0;
  unchecked_kills_ = 0;
  stats_.jobs += static_cast<int>(batch.size());
  ++stats_.batches;
  previous_ = batch;
  return true;
}

// ---- rounds ----

std::uint64_t crash_loop::calibrate() {
  // A few rounds where the point is reached only when a race is won (the
  // next worker's lease against the server's reaper).
  std::uint64_t n = 0;
  for (int tries = 0; tries < 10 && n == 0 && !failed_; ++tries) {
    calibrating_ = true;
    // Emptied, not removed: a counting process that keeps running from the last round holds the file open
    // (O_APPEND, opened at its start) and would count into a removed file.
    std::ofstream(count_file_, std::ios::trunc).flush();
    const bool ok = round();
    calibrating_ = false;
    if (ok) n = hits_in(count_file_, point_->name);
  }
  return n;
}

loop_stats crash_loop::run(const crash_point& p, const std::function<int(std::uint64_t)>& kills_for) {
  point_ = &p;
  start_server(arm::none);
  start_worker(0, arm::none);
  hits_ = stats_.hits = calibrate();
  if (failed_) return stats_;
  if (hits_ == 0) {
    ADD_FAILURE() << "the workload never reaches " << p.name << " (logs in " << svc_->dir() << ")";
    return stats_;
  }
  const int kills = stats_.wanted = kills_for(hits_);
  const auto t0 = clk::now();
  const double cpu0 = cpu_seconds();
  const auto end = t0 + std::chrono::seconds(30 + 5 * kills);
  while (!failed_ && stats_.kills < kills) {
    if (!round()) {
      failed_ = true;
      break;
    }
    if (clk::now() > end) {
      ADD_FAILURE() << "only " << stats_.kills << " kills at " << p.name << " in " << 30 + 5 * kills << " s";
      break;
    }
  }
  stats_.seconds = std::chrono::duration<double>(clk::now() - t0).count();
  stats_.cpu_seconds = cpu_seconds() - cpu0;
  if (!failed_) {  // the operator's view agrees: every slot FREE
    auto status = nlohmann::json::parse(svc_->shm_status_json());
    for (const auto& slot : status["slots"])
      EXPECT_EQ(slot["state"], "free") << "cuzk-shm status: slot " << slot["index"];
  }
  return stats_;
}

/* One round: set the workload up, arm, run a batch to the end through every
   death, check. */
bool crash_loop::round() {
  const arm armed = calibrating_ ? arm::count : arm::kill;
  const int kills_before = stats_.kills;
  const bool armed_next = armed_next_;
  int bad = 0;
  switch (point_->load) {
    case workload::flow:
    case workload::bad_witness:
    case workload::bad_proof:
      bad = point_->load == workload::flow ? 0 : bad_per_batch;
      if (point_->who == kind::server && server_arm_ != armed) {
        stop_server();
        start_server(armed);
      }
      if (point_->who == kind::worker && worker_arm_ != armed) {
        stop_worker(0);
        start_worker(0, armed);
      }
      break;
    case workload::start:
      if (point_->who == kind::server) {
        stop_server();
        start_server(armed);  // dies in its lease (the restart is unarmed) unless counting
      } else {
        stop_worker(0);
        start_worker(0, armed);
      }
      break;
    case workload::worker_died:
      if (point_->who == kind::server && server_arm_ != armed) {
        stop_server();
        start_server(armed);
      }
      start_worker(2, arm::prelude);
      helper_ready(2);
      break;
    case workload::server_died_proving:
    case workload::server_died_stored:
    case workload::server_died_reserved:
      stop_server();
      start_server(arm::prelude);
      break;
  }
  auto batch = make_batch(good_per_batch, bad);
  if (!run_batch(batch, 60s)) return false;
  if (workers_[2]) {  // a worker_died round whose helper (or armed worker) never died
    stop_worker(2);
  }
  helper_stalls_ = false;
  if (!calibrating_ && stats_.kills == kills_before) ++stats_.misses;
  if (!calibrating_ && stats_.kills == kills_before && armed_next && skip_adjust_ > -static_cast<long>(hits_))
    --skip_adjust_;  // a whole round passed: skip less next time
  return check_quiescent(batch);
}

}  // namespace cuzk::test::crash
