#include <nlohmann/json.hpp>

#include <chrono>
#include <cstdio>
#include <fstream>

#include "commands.hpp"
#include "shm/layout_plan.hpp"
#include "shm/region.hpp"
#include "shm/shm_dir.hpp"

namespace cuzk::shm::tool {

namespace {

/* The pool keys of a JSON object (a --config file, a plan's "pool") for the arguments still unset. */
void apply_pool_json(create_args& a, const nlohmann::json& j) {
  if (a.name.empty() && j.contains("name")) a.name = j["name"].get<std::string>();
  if (a.slots.empty() && j.contains("slots")) {
    for (const auto& s : j["slots"]) {
      if (s.is_string())
        a.slots.push_back(s.get<std::string>());
      else
        a.slots.push_back(std::to_string(s.at("count").get<std::uint64_t>()) + "x" +
                          std::to_string(s.at("constraints").get<std::uint64_t>()) +
                          (s.contains("witness") ? ":w=" + std::to_string(s["witness"].get<std::uint64_t>()) : ""));
    }
  }
  if (!a.jobs && j.contains("jobs")) a.jobs = j["jobs"].get<std::uint64_t>();
  if (!a.leases && j.contains("leases")) a.leases = j["leases"].get<std::uint32_t>();
  if (a.hugepages.empty() && j.contains("hugepages")) a.hugepages = j["hugepages"].get<std::string>();
  if (!a.threads && j.contains("threads")) a.threads = j["threads"].get<unsigned>();
  if (a.group.empty() && j.contains("group")) a.group = j["group"].get<std::string>();
}

/* The arguments with the plan (cuzk plan --json) and the JSON --config applied, in that order (command-line
   values win); empty on success, else the error. */
std::string resolve(create_args& a) {
  if (!a.plan.empty()) {
    nlohmann::json j;
    try {
      std::ifstream f(a.plan);
      if (!f) return "cannot read plan " + a.plan;
      j = nlohmann::json::parse(f);
    } catch (const std::exception& e) {
      return "cannot read plan " + a.plan + ": " + e.what();
    }
    if (!j.is_object() || j.value("cuzk_plan", 0) != 1 || !j.contains("pool") || !j["pool"].is_object())
      return "plan " + a.plan +
             " is not a cuzk plan (version 1, with a \"pool\" object): write it with cuzk plan --json";
    try {
      apply_pool_json(a, j["pool"]);
    } catch (const std::exception& e) {
      return "plan " + a.plan + ": " + e.what();
    }
  }
  if (!a.config.empty()) {
    nlohmann::json j;
    try {
      std::ifstream f(a.config);
      j = nlohmann::json::parse(f);
    } catch (const std::exception& e) {
      return "cannot read config " + a.config + ": " + e.what();
    }
    try {
      apply_pool_json(a, j);
    } catch (const std::exception& e) {
      return "config " + a.config + ": " + e.what();
    }
  }
  // the JSON file's counts, bounded as the command line's are
  auto out_of = [](const char* option, std::uint64_t v, std::uint64_t lo, std::uint64_t hi) {
    return std::string(option) + ": " + std::to_string(v) + " is not in the allowed range " + std::to_string(lo) +
           " to " + std::to_string(hi);
  };
  if (a.jobs > max_jobs) return out_of("--jobs", a.jobs, 1, max_jobs);
  if (a.leases > max_leases) return out_of("--leases", a.leases, 1, max_leases);
  if (a.threads > max_threads) return out_of("--threads", a.threads, 0, max_threads);
  if (a.name.empty()) return "create needs --name (or \"name\" in --config)";
  if (a.slots.empty()) return "create needs at least one --slots COUNTxMAX_CONSTRAINTS (e.g. 4x65536)";
  return "";
}

std::string region_config_of(const create_args& a, region_config& cfg) {
  cfg.with_name(a.name).with_touch_threads(a.threads);
  if (a.jobs) cfg.with_jobs(a.jobs);
  if (a.leases) cfg.with_leases(a.leases);
  if (!a.hugepages.empty()) cfg.with_hugepages(a.hugepages);
  if (!a.group.empty()) cfg.with_group(a.group);
  for (const std::string& s : a.slots) {
    auto c = parse_slot_class(s);
    if (!c) return "bad --slots '" + s + "': expected COUNTxMAX_CONSTRAINTS[:w=WITNESS], e.g. 4x65536 or 4x2^20";
    cfg.with_slots(*c);
  }
  return "";
}

}  // namespace

int cmd_create(const create_args& in) {
  create_args a = in;
  if (auto e = resolve(a); !e.empty()) return fail(e);
  region_config cfg;
  if (auto e = region_config_of(a, cfg); !e.empty()) return fail(e);
  auto t0 = std::chrono::steady_clock::now();
  std::string why;
  auto r = region::create(cfg, &why);
  if (!r) return fail(why.empty() ? std::string(to_string(r.error())) : why);
  double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  const region_header& h = r->header();
  std::string classes;
  for (std::uint32_t i = 0; i < h.n_classes; ++i)
    classes += (i ? ", " : "") + std::to_string(h.classes[i].count) + "x" + std::to_string(h.classes[i].domain) + " (" +
               std::to_string(h.classes[i].slot_bytes >> 20) + " MiB each)";
  const std::string access = a.group.empty() ? "mode 0600" : "mode 0660, group " + a.group;
  std::printf("created pool '%s': %llu slots [%s], %u leases, %llu jobs, %.3f GiB%s, %s, in %.2f s\n", a.name.c_str(),
              static_cast<unsigned long long>(h.n_slots), classes.c_str(), h.lease_capacity,
              static_cast<unsigned long long>(h.job_capacity), static_cast<double>(h.total_bytes) / (1ULL << 30),
              h.hugepages ? " on huge pages" : "", access.c_str(), s);
  return 0;
}

int cmd_ensure(const create_args& in) {
  create_args a = in;
  if (auto e = resolve(a); !e.empty()) return fail(e);
  region_config cfg;
  if (auto e = region_config_of(a, cfg); !e.empty()) return fail(e);
  std::string why;
  // A directory someone else made is refused as itself, not as a pool that "does not validate".
  if (auto d = check_shm_dir(false, &why); !d && d.error() != error::not_found) return fail(why);
  auto r = region::open({a.name, a.hugepages}, &why);
  if (!r && r.error() == error::not_found) return cmd_create(a);
  if (!r)
    return fail("pool '" + a.name +
                "' exists but does not validate: " + (why.empty() ? std::string(to_string(r.error())) : why));
  auto want = detail::plan_layout(cfg.classes, cfg.lease_capacity, cfg.job_capacity, &why);
  if (!want) return fail(why);
  if (want->hash != r->header().layout_hash)
    return fail("pool '" + a.name +
                "' exists with another layout than the configuration's; its jobs are kept: "
                "drain and `cuzk-shm destroy` it to apply the new layout");
  std::printf("pool '%s' present, layout as configured (epoch %llu)\n", a.name.c_str(),
              static_cast<unsigned long long>(r->header().epoch.load()));
  return 0;
}

}  // namespace cuzk::shm::tool
