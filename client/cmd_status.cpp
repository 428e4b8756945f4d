// cuzk status: the server's jobs, slots and workers as tables, or one job
// with its partitions; --json writes the same as JSON (names from
// proto/names.hpp, times in ns since the epoch, as the server sends them).
#include <chrono>
#include <bit>
#include <cstdio>
#include <ctime>
#include <string>
#include <thread>

#include <nlohmann/json.hpp>

#include "client/lib/connection.hpp"
#include "client/lib/exit_codes.hpp"
#include "commands.hpp"
#include "proto/limits.hpp"
#include "proto/names.hpp"
#include "util/utf8.hpp"

namespace cuzk::cli {

namespace {

using json = nlohmann::json;

std::string str(std::string_view s) { return std::string(s); }
/* Text from the server that other clients chose (job ids, client names, errors quoting their
   inputs), made safe for the operator's terminal: one line, no controls, C1 or bidi overrides. */
std::string shown(std::string_view s) { return util::escape_for_terminal(s); }

/* Seconds, from the job record's microseconds. */
json to_json(const proto::partition_timings& t) {
  json o = json::object();
  for (std::size_t i = 0; i < groth16::n_timings; ++i)
    o[str(groth16::timing_names[i])] = static_cast<double>(t.us[i]) / 1e6;
  return o;
}

json to_json(const proto::job_status& j) {
  json parts = json::array();
  for (const auto& p : j.partitions)
    parts.push_back({{"state", str(proto::name(p.state))},
                     {"synth_start_ns", p.synth_start_ns},
                     {"synth_end_ns", p.synth_end_ns},
                     {"prove_start_ns", p.prove_start_ns},
                     {"prove_end_ns", p.prove_end_ns},
                     {"syntheses", p.syntheses},
                     {"attempts", p.attempts},
                     {"timings", p.timings ? to_json(*p.timings) : json(nullptr)},
                     {"witness_s", static_cast<double>(p.witness_us) / 1e6},
                     {"gpu", p.gpu}});
  return {{"job_id", j.job_id},
          {"state", str(proto::name(j.state))},
          {"error", j.error},
          {"submitted_ns", j.submitted_ns},
          {"finished_ns", j.finished_ns},
          {"priority", str(proto::name(j.priority))},
          {"curve", std::string(curves::name(j.curve))},
          {"client", j.client},
          {"partitions", parts}};
}

json to_json(const proto::capacity& c) {
  json keys = json::array(), classes = json::array();
  for (const auto& k : c.keys)
    keys.push_back({{"key_id", k.key_id.empty() ? json(nullptr) : json(k.key_id)},
                    {"priority", str(proto::name(k.priority))},
                    {"queued", k.queued},
                    {"running", k.running}});
  for (const auto& k : c.classes)
    classes.push_back(
        {{"class", k.class_index}, {"domain", k.domain}, {"witness", k.witness}, {"slots", k.slots}, {"free", k.free}});
  return {{"keys", keys},
          {"classes", classes},
          {"partitions_per_minute", c.partitions_per_minute},
          {"estimated_wait_s", c.estimated_wait_s},
          {"accepting", c.accepting},
          {"refusal", c.refusal.empty() ? json(nullptr) : json(c.refusal)},
          {"jobs_held", c.jobs_held},
          {"jobs_limit", c.jobs_limit},
          {"circuits", [&] {
             json v = json::array();
             for (const auto& k : c.circuits)
               v.push_back({{"name", k.name}, {"generator", k.generator}, {"key_id", k.key_id}});
             return v;
           }()}};
}

json to_json(const proto::status_reply& r) {
  json jobs = json::array(), slots = json::array(), workers = json::array();
  for (const auto& j : r.jobs) jobs.push_back(to_json(j));
  for (const auto& s : r.slots)
    slots.push_back({{"index", s.index},
                     {"class", s.class_index},
                     {"state", str(proto::name(s.state))},
                     {"generation", s.generation},
                     {"owner", s.owner == proto::no_owner ? json(nullptr) : json(s.owner)}});
  for (const auto& w : r.workers)
    workers.push_back({{"lease", w.lease},
                       {"name", w.name},
                       {"pid", w.pid},
                       {"state", str(proto::name(w.state))},
                       {"heartbeat_age_ms", w.heartbeat_age_ms}});
  json gpus = json::array();
  for (const auto& g : r.gpus)
    gpus.push_back({{"device", g.device},
                    {"name", g.name},
                    {"workers", g.workers},
                    {"busy_ratio", g.busy_ratio},
                    {"mem_total", g.mem_total},
                    {"mem_free", g.mem_free},
                    {"budget", g.budget},
                    {"resident_keys", g.resident_keys},
                    {"resident_shifts", g.resident_shifts},
                    {"resident_bytes", g.resident_bytes},
                    {"shifted_bytes", g.shifted_bytes},
                    {"proofs", g.proofs},
                    {"faults", g.faults}});
  json keys = json::array();
  for (const auto& k : r.keys)
    keys.push_back({{"key_id", k.key_id},
                    {"host_copy", k.host_copy},
                    {"host_bytes", k.host_bytes},
                    {"device_bytes", k.device_bytes}});
  json out = {{"jobs", jobs},       {"jobs_omitted", r.jobs_omitted},       {"slots", slots},
              {"workers", workers}, {"hung_timeout_ms", r.hung_timeout_ms}, {"gpus", gpus},
              {"keys", keys}};
  if (r.capacity) out["capacity"] = to_json(*r.capacity);
  return out;
}

json to_json(const proto::cluster_view& c) {
  json nodes = json::array();
  for (const auto& n : c.nodes)
    nodes.push_back({{"name", n.name},
                     {"alive", n.alive},
                     {"heartbeat_age_ms", n.heartbeat_age_ms},
                     {"claims", n.claims},
                     {"keys", n.keys},
                     {"key_ids", n.key_ids}});
  return {{"node", c.node},
          {"database_up", c.database_up},
          {"database_error", c.database_error.empty() ? json(nullptr) : json(c.database_error)},
          {"dead_after_ms", c.dead_after_ms},
          {"queued", c.queued},
          {"nodes", nodes}};
}

/* JSON as ASCII: other scripts, C1 controls and bidi overrides as \\u escapes that a JSON reader
   decodes and a terminal shows as text; bytes that are not UTF-8 as U+FFFD rather than an exception. */
std::string json_text(const json& j) { return j.dump(1, ' ', true, json::error_handler_t::replace); }

std::string when(std::uint64_t ns) {
  if (ns == 0) return "-";
  std::time_t t = static_cast<std::time_t>(ns / 1'000'000'000ULL);
  std::tm tm{};
  ::localtime_r(&t, &tm);
  char buf[32];
  std::strftime(buf, sizeof buf, "%Y-%m-%d %H:%M:%S", &tm);
  return buf;
}

std::string seconds(std::uint64_t start, std::uint64_t end) {
  if (start == 0 || end < start) return "-";
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3f", static_cast<double>(end - start) / 1e9);
  return buf;
}

std::size_t done_parts(const proto::job_status& j) {
  std::size_t n = 0;
  for (const auto& p : j.partitions) n += p.state == proto::partition_state::done;
  return n;
}

void print_job(const proto::job_status& j) {
  std::printf("job %s: %s, priority %s, %s, submitted %s", shown(j.job_id).c_str(), str(proto::name(j.state)).c_str(),
              str(proto::name(j.priority)).c_str(), std::string(curves::display_name(j.curve)).c_str(),
              when(j.submitted_ns).c_str());
  if (!j.client.empty()) std::printf(" by %s", shown(j.client).c_str());
  std::printf("\n");
  if (!j.error.empty()) std::printf("error: %s\n", shown(j.error).c_str());
  std::printf("%-5s %-13s %9s %9s %9s %8s %9s %4s\n", "PART", "STATE", "SYNTH_S", "PROVE_S", "SYNTHS", "REQUEUED",
              "PROOF_S", "GPU");
  for (std::size_t i = 0; i < j.partitions.size(); ++i) {
    const auto& p = j.partitions[i];
    std::printf("%-5zu %-13s %9s %9s %9u %8u %9s %4s\n", i, str(proto::name(p.state)).c_str(),
                seconds(p.synth_start_ns, p.synth_end_ns).c_str(), seconds(p.prove_start_ns, p.prove_end_ns).c_str(),
                p.syntheses, p.attempts,
                p.timings ? seconds(1, 1 + (*p.timings)[groth16::timing::total] * 1000).c_str() : "-",
                !p.timings  ? "-"
                : p.gpu < 0 ? "cpu"
                            : std::to_string(p.gpu).c_str());
  }
}

void print_capacity(const proto::capacity& c) {
  std::printf("CAPACITY  %s", c.accepting ? "accepting" : "not accepting");
  if (!c.accepting) std::printf(" (%s)", shown(c.refusal).c_str());
  std::printf("; your jobs %u of %u; %.1f partitions/min; estimated wait %.0f s\n", c.jobs_held, c.jobs_limit,
              c.partitions_per_minute, c.estimated_wait_s);
  std::printf("  %-34s %-7s %7s %8s\n", "KEY", "PRIO", "QUEUED", "RUNNING");
  for (const auto& k : c.keys)
    std::printf("  %-34s %-7s %7u %8u\n", k.key_id.empty() ? "(other clients')" : shown(k.key_id).c_str(),
                std::string(proto::name(k.priority)).c_str(), k.queued, k.running);
  std::printf("  %-6s %-10s %-12s %6s %5s\n", "CLASS", "DOMAIN", "WITNESS", "SLOTS", "FREE");
  for (const auto& k : c.classes)
    std::printf("  %-6u 2^%-8d %-12llu %6u %5u\n", k.class_index, std::countr_zero(k.domain),
                static_cast<unsigned long long>(k.witness), k.slots, k.free);
  if (!c.circuits.empty()) std::printf("  %-24s %-9s %s\n", "CIRCUIT", "GENERATOR", "KEY");
  for (const auto& k : c.circuits)
    std::printf("  %-24s %-9s %s\n", shown(k.name).c_str(), shown(k.generator).c_str(), shown(k.key_id).c_str());
}

void print_cluster(const proto::cluster_view& c) {
  std::printf("CLUSTER as node %s sees it: database %s", shown(c.node).c_str(), c.database_up ? "up" : "unavailable");
  if (!c.database_up) {
    std::printf(" (%s)\n", shown(c.database_error).c_str());
    return;
  }
  std::size_t alive = 0;
  for (const auto& n : c.nodes) alive += n.alive;
  std::printf("; %zu of %zu nodes alive (dead after %.0f s silent); %u jobs queued\n", alive, c.nodes.size(),
              static_cast<double>(c.dead_after_ms) / 1000, c.queued);
  std::printf("  %-24s %-5s %-14s %6s %6s\n", "NODE", "ALIVE", "HEARTBEAT", "KEYS", "CLAIMS");
  for (const auto& n : c.nodes) {
    std::printf("  %-24s %-5s %8.1f s ago %6u %6u\n", shown(n.name).c_str(), n.alive ? "yes" : "no",
                static_cast<double>(n.heartbeat_age_ms) / 1000, n.keys, n.claims);
    for (const auto& k : n.key_ids) std::printf("      key %s\n", shown(k).c_str());
  }
}

void print_service(const proto::status_reply& r) {
  std::printf("JOBS (%zu%s)\n", r.jobs.size(),
              r.jobs_omitted ? (", " + std::to_string(r.jobs_omitted) + " more not shown").c_str() : "");
  std::printf("  %-36s %-8s %-6s %-9s %-7s %-19s %s\n", "JOB ID", "STATE", "PRIO", "CURVE", "PARTS", "SUBMITTED",
              "ERROR");
  for (const auto& j : r.jobs)
    std::printf("  %-36s %-8s %-6s %-9s %3zu/%-3zu %-19s %s\n", shown(j.job_id).c_str(),
                str(proto::name(j.state)).c_str(), str(proto::name(j.priority)).c_str(),
                std::string(curves::name(j.curve)).c_str(), done_parts(j), j.partitions.size(),
                when(j.submitted_ns).c_str(), shown(j.error).c_str());
  std::printf("SLOTS (%zu)\n", r.slots.size());
  std::printf("  %-6s %-5s %-9s %-10s %s\n", "SLOT", "CLASS", "STATE", "GEN", "OWNER");
  for (const auto& s : r.slots)
    std::printf("  %-6llu %-5u %-9s %-10llu %s\n", (unsigned long long)s.index, s.class_index,
                str(proto::name(s.state)).c_str(), (unsigned long long)s.generation,
                s.owner == proto::no_owner ? "-" : std::to_string(s.owner).c_str());
  std::printf("WORKERS (%zu; hung after %.0f s without a heartbeat)\n", r.workers.size(),
              static_cast<double>(r.hung_timeout_ms) / 1000);
  std::printf("  %-5s %-23s %-8s %-5s %s\n", "LEASE", "NAME", "PID", "STATE", "HEARTBEAT");
  for (const auto& w : r.workers)
    std::printf("  %-5u %-23s %-8d %-5s %.1f s ago\n", w.lease, shown(w.name).c_str(), w.pid,
                str(proto::name(w.state)).c_str(), static_cast<double>(w.heartbeat_age_ms) / 1000);
  if (!r.keys.empty()) {
    std::printf("KEYS (%zu)\n", r.keys.size());
    std::printf("  %-32s %-9s %-9s %s\n", "KEY", "HOST_COPY", "HOST GiB", "DEVICE GiB");
    for (const auto& k : r.keys)
      std::printf("  %-32s %-9s %-9.2f %.2f\n", shown(k.key_id).c_str(), shown(k.host_copy).c_str(),
                  static_cast<double>(k.host_bytes) / (1ULL << 30), static_cast<double>(k.device_bytes) / (1ULL << 30));
  }
  if (r.gpus.empty()) return;
  std::printf("GPUS (%zu)\n", r.gpus.size());
  std::printf("  %-3s %-20s %-7s %-5s %-19s %-10s %-7s %s\n", "DEV", "NAME", "WORKERS", "BUSY", "MEM FREE/TOTAL GiB",
              "KEYS GiB", "PROOFS", "FAULTS");
  auto gib = [](std::uint64_t b) { return static_cast<double>(b) / (1ULL << 30); };
  for (const auto& g : r.gpus) {
    std::printf("  %-3d %-20s %-7u %4.0f%% %8.1f/%-10.1f %-10.1f %-7llu %llu\n", g.device, shown(g.name).c_str(),
                g.workers, g.busy_ratio * 100, gib(g.mem_free), gib(g.mem_total), gib(g.resident_bytes),
                (unsigned long long)g.proofs, (unsigned long long)g.faults);
    /* operators: each resident key and its shifted MSM copies (copies@window a query) */
    for (std::size_t i = 0; i < g.resident_keys.size(); ++i)
      std::printf("      key %s  copies %s\n", shown(g.resident_keys[i]).c_str(),
                  i < g.resident_shifts.size() ? shown(g.resident_shifts[i]).c_str() : "-");
    if (g.shifted_bytes) std::printf("      shifted copies %.1f GiB of the keys'\n", gib(g.shifted_bytes));
  }
  if (r.capacity) print_capacity(*r.capacity);
}

}  // namespace

int run_cancel(const status_args& a) {
  return client::with_exit_codes([&] {
    client::connection c(a.server.endpoint, connection_options(a.server));
    const auto j = c.cancel(a.job_id, a.owner);
    if (a.json)
      std::printf("%s\n", json_text(to_json(j)).c_str());
    else
      print_job(j);
    return j.state == proto::job_state::done ? client::exit_job_failed : client::exit_ok;
  });
}

int run_status(const status_args& a) {
  return client::with_exit_codes([&] {
    client::options o = connection_options(a.server);
    if (!a.server.request_timeout_given()) {  // a quick answer or none: 5 s, twice
      o.timeout = std::chrono::milliseconds(5000);
      o.attempts = 2;
    }
    client::connection c(a.server.endpoint, o);
    if (!a.job_id.empty()) {
      const auto j = c.status(a.job_id, a.owner);
      if (a.json)
        std::printf("%s\n", json_text(to_json(j)).c_str());
      else
        print_job(j);
      return j.state == proto::job_state::failed ? client::exit_job_failed : client::exit_ok;
    }
    if (a.capacity) {
      const auto cap = c.capacity();
      if (a.json)
        std::printf("%s\n", json_text(to_json(cap)).c_str());
      else
        print_capacity(cap);
      return client::exit_ok;
    }
    if (a.cluster) {
      const auto view = c.cluster();
      if (a.json)
        std::printf("%s\n", json_text(to_json(view)).c_str());
      else
        print_cluster(view);
      return view.database_up ? client::exit_ok : client::exit_unreachable;
    }
    if (a.watch > 0 && !a.json) {
      /* redraw in place (home, clear) until SIGINT/SIGTERM; the connection is reused */
      const auto period = std::chrono::milliseconds(static_cast<std::int64_t>(a.watch * 1000));
      for (;;) {
        const auto r = c.status();
        std::printf("\033[H\033[2J");
        print_service(r);
        std::fflush(stdout);
        std::this_thread::sleep_for(period);
      }
    }
    const auto r = c.status();
    if (a.json)
      std::printf("%s\n", json_text(to_json(r)).c_str());
    else
      print_service(r);
    return client::exit_ok;
  });
}

}  // namespace cuzk::cli
