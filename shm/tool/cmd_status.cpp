#include <nlohmann/json.hpp>

#include <cstdio>
#include <cstring>

#include "commands.hpp"
#include "shm/job_table.hpp"
#include "shm/lease.hpp"
#include "shm/region.hpp"
#include "shm/slot_table.hpp"
#include "shm/srs_region.hpp"

namespace cuzk::shm::tool {
namespace {

const char* name_of(slot_state s) {
  switch (s) {
    case slot_state::free:
      return "free";
    case slot_state::assigned:
      return "assigned";
    case slot_state::filled:
      return "filled";
    case slot_state::proving:
      return "proving";
  }
  return "?";
}
const char* name_of(job_state s) {
  switch (s) {
    case job_state::free:
      return "free";
    case job_state::reserved:
      return "reserved";
    case job_state::active:
      return "active";
    case job_state::done:
      return "done";
    case job_state::failed:
      return "failed";
  }
  return "?";
}
const char* name_of(part_state s) {
  switch (s) {
    case part_state::queued:
      return "queued";
    case part_state::slotted:
      return "slotted";
    case part_state::done:
      return "done";
    case part_state::failed:
      return "failed";
  }
  return "?";
}
const char* name_of(role r) {
  switch (r) {
    case role::none:
      return "none";
    case role::server:
      return "server";
    case role::worker:
      return "worker";
    case role::tool:
      return "tool";
    case role::client:
      return "client";
  }
  return "?";
}

nlohmann::json snapshot(const region& r, double hung_after_s) {
  using nlohmann::json;
  const region_header& h = r.header();
  json j;
  j["name"] = r.location().name;
  j["total_bytes"] = h.total_bytes;
  j["version"] = h.version;
  j["epoch"] = h.epoch.load();
  j["created_unix_ns"] = h.created_unix_ns;
  j["hugepages"] = h.hugepages != 0;
  char hash[24];
  std::snprintf(hash, sizeof hash, "%016llx", static_cast<unsigned long long>(h.layout_hash));
  j["layout_hash"] = hash;
  j["server_alive"] = server_alive(r);
  j["hung_after_s"] = hung_after_s;
  j["classes"] = json::array();
  for (std::uint32_t c = 0; c < h.n_classes; ++c)
    j["classes"].push_back({{"index", c},
                            {"count", h.classes[c].count},
                            {"domain", h.classes[c].domain},
                            {"witness", h.classes[c].witness},
                            {"slot_bytes", h.classes[c].slot_bytes}});
  slot_table st(r);
  j["slots"] = json::array();
  for (std::uint64_t s = 0; s < st.size(); ++s) {
    slot_word w = *st.word(s);
    const slot_entry& e = **st.entry(s);
    json o = {{"index", s}, {"class", st.class_of(s)}, {"state", name_of(w.state)}, {"generation", w.generation}};
    o["owner"] = w.owner == no_lease ? json(nullptr) : json(w.owner);
    if (w.state != slot_state::free) {
      o["job"] = e.job;
      o["partition"] = e.partition;
    }
    if (w.state == slot_state::filled || w.state == slot_state::proving) {
      o["n_constraints"] = e.n_constraints;
      o["n_witness"] = e.n_witness;
    }
    j["slots"].push_back(o);
  }
  j["leases"] = json::array();
  const lease_entry* le = lease_entries(r);
  const std::uint64_t now = boot_ns();
  for (std::uint32_t i = 0; i < h.lease_capacity; ++i) {
    bool active = lease_word::unpack(le[i].word.load()).active, alive = is_alive(r, i);
    if (!active && !alive) continue;
    std::uint64_t hb = le[i].heartbeat_ns.load();
    double age = now > hb ? static_cast<double>(now - hb) / 1e9 : 0.0;
    const char* state = !alive ? "dead" : age > hung_after_s ? "hung" : "alive";
    j["leases"].push_back({{"index", i},
                           {"role", name_of(static_cast<role>(le[i].role))},
                           {"pid", le[i].pid},
                           {"state", state},
                           {"heartbeat_age_s", age},
                           {"epoch", le[i].epoch},
                           {"name", std::string(field_text(le[i].name))}});
  }
  j["jobs"] = json::array();
  job_table jt(r);
  jt.for_each([&](job_ref ref, const job_record& rec) {
    json parts = json::array();
    for (std::uint32_t p = 0; p < rec.n_partitions && p < max_partitions; ++p) {
      part_word pw = part_word::unpack(rec.parts[p].word.load());
      json o = {{"state", name_of(pw.state)}, {"attempts", pw.attempts}, {"syntheses", rec.parts[p].syntheses.load()}};
      if (pw.state == part_state::slotted) o["slot"] = pw.slot;
      if (pw.state == part_state::done) {
        const auto& t = rec.parts[p].timings;
        o["total_us"] = t.phases[groth16::timing::total];
        o["gpu"] = t.gpu;
      }
      parts.push_back(o);
    }
    json o = {{"index", ref.index},
              {"generation", ref.generation},
              {"id", std::string(field_text(rec.job_id))},
              {"client", std::string(field_text(rec.client))},
              {"key_id", std::string(field_text(rec.key_id))},
              {"state", name_of(job_word_state(rec))},
              {"priority", rec.priority},
              {"partitions", parts}};
    if (rec.error_len) o["error"] = std::string(field_text(rec.error));
    j["jobs"].push_back(o);
  });
  j["srs"] = list_srs(r.location().name);
  return j;
}

void print_table(const nlohmann::json& j) {
  std::printf("pool %s: %.3f GiB, layout v%u (%s), epoch %llu, server %s%s\n", j["name"].get<std::string>().c_str(),
              j["total_bytes"].get<double>() / (1ULL << 30), j["version"].get<unsigned>(),
              j["layout_hash"].get<std::string>().c_str(), j["epoch"].get<unsigned long long>(),
              j["server_alive"].get<bool>() ? "running" : "not running",
              j["hugepages"].get<bool>() ? ", huge pages" : "");
  std::printf("\nslots\n  %-6s %-6s %-9s %-11s %-6s %s\n", "index", "class", "state", "generation", "owner",
              "job/partition");
  for (const auto& s : j["slots"]) {
    std::string owner = s["owner"].is_null() ? "-" : std::to_string(s["owner"].get<unsigned>());
    std::string bound = s.contains("job") ? std::to_string(s["job"].get<unsigned long long>()) + "/" +
                                                std::to_string(s["partition"].get<unsigned>())
                                          : "-";
    std::printf("  %-6llu %-6u %-9s %-11llu %-6s %s\n", s["index"].get<unsigned long long>(),
                s["class"].get<unsigned>(), s["state"].get<std::string>().c_str(),
                s["generation"].get<unsigned long long>(), owner.c_str(), bound.c_str());
  }
  std::printf("\nleases\n  %-6s %-7s %-8s %-6s %-9s %s\n", "index", "role", "pid", "state", "heartbeat", "name");
  if (j["leases"].empty()) std::printf("  (none)\n");
  for (const auto& l : j["leases"])
    std::printf("  %-6u %-7s %-8d %-6s %7.1fs  %s\n", l["index"].get<unsigned>(), l["role"].get<std::string>().c_str(),
                l["pid"].get<int>(), l["state"].get<std::string>().c_str(), l["heartbeat_age_s"].get<double>(),
                l["name"].get<std::string>().c_str());
  std::printf("\njobs\n  %-6s %-24s %-8s %s\n", "index", "id", "state", "partitions (state/syntheses)");
  if (j["jobs"].empty()) std::printf("  (none)\n");
  for (const auto& jb : j["jobs"]) {
    std::string parts;
    for (const auto& p : jb["partitions"])
      parts += (parts.empty() ? "" : " ") + p["state"].get<std::string>() + "/" +
               std::to_string(p["syntheses"].get<unsigned>());
    std::printf("  %-6llu %-24s %-8s %s\n", jb["index"].get<unsigned long long>(), jb["id"].get<std::string>().c_str(),
                jb["state"].get<std::string>().c_str(), parts.c_str());
  }
  if (!j["srs"].empty()) {
    std::printf("\nSRS regions\n");
    for (const auto& k : j["srs"]) std::printf("  %s\n", k.get<std::string>().c_str());
  }
}

}  // namespace

int cmd_status(const status_args& a) {
  std::string why;
  auto r = region::open(region_location{a.name, a.hugepages}, &why);
  if (!r) return fail(why.empty() ? std::string(to_string(r.error())) : why);
  double hung_after_s = a.hung_after_s;
  if (hung_after_s <= 0) {
    const auto ms = r->header().hung_timeout_ms.load(std::memory_order_relaxed);
    hung_after_s = ms ? ms / 1e3 : 60;
  }
  nlohmann::json j = snapshot(*r, hung_after_s);
  // ASCII, and a record's bytes that are not UTF-8 as U+FFFD: client text reaches the operator's terminal
  // without raw controls or bidi overrides, and an older server's cut error never makes the dump throw.
  if (a.json)
    std::printf("%s\n", j.dump(2, ' ', true, nlohmann::json::error_handler_t::replace).c_str());
  else
    print_table(j);
  return 0;
}

}  // namespace cuzk::shm::tool
