#include "config/config_file.hpp"

#include <toml++/toml.h>

#include <cctype>
#include <cstdio>
#include <sstream>

namespace cuzk::config {

namespace {

std::string at(const std::filesystem::path& file, const toml::source_region& src) {
  return file.string() + ":" + std::to_string(src.begin.line);
}

/* A scalar as the command line would spell it; nullopt for a table or an array. */
std::optional<std::string> scalar(const toml::node& n) {
  if (auto s = n.value<std::string>(); s && n.is_string()) return *s;
  if (n.is_integer()) return std::to_string(*n.value<std::int64_t>());
  if (n.is_floating_point()) {
    std::ostringstream o;
    o << *n.value<double>();
    return o.str();
  }
  if (n.is_boolean()) return *n.value<bool>() ? "true" : "false";
  return std::nullopt;
}

}  // namespace

const std::map<std::string, std::set<std::string>>& known_keys() {
  static const std::map<std::string, std::set<std::string>> k = {
      {"pool", {"name", "hugepages", "slots", "group", "threads", "jobs", "leases"}},
      {"server",
       {"endpoint",
        "worker_endpoint",
        "client_group",
        "worker_group",
        "backend",
        "threads",
        "gpus",
        "workers_per_gpu",
        "device_reserve_gib",
        "device_budget_gib",
        "no_register",
        "keys",
        "keys_dirs",
        "witness_dirs",
        "hung_timeout",
        "retention",
        "max_jobs_per_client",
        "max_waits_per_client",
        "prepare_threads",
        "max_synth_crashes",
        "operators",
        "gateways",
        "msm_copies",
        "hold_proving",
        "max_preparing",
        "max_preparing_per_client",
        "max_fetches_per_client",
        "max_connections_per_client",
        "max_connections",
        "spool_dir",
        "max_spool_per_client_gib",
        "upload_stall",
        "max_spool_files_per_client"}},
      {"worker",
       {"name", "checksum", "synth_deadline", "stop_timeout", "progress_grace", "count", "generator_memory_gib",
        "generator_output_gib"}},
      {"keys", {"host_copy", "drop", "keep"}},
      {"metrics", {"address", "timeline_minutes"}},
      {"network", {"endpoint", "server_key", "clients_dir", "insecure_loopback"}},
      {"critical",
       {"max_per_client", "reserve_workers", "reserve_provers", "max_partitions_per_client", "partitions_per_minute",
        "max_preemptions"}},
      {"cluster", {"database", "node", "dead_after", "heartbeat"}},
  };
  return k;
}

arguments read(const std::filesystem::path& file, const std::vector<section>& wanted) {
  toml::table root;
  try {
    root = toml::parse_file(file.string());
  } catch (const toml::parse_error& e) {
    throw error(at(file, e.source()) + ": " + std::string(e.description()));
  }
  const auto& known = known_keys();
  for (const auto& [name, node] : root) {
    const std::string sec(name.str());
    auto k = known.find(sec);
    if (k == known.end()) throw error(at(file, node.source()) + ": unknown section [" + sec + "]");
    const auto* t = node.as_table();
    if (!t) throw error(at(file, node.source()) + ": " + sec + " must be a table ([" + sec + "])");
    for (const auto& [key, value] : *t)
      if (!k->second.count(std::string(key.str())))
        throw error(at(file, value.source()) + ": unknown key " + sec + "." + std::string(key.str()));
  }
  arguments out;
  for (const auto& s : wanted) {
    const auto* t = root[s.name].as_table();
    if (!t) continue;
    for (const auto& [key_name, o] : s.keys) {
      const toml::node* v = t->get(key_name);
      if (!v) continue;
      const std::string where = at(file, v->source()) + ": key " + s.name + "." + key_name;
      out.origin[o.flag] = where;
      if (o.is_flag) {
        if (!v->is_boolean()) throw error(where + " must be true or false");
        if (*v->value<bool>()) out.args.push_back(o.flag);
        continue;
      }
      if (const auto* arr = v->as_array()) {
        for (const auto& e : *arr) {
          auto x = scalar(e);
          if (!x) throw error(where + ": an array of strings or numbers expected");
          out.args.push_back(o.flag);
          out.args.push_back(*x);
        }
        continue;
      }
      auto x = scalar(*v);
      if (!x) throw error(where + ": a string, number or boolean expected");
      out.args.push_back(o.flag);
      out.args.push_back(*x);
    }
  }
  return out;
}

std::optional<std::string> config_path(int argc, const char* const* argv) {
  for (int i = 1; i < argc; ++i) {
    const std::string a = argv[i];
    if (a == "--config" && i + 1 < argc) return std::string(argv[i + 1]);
    if (a.rfind("--config=", 0) == 0) return a.substr(9);
  }
  return std::nullopt;
}

std::vector<std::string> merged(int argc, const char* const* argv, const arguments& a) {
  std::vector<std::string> v;
  v.emplace_back(argc > 0 ? argv[0] : "cuzk");
  v.insert(v.end(), a.args.begin(), a.args.end());
  for (int i = 1; i < argc; ++i) v.emplace_back(argv[i]);
  return v;
}

std::string explain(const std::string& message, const arguments& a) {
  for (const auto& [flag, where] : a.origin)
    for (auto i = message.find(flag); i != std::string::npos; i = message.find(flag, i + 1)) {
      const std::size_t end = i + flag.size();
      if (end == message.size() || !(std::isalnum(static_cast<unsigned char>(message[end])) || message[end] == '-'))
        return where + ": " + message;
    }
  return message;
}

std::optional<int> parse(CLI::App& app, int argc, char** argv, const std::vector<section>& sections) {
  arguments from_file;
  try {
    if (auto p = config_path(argc, argv)) from_file = read(*p, sections);
  } catch (const error& e) {
    std::fprintf(stderr, "%s: %s\n", app.get_name().c_str(), e.what());
    return 2;
  }
  const auto args = merged(argc, argv, from_file);
  std::vector<const char*> av;
  for (const auto& x : args) av.push_back(x.c_str());
  try {
    app.parse(static_cast<int>(av.size()), av.data());
  } catch (const CLI::CallForHelp& e) {
    return app.exit(e);
  } catch (const CLI::CallForAllHelp& e) {
    return app.exit(e);
  } catch (const CLI::ParseError& e) {
    std::fprintf(stderr, "%s: %s\n", app.get_name().c_str(), explain(e.what(), from_file).c_str());
    return e.get_exit_code();
  }
  return std::nullopt;
}

}  // namespace cuzk::config
