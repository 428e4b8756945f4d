#include "cluster_store.hpp"

#include <pqxx/pqxx>

#include <algorithm>

namespace cuzk::server {

namespace {

/* A text[] literal of values that need no quoting (key ids are hex, results hex). */
std::string array_literal(const std::vector<std::string>& v) {
  std::string s = "{";
  for (std::size_t i = 0; i < v.size(); ++i) s += (i ? "," : "") + v[i];
  return s + "}";
}

std::vector<std::string> array_values(const pqxx::field& f) {
  std::vector<std::string> out;
  if (f.is_null()) return out;
  auto parser = f.as_array();
  for (auto [kind, value] = parser.get_next(); kind != pqxx::array_parser::done; std::tie(kind, value) = parser.get_next())
    if (kind == pqxx::array_parser::string_value) out.push_back(value);
  return out;
}

cluster_job job_of(const pqxx::row& r) {
  cluster_job j;
  j.id = r["id"].as<std::int64_t>();
  j.owner = r["owner"].as<std::string>();
  j.job_id = r["job_id"].as<std::string>();
  j.digest_hex = r["digest"].as<std::string>();
  j.key_id = r["key_id"].as<std::string>();
  j.spec = r["spec"].as<std::string>();
  j.priority = r["priority"].as<int>();
  j.partitions = r["partitions"].as<std::uint32_t>();
  j.state = r["state"].as<std::string>();
  j.node = r["node"].is_null() ? "" : r["node"].as<std::string>();
  j.attempts = r["attempts"].as<std::uint32_t>();
  j.error = r["error"].is_null() ? "" : r["error"].as<std::string>();
  j.results_hex = array_values(r["results"]);
  return j;
}

constexpr const char* columns = "id, owner, job_id, digest, key_id, spec, priority, partitions, state, node, attempts, error, results";

}  // namespace

struct cluster_store::session {
  explicit session(const std::string& conninfo) : c(conninfo) {}
  pqxx::connection c;
};

cluster_store::cluster_store(std::string conninfo) : conninfo_(std::move(conninfo)) {}
cluster_store::~cluster_store() = default;

cluster_store::session& cluster_store::open() {
  if (!session_ || !session_->c.is_open()) {
    try {
      session_ = std::make_unique<session>(conninfo_);
    } catch (const std::exception& e) {
      session_.reset();
      throw store_unavailable(std::string("the cluster database is unreachable: ") + e.what());
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
    w.exec(R"sql(
      CREATE TABLE IF NOT EXISTS cuzk_nodes (
        node text PRIMARY KEY,
        heartbeat timestamptz NOT NULL DEFAULT now(),
        keys text[] NOT NULL DEFAULT '{}')
    )sql");
    w.exec(R"sql(
      CREATE TABLE IF NOT EXISTS cuzk_jobs (
        id bigserial PRIMARY KEY,
        owner text NOT NULL,
        job_id text NOT NULL,
        digest text NOT NULL,
        key_id text NOT NULL,
        spec text NOT NULL,
        priority smallint NOT NULL,
        partitions integer NOT NULL,
        submitted timestamptz NOT NULL DEFAULT now(),
        state text NOT NULL DEFAULT 'queued' CHECK (state IN ('queued', 'claimed', 'done', 'failed')),
        node text,
        claimed timestamptz,
        attempts integer NOT NULL DEFAULT 0,
        error text,
        results text[],
        finished timestamptz,
        UNIQUE (owner, job_id))
    )sql");
    w.exec("CREATE INDEX IF NOT EXISTS cuzk_jobs_queued ON cuzk_jobs (priority, id) WHERE state = 'queued'");
  });
}

cluster_submit_outcome cluster_store::submit(const cluster_job& j) {
  return run([&](pqxx::work& w) {
    auto r = w.exec_params(
        "INSERT INTO cuzk_jobs (owner, job_id, digest, key_id, spec, priority, partitions) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (owner, job_id) DO NOTHING RETURNING id",
        j.owner, j.job_id, j.digest_hex, j.key_id, j.spec, j.priority, j.partitions);
    if (!r.empty()) return cluster_submit_outcome{r[0][0].as<std::int64_t>(), true, false};
    auto known = w.exec_params("SELECT id, digest FROM cuzk_jobs WHERE owner = $1 AND job_id = $2", j.owner, j.job_id);
    const bool same = known[0][1].as<std::string>() == j.digest_hex;
    return cluster_submit_outcome{known[0][0].as<std::int64_t>(), false, !same};
  });
}

void cluster_store::heartbeat(const std::string& node, const std::vector<std::string>& key_ids) {
  run([&](pqxx::work& w) {
    w.exec_params(
        "INSERT INTO cuzk_nodes (node, heartbeat, keys) VALUES ($1, now(), $2::text[]) "
        "ON CONFLICT (node) DO UPDATE SET heartbeat = now(), keys = EXCLUDED.keys",
        node, array_literal(key_ids));
  });
}

std::vector<cluster_job> cluster_store::claim(const std::string& node, const std::vector<std::string>& key_ids,
                                              std::uint32_t most) {
  if (!most || key_ids.empty()) return {};
  auto jobs = run([&](pqxx::work& w) {
    auto r = w.exec_params(std::string(
                               "UPDATE cuzk_jobs SET state = 'claimed', node = $1, claimed = now(), attempts = attempts + 1 "
                               "WHERE id IN (SELECT id FROM cuzk_jobs WHERE state = 'queued' AND key_id = ANY($2::text[]) "
                               "ORDER BY priority, id LIMIT $3 FOR UPDATE SKIP LOCKED) RETURNING ") +
                               columns,
                           node, array_literal(key_ids), most);
    std::vector<cluster_job> out;
    for (const auto& row : r) out.push_back(job_of(row));
    return out;
  });
  std::sort(jobs.begin(), jobs.end(), [](const auto& a, const auto& b) {
    return std::pair(a.priority, a.id) < std::pair(b.priority, b.id);
  });
  return jobs;
}

bool cluster_store::complete(std::int64_t id, const std::string& node, const std::vector<std::string>& results_hex) {
  return run([&](pqxx::work& w) {
    auto r = w.exec_params(
        "UPDATE cuzk_jobs SET state = 'done', results = $3::text[], finished = now() "
        "WHERE id = $1 AND node = $2 AND state = 'claimed' RETURNING id",
        id, node, array_literal(results_hex));
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
    if (!r.empty()) w.exec_params("SELECT pg_notify('cuzk_done', $1)", std::to_string(id));
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
    return static_cast<std::uint32_t>(r.size());
  });
}

std::optional<cluster_job> cluster_store::find(const std::string& owner, const std::string& job_id) {
  return run([&](pqxx::work& w) -> std::optional<cluster_job> {
    auto r = w.exec_params(std::string("SELECT ") + columns + " FROM cuzk_jobs WHERE owner = $1 AND job_id = $2", owner,
                           job_id);
    if (r.empty()) return std::nullopt;
    return job_of(r[0]);
  });
}

}  // namespace cuzk::server
