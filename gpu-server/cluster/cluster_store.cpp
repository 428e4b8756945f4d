#include "cluster/cluster_store.hpp"

#include <pqxx/pqxx>

#include <algorithm>
#include <array>
#include <string_view>

#include "cluster/cluster_names.hpp"
#include "shm/layout.hpp"

namespace cuzk::server {

namespace {

/* A text[] literal of values that need no quoting (key ids are hex). */
std::string array_literal(const std::vector<std::string>& v) {
  std::string s = "{";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + v[i];
  return s + "}";
}

std::vector<std::string> array_values(const pqxx::field& f) {
  std::vector<std::string> out;
  if (f.is_null()) return out;
  auto parser = f.as_array();
  for (auto [kind, value] = parser.get_next(); kind != pqxx::array_parser::done;
       std::tie(kind, value) = parser.get_next())
    if (kind == pqxx::array_parser::string_value) out.push_back(value);
  return out;
}

/* The state column's values, in the enum's order: the one place the two meet. */
constexpr std::array<std::string_view, 4> state_names{"queued", "claimed", "done", "failed"};

cluster_state state_in(const pqxx::field& f) {
  const auto text = f.as<std::string>();
  for (std::size_t i = 0; i < state_names.size(); ++i)
    if (state_names[i] == text) return static_cast<cluster_state>(i);
  throw std::runtime_error("the cluster database holds a job in an unknown state '" + text + "'");
}

std::vector<std::uint8_t> bytes_of(const pqxx::field& f) {
  const pqxx::binarystring b(f);
  return {b.data(), b.data() + b.size()};
}

cluster_job job_of(const pqxx::row& r) {
  cluster_job j;
  j.id = r["id"].as<std::int64_t>();
  j.owner = r["owner"].as<std::string>();
  j.job_id = r["job_id"].as<std::string>();
  j.digest_hex = r["digest"].as<std::string>();
  j.key_id = r["key_id"].as<std::string>();
  j.spec = r["spec"].as<std::string>();
  j.client = r["client"].as<std::string>();
  j.priority = priority_of(r["priority"].as<int>()).value_or(priority::normal);
  j.curve = r["curve"].as<int>();
  j.partitions = r["partitions"].as<std::uint32_t>();
  j.state = state_in(r["state"]);
  j.node = r["node"].is_null() ? "" : r["node"].as<std::string>();
  j.attempts = r["attempts"].as<std::uint32_t>();
  j.error = r["error"].is_null() ? "" : r["error"].as<std::string>();
  j.submitted_ns = r["submitted_ns"].as<std::uint64_t>();
  j.finished_ns = r["finished_ns"].is_null() ? 0 : r["finished_ns"].as<std::uint64_t>();
  return j;
}

#define CUZK_JOB_TIMES                                              \
  "(extract(epoch FROM submitted) * 1e9)::bigint AS submitted_ns, " \
  "(extract(epoch FROM finished) * 1e9)::bigint AS finished_ns"
/* rank (util/priority.hpp) in SQL: critical (3) first, then high, normal, low */
constexpr const char* rank_sql = "CASE WHEN priority = 3 THEN -1 ELSE priority END";
static_assert(stored(priority::critical) == 3 && rank(priority::high) == stored(priority::high));
constexpr const char* columns =
    "id, owner, job_id, digest, key_id, spec, client, priority, curve, partitions, state, node, attempts, "
    "error, " CUZK_JOB_TIMES;
#undef CUZK_JOB_TIMES

/* A done job's proofs, in partition order. */
std::vector<std::vector<std::uint8_t>> proofs_of(pqxx::work& w, std::int64_t id) {
  std::vector<std::vector<std::uint8_t>> out;
  for (const auto& row : w.exec_params("SELECT proof FROM cuzk_proofs WHERE job = $1 ORDER BY part", id))
    out.push_back(bytes_of(row[0]));
  return out;
}

/* The job, with its proofs when it is done. */
std::optional<cluster_job> job_with_proofs(pqxx::work& w, const pqxx::result& r) {
  if (r.empty()) return std::nullopt;
  auto j = job_of(r[0]);
  if (j.state == cluster_state::done) j.results = proofs_of(w, j.id);
  return j;
}

}  // namespace

std::string_view name(cluster_state s) { return state_names.at(static_cast<std::size_t>(s)); }

std::string with_liveness(const std::string& conninfo) {
  static const std::pair<const char*, const char*> settings[] = {{"connect_timeout", "5"},
                                                                 {"keepalives_idle", "5"},
                                                                 {"keepalives_interval", "2"},
                                                                 {"keepalives_count", "3"},
                                                                 {"tcp_user_timeout", "10000"}};
  const bool uri = conninfo.starts_with("postgresql://") || conninfo.starts_with("postgres://");
  std::string out = conninfo;
  for (const auto& [name, value] : settings) {
    if (conninfo.find(name) != std::string::npos) continue;
    if (uri)
      out += std::string(out.find('?') == std::string::npos ? "?" : "&") + name + "=" + value;
    else
      out += std::string(out.empty() ? "" : " ") + name + "=" + value;
  }
  return out;
}

std::string without_password(std::string message, const std::string& conninfo) {
  std::vector<std::string> secrets;
  // postgresql://USER:PASSWORD@HOST/...
  if (auto scheme = conninfo.find("://"); scheme != std::string::npos) {
    const auto start = scheme + 3;
    const auto at = conninfo.find('@', start), end = conninfo.find_first_of("/?", start);
    if (at != std::string::npos && at < end)
      if (auto colon = conninfo.find(':', start); colon != std::string::npos && colon < at)
        secrets.push_back(conninfo.substr(colon + 1, at - colon - 1));
  }
  // password=VALUE, password = 'VALUE' (keyword form) or ?password=VALUE (URI form)
  for (auto at = conninfo.find("password"); at != std::string::npos; at = conninfo.find("password", at + 1)) {
    auto i = conninfo.find_first_not_of(' ', at + 8);
    if (i == std::string::npos || conninfo[i] != '=') continue;
    i = conninfo.find_first_not_of(' ', i + 1);
    if (i == std::string::npos) continue;
    const bool quoted = conninfo[i] == '\'';
    const auto end = quoted ? conninfo.find('\'', i + 1) : conninfo.find_first_of(" &", i);
    secrets.push_back(conninfo.substr(i + quoted, end == std::string::npos ? std::string::npos : end - i - quoted));
  }
  for (const auto& secret : secrets)
    for (auto at = secret.empty() ? std::string::npos : message.find(secret); at != std::string::npos;
         at = message.find(secret, at + 3))
      message.replace(at, secret.size(), "***");
  return message;
}

struct cluster_store::session {
  explicit session(const std::string& conninfo) : c(conninfo) {}
  pqxx::connection c;
};

cluster_store::cluster_store(std::string conninfo) : conninfo_(with_liveness(conninfo)) {}
cluster_store::~cluster_store() = default;

cluster_store::session& cluster_store::open() {
  if (!session_ || !session_->c.is_open()) {
    try {
      session_ = std::make_unique<session>(conninfo_);
    } catch (const std::exception& e) {
      session_.reset();
      throw store_unavailable("the cluster database is unreachable: " + without_password(e.what(), conninfo_));
    }
  }
  return *session_;
}

// One transaction a call. A broken connection is dropped, so the next call
// connects again; the caller hears store_unavailable and keeps what it has.
template <class F>
auto cluster_store::run(F&& f) {
  try {
    pqxx::work w(open().c);
    if constexpr (std::is_void_v<decltype(f(w))>) {
      f(w);
      w.commit();
    } else {
      auto r = f(w);
      w.commit();
      return r;
    }
  } catch (const pqxx::broken_connection& e) {
    session_.reset();
    throw store_unavailable(std::string("the cluster database went away: ") + e.what());
  } catch (const pqxx::in_doubt_error& e) {
    session_.reset();
    throw store_unavailable(std::string("the cluster database went away mid-commit: ") + e.what());
  }
}

void cluster_store::migrate() {
  run([](pqxx::work& w) {
    w.exec("SELECT pg_advisory_xact_lock(7170)");  // nodes starting together create the tables once
    const auto has_column = [&](const std::string& table, const std::string& column) {
      return !w.exec_params(
                   "SELECT 1 FROM information_schema.columns WHERE table_schema = current_schema() AND "
                   "table_name = $1 AND column_name = $2",
                   table, column)
                  .empty();
    };
    /* A job's byte strings by a key of theirs, gone with the job. */
    const auto job_bytes = [&](const std::string& table, const std::string& key, const std::string& key_type,
                               const std::string& data) {
      w.exec("CREATE TABLE IF NOT EXISTS " + table +
             " (job bigint NOT NULL REFERENCES cuzk_jobs (id) ON DELETE "
             "CASCADE, " +
             key + " " + key_type + " NOT NULL, " + data + " bytea NOT NULL, PRIMARY KEY (job, " + key + "))");
    };
    w.exec(R"sql(
      CREATE TABLE IF NOT EXISTS cuzk_nodes (
        node text PRIMARY KEY,
        heartbeat timestamptz NOT NULL DEFAULT now(),
        keys text[] NOT NULL DEFAULT '{}',
        instance text NOT NULL DEFAULT '')
    )sql");
    // The host and pool of the node beating under a name (a second node under the same name is refused).
    if (!has_column("cuzk_nodes", "instance"))
      w.exec("ALTER TABLE cuzk_nodes ADD COLUMN instance text NOT NULL DEFAULT ''");
    w.exec(R"sql(
      CREATE TABLE IF NOT EXISTS cuzk_jobs (
        id bigserial PRIMARY KEY,
        owner text NOT NULL,
        job_id text NOT NULL,
        digest text NOT NULL,
        key_id text NOT NULL,
        spec text NOT NULL,
        client text NOT NULL DEFAULT '',
        priority smallint NOT NULL,
        curve smallint NOT NULL DEFAULT 1,
        partitions integer NOT NULL,
        submitted timestamptz NOT NULL DEFAULT now(),
        state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'claimed', 'done', 'failed')),
        node text,
        claimed timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        error text,
        finished timestamptz,
        UNIQUE (owner, job_id))
    )sql");
    job_bytes("cuzk_proofs", "part", "integer", "proof");  // a done job's proofs, by partition
    // A database of an older schema kept a done job's proofs as hex text in cuzk_jobs.results: they move here.
    if (has_column("cuzk_jobs", "results")) {
      w.exec(
          "INSERT INTO cuzk_proofs (job, part, proof) SELECT j.id, r.n - 1, decode(r.hex, 'hex') FROM cuzk_jobs j, "
          "unnest(j.results) WITH ORDINALITY AS r(hex, n) WHERE j.results IS NOT NULL ON CONFLICT DO NOTHING");
      w.exec("ALTER TABLE cuzk_jobs DROP COLUMN results");
    }
    w.exec("DROP INDEX IF EXISTS cuzk_jobs_queued");  // by priority's stored value, before critical ranked first
    w.exec("CREATE INDEX IF NOT EXISTS cuzk_jobs_queued_rank ON cuzk_jobs ((" + std::string(rank_sql) +
           "), id) WHERE state = 'queued'");
    w.exec("CREATE INDEX IF NOT EXISTS cuzk_jobs_claimed ON cuzk_jobs (node) WHERE state = 'claimed'");
    job_bytes("cuzk_inputs", "kind", "text", "data");  // a job's streamed files, by kind, until it finishes
  });
}

cluster_submit_outcome cluster_store::submit(const cluster_job& j, const std::vector<cluster_input>& inputs,
                                             std::uint64_t max_unfinished, std::uint64_t max_critical,
                                             std::uint64_t max_stored_bytes, std::uint64_t max_critical_partitions) {
  return run([&](pqxx::work& w) {
    w.exec_params("SELECT pg_advisory_xact_lock(7171, hashtext($1))", j.owner);  // one owner's submits in turn
    auto known =
        w.exec_params("SELECT id, digest, state FROM cuzk_jobs WHERE owner = $1 AND job_id = $2", j.owner, j.job_id);
    if (!known.empty()) {
      const bool same = known[0][1].as<std::string>() == j.digest_hex;
      return cluster_submit_outcome{known[0][0].as<std::int64_t>(), false, !same, state_in(known[0][2])};
    }
    if (max_unfinished != UINT64_MAX) {
      const auto n = w.exec_params("SELECT count(*) FROM cuzk_jobs WHERE owner = $1 AND state IN ('queued', 'claimed')",
                                   j.owner)[0][0]
                         .as<std::uint64_t>();
      if (n >= max_unfinished) return cluster_submit_outcome{0, false, false, cluster_state::queued, true, n};
    }
    if (j.priority == priority::critical) {
      const auto held = w.exec_params(
          "SELECT count(*), coalesce(sum(partitions), 0)::bigint FROM cuzk_jobs "
          "WHERE owner = $1 AND priority = $2 AND state IN ('queued', 'claimed')",
          j.owner, stored(j.priority))[0];
      const auto n = held[0].as<std::uint64_t>(), parts = held[1].as<std::uint64_t>();
      if (n >= max_critical) return cluster_submit_outcome{0, false, false, cluster_state::queued, true, n, true};
      if (j.partitions > max_critical_partitions || parts > max_critical_partitions - j.partitions) {
        cluster_submit_outcome out{0, false, false, cluster_state::queued, true, n, true};
        out.critical_partitions = parts;
        return out;
      }
    }
    if (max_stored_bytes != UINT64_MAX && !inputs.empty()) {
      std::uint64_t adding = 0;
      for (const auto& in : inputs) adding += in.bytes.size();
      const auto held = w.exec_params(
                             "SELECT coalesce(sum(octet_length(i.data)), 0)::bigint FROM cuzk_inputs i "
                             "JOIN cuzk_jobs j ON j.id = i.job WHERE j.owner = $1",
                             j.owner)[0][0]
                            .as<std::uint64_t>();
      if (adding > max_stored_bytes || held > max_stored_bytes - adding) {
        cluster_submit_outcome out{0, false, false, cluster_state::queued, true};
        out.stored_full = true;
        out.stored_bytes = held;
        return out;
      }
    }
    auto r = w.exec_params(
        "INSERT INTO cuzk_jobs (owner, job_id, digest, key_id, spec, client, priority, curve, partitions) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) ON CONFLICT (owner, job_id) DO NOTHING RETURNING id",
        j.owner, j.job_id, j.digest_hex, j.key_id, j.spec, j.client, stored(j.priority), j.curve, j.partitions);
    if (!r.empty()) {
      const auto id = r[0][0].as<std::int64_t>();
      for (const auto& in : inputs)
        w.exec_params("INSERT INTO cuzk_inputs (job, kind, data) VALUES ($1, $2, $3)", id, in.kind,
                      pqxx::binarystring(in.bytes.data(), in.bytes.size()));
      w.exec_params("SELECT pg_notify('cuzk_queued', $1)", j.key_id);
      return cluster_submit_outcome{id, true, false, cluster_state::queued};
    }
    // Another node recorded the same id meanwhile.
    known =
        w.exec_params("SELECT id, digest, state FROM cuzk_jobs WHERE owner = $1 AND job_id = $2", j.owner, j.job_id);
    const bool same = known[0][1].as<std::string>() == j.digest_hex;
    return cluster_submit_outcome{known[0][0].as<std::int64_t>(), false, !same, state_in(known[0][2])};
  });
}

std::optional<node_holder> cluster_store::heartbeat(const std::string& node, const std::vector<std::string>& key_ids,
                                                    const std::string& instance, std::chrono::seconds live) {
  return run([&](pqxx::work& w) -> std::optional<node_holder> {
    // Another instance's row is taken over only once it is silent for `live` ('': written before instances).
    auto r = w.exec_params(
        "INSERT INTO cuzk_nodes (node, heartbeat, keys, instance) VALUES ($1, now(), $2::text[], $3) "
        "ON CONFLICT (node) DO UPDATE SET heartbeat = now(), keys = EXCLUDED.keys, instance = EXCLUDED.instance "
        "WHERE cuzk_nodes.instance IN (EXCLUDED.instance, '') OR EXCLUDED.instance = '' OR "
        "cuzk_nodes.heartbeat < now() - make_interval(secs => $4) RETURNING node",
        node, array_literal(key_ids), instance, static_cast<double>(live.count()));
    if (!r.empty()) return std::nullopt;
    auto h = w.exec_params(
        "SELECT instance, extract(epoch FROM now() - heartbeat)::float8 FROM cuzk_nodes WHERE node = $1", node);
    return node_holder{h[0][0].as<std::string>(), h[0][1].as<double>()};
  });
}

std::vector<cluster_job> cluster_store::claim(const std::string& node, const std::vector<std::string>& key_ids,
                                              std::uint32_t most, bool streamed) {
  if (!most || key_ids.empty()) return {};
  auto jobs = run([&](pqxx::work& w) {
    auto r = w.exec_params(
        std::string(
            "UPDATE cuzk_jobs SET state = 'claimed', node = $1, claimed = now(), attempts = attempts + 1 "
            "WHERE id IN (SELECT id FROM cuzk_jobs WHERE state = 'queued' AND key_id = ANY($2::text[]) " +
            std::string(streamed ? "" : "AND NOT EXISTS (SELECT 1 FROM cuzk_inputs WHERE job = cuzk_jobs.id) ") +
            "ORDER BY " + std::string(rank_sql) + ", id LIMIT $3 FOR UPDATE SKIP LOCKED) RETURNING ") +
            columns,
        node, array_literal(key_ids), most);
    std::vector<cluster_job> out;
    for (const auto& row : r) out.push_back(job_of(row));
    return out;
  });
  std::sort(jobs.begin(), jobs.end(), [](const auto& a, const auto& b) {
    return std::pair(rank(a.priority), a.id) < std::pair(rank(b.priority), b.id);
  });
  return jobs;
}

bool cluster_store::complete(std::int64_t id, const std::string& node,
                             const std::vector<std::vector<std::uint8_t>>& results, const std::string& digest_hex,
                             std::optional<std::uint32_t> owner_uid) {
  return run([&](pqxx::work& w) {
    auto held = w.exec_params(
        "SELECT owner, digest FROM cuzk_jobs WHERE id = $1 AND node = $2 AND state = 'claimed' "
        "FOR UPDATE",
        id, node);
    if (held.empty()) return false;
    if (!digest_hex.empty() && held[0][1].as<std::string>() != digest_hex) return false;
    if (owner_uid && local_uid_of(held[0][0].as<std::string>()) != owner_uid) return false;
    auto r = w.exec_params(
        "UPDATE cuzk_jobs SET state = 'done', finished = now() WHERE id = $1 AND node = $2 AND state = 'claimed' "
        "RETURNING id",
        id, node);
    for (std::size_t i = 0; i < results.size() && !r.empty(); ++i)
      w.exec_params(
          "INSERT INTO cuzk_proofs (job, part, proof) VALUES ($1, $2, $3) ON CONFLICT (job, part) DO UPDATE "
          "SET proof = EXCLUDED.proof",
          id, static_cast<int>(i), pqxx::binarystring(results[i].data(), results[i].size()));
    if (!r.empty()) w.exec_params("DELETE FROM cuzk_inputs WHERE job = $1", id);  // a finished job's files go now
    if (!r.empty()) w.exec_params("SELECT pg_notify('cuzk_done', $1)", std::to_string(id));
    return !r.empty();
  });
}

bool cluster_store::fail(std::int64_t id, const std::string& node, const std::string& error) {
  return run([&](pqxx::work& w) {
    auto r = w.exec_params(
        "UPDATE cuzk_jobs SET state = 'failed', error = $3, finished = now() "
        "WHERE id = $1 AND node = $2 AND state = 'claimed' RETURNING id",
        id, node, error);
    if (!r.empty()) w.exec_params("DELETE FROM cuzk_inputs WHERE job = $1", id);
    if (!r.empty()) w.exec_params("SELECT pg_notify('cuzk_done', $1)", std::to_string(id));
    return !r.empty();
  });
}

bool cluster_store::cancel(const std::string& owner, const std::string& job_id, const std::string& error) {
  return run([&](pqxx::work& w) {
    auto r = w.exec_params(
        "UPDATE cuzk_jobs SET state = 'failed', error = $3, finished = now() "
        "WHERE owner = $1 AND job_id = $2 AND state IN ('queued', 'claimed') RETURNING id",
        owner, job_id, error);
    if (r.empty()) return false;
    const auto id = r[0][0].as<std::int64_t>();
    w.exec_params("DELETE FROM cuzk_inputs WHERE job = $1", id);
    w.exec_params("SELECT pg_notify('cuzk_done', $1)", std::to_string(id));
    return true;
  });
}

bool cluster_store::unclaim(std::int64_t id, const std::string& node) {
  return run([&](pqxx::work& w) {
    auto r = w.exec_params(
        "UPDATE cuzk_jobs SET state = 'queued', node = NULL, claimed = NULL "
        "WHERE id = $1 AND node = $2 AND state = 'claimed' RETURNING id",
        id, node);
    if (!r.empty()) w.exec("SELECT pg_notify('cuzk_queued', '')");
    return !r.empty();
  });
}

bool cluster_store::reclaim(std::int64_t id, const std::string& node) {
  return run([&](pqxx::work& w) {
    auto r = w.exec_params(
        "UPDATE cuzk_jobs SET state = 'claimed', node = $2, claimed = now() "
        "WHERE id = $1 AND (state = 'queued' OR (state = 'claimed' AND node = $2)) RETURNING id",
        id, node);
    return !r.empty();
  });
}

std::uint32_t cluster_store::release_dead(std::chrono::seconds timeout) {
  return run([&](pqxx::work& w) {
    auto r = w.exec_params(
        "UPDATE cuzk_jobs SET state = 'queued', node = NULL, claimed = NULL "
        "WHERE state = 'claimed' AND node IN "
        "(SELECT node FROM cuzk_nodes WHERE heartbeat < now() - make_interval(secs => $1)) RETURNING id",
        static_cast<double>(timeout.count()));
    if (!r.empty()) w.exec("SELECT pg_notify('cuzk_queued', '')");
    return static_cast<std::uint32_t>(r.size());
  });
}

std::vector<cluster_input> cluster_store::inputs(std::int64_t id) {
  return run([&](pqxx::work& w) {
    std::vector<cluster_input> out;
    for (const auto& row : w.exec_params("SELECT kind, data FROM cuzk_inputs WHERE job = $1 ORDER BY kind", id)) {
      const pqxx::binarystring data(row[1]);
      out.push_back({row[0].as<std::string>(), {data.data(), data.data() + data.size()}});
    }
    return out;
  });
}

std::optional<cluster_job> cluster_store::get(std::int64_t id) {
  return run([&](pqxx::work& w) {
    return job_with_proofs(w, w.exec_params(std::string("SELECT ") + columns + " FROM cuzk_jobs WHERE id = $1", id));
  });
}

std::vector<cluster_job> cluster_store::claimed_by(const std::string& node) {
  return run([&](pqxx::work& w) {
    std::vector<cluster_job> out;
    for (const auto& row : w.exec_params(std::string("SELECT ") + columns +
                                             " FROM cuzk_jobs WHERE state = 'claimed' AND node = $1 ORDER BY " +
                                             std::string(rank_sql) + ", id",
                                         node))
      out.push_back(job_of(row));
    return out;
  });
}

std::vector<cluster_job> cluster_store::list(const std::string& owner, std::uint32_t most) {
  return run([&](pqxx::work& w) {
    std::vector<cluster_job> out;
    for (const auto& row : w.exec_params(
             std::string("SELECT ") + columns + " FROM cuzk_jobs WHERE $1 = '' OR owner = $1 ORDER BY id DESC LIMIT $2",
             owner, most))
      out.push_back(job_of(row));
    return out;
  });
}

std::uint32_t cluster_store::expire(std::chrono::seconds retention) {
  return run([&](pqxx::work& w) {
    auto r = w.exec_params(
        "DELETE FROM cuzk_jobs WHERE state IN ('done', 'failed') AND finished < now() - make_interval(secs => $1) "
        "RETURNING id",
        static_cast<double>(retention.count()));
    return static_cast<std::uint32_t>(r.size());
  });
}

std::vector<std::pair<std::string, std::vector<std::string>>> cluster_store::nodes() {
  return run([&](pqxx::work& w) {
    std::vector<std::pair<std::string, std::vector<std::string>>> out;
    for (const auto& row : w.exec("SELECT node, keys FROM cuzk_nodes ORDER BY node"))
      out.emplace_back(row[0].as<std::string>(), array_values(row[1]));
    return out;
  });
}

std::vector<cluster_node> cluster_store::node_views() {
  return run([&](pqxx::work& w) {
    std::vector<cluster_node> out;
    for (const auto& row :
         w.exec("SELECT n.node, n.instance, n.keys, extract(epoch FROM now() - n.heartbeat)::float8, "
                "(SELECT count(*) FROM cuzk_jobs j WHERE j.state = 'claimed' AND j.node = n.node) FROM cuzk_nodes n "
                "ORDER BY n.node"))
      out.push_back({row[0].as<std::string>(), row[1].as<std::string>(), array_values(row[2]), row[3].as<double>(),
                     row[4].as<std::uint64_t>()});
    return out;
  });
}

std::vector<std::pair<cluster_state, std::uint64_t>> cluster_store::counts() {
  return run([&](pqxx::work& w) {
    std::vector<std::pair<cluster_state, std::uint64_t>> out;
    for (const auto& row : w.exec("SELECT state, count(*) FROM cuzk_jobs GROUP BY state ORDER BY state"))
      out.emplace_back(state_in(row[0]), row[1].as<std::uint64_t>());
    return out;
  });
}

std::optional<cluster_job> cluster_store::find(const std::string& owner, const std::string& job_id) {
  return run([&](pqxx::work& w) {
    return job_with_proofs(
        w, w.exec_params(std::string("SELECT ") + columns + " FROM cuzk_jobs WHERE owner = $1 AND job_id = $2", owner,
                         job_id));
  });
}

}  // namespace cuzk::server
