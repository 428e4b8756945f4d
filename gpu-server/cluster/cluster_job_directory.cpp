#include "cluster/cluster_job_directory.hpp"
#include "requests/critical_refusals.hpp"

#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>

#include "cluster/cluster_names.hpp"
#include "groth16/verifier.hpp"
#include "job/circuit_store.hpp"
#include "job/result.hpp"
#include "proto/codec.hpp"
#include "proto/names.hpp"
#include "proto/rules.hpp"
#include "r1cs/input_file.hpp"
#include "requests/node_job_directory.hpp"
#include "requests/status_jobs.hpp"
#include "util/take_if.hpp"
#include "util/hex.hpp"
#include "util/utf8.hpp"

namespace cuzk::server {

namespace {

/* PostgreSQL holds at most 1 GB in one bytea value. */
constexpr std::uint64_t max_stored_file = 1000ULL << 20;

proto::job_state state_of(cluster_state s) {
  switch (s) {
    case cluster_state::done:
      return proto::job_state::done;
    case cluster_state::failed:
      return proto::job_state::failed;
    case cluster_state::claimed:
      return proto::job_state::running;
    case cluster_state::queued:
      break;
  }
  return proto::job_state::queued;
}

}  // namespace

std::string cluster_job_directory::owner_of(const peer& p) {
  return p.network() ? "net:" + p.name : "uid:" + std::to_string(p.cred.uid);
}

std::string cluster_job_directory::owner_named(const peer& p, std::optional<std::uint32_t> owner_uid) const {
  if (owner_uid && (*owner_uid == p.cred.uid || c_.opt.is_operator(p.cred.uid)) && !p.network())
    return "uid:" + std::to_string(*owner_uid);
  return owner_uid && *owner_uid != p.cred.uid ? std::string() : owner_of(p);  // another's job: none of yours
}

void cluster_job_directory::record(const submission& sub, prepared r, std::function<void(recorded)> done) {
  const auto& [p, rq, s, digest, files] = sub;
  const auto stored = [done = std::move(done)](bool stored, bool created) { done(recorded{created, stored, {}}); };
  cluster_job j;
  j.owner = owner_of(p);
  j.job_id = s.job_id;
  j.digest_hex = util::to_hex(digest);
  // An installed circuit's job is queued under the circuit's id (its key and generator): only the nodes where
  // that very circuit is installed claim it.
  j.key_id = r.circuit_id.empty() ? r.key_id : r.circuit_id;
  j.client = s.client;
  j.priority = s.priority;
  j.curve = static_cast<int>(r.pk->curve);
  j.partitions = s.partitions;
  // What another node needs to prove it: the request with the key by id and
  // its files by kind, their bytes in cuzk_inputs: the client's uploads, and
  // the files it named by path as this node opened them under its identity.
  // No node ever opens a client's path for a job it claimed.
  proto::submit request = s;
  if (!std::holds_alternative<proto::installed_work>(request.work))
    request.zkey = r.key_id;  // an installed circuit is named, with its inputs: each node finds its key
  struct source {
    std::string kind, path;             // path: the spool file, or the client's (for errors)
    std::shared_ptr<opened_file> file;  // the client's file, opened under its identity; null: the spool file
  };
  std::vector<source> sources;
  auto streamed = [&](proto::upload_kind kind, const std::string& path, std::shared_ptr<opened_file> f) {
    sources.push_back({std::string(proto::name(kind)), path, std::move(f)});
    return std::string(proto::upload_prefix) + std::string(proto::name(kind));
  };
  if (auto* w = std::get_if<proto::circom_work>(&request.work)) {
    w->wtns = streamed(proto::upload_kind::wtns, files.wtns.value_or(w->wtns), files.wtns ? nullptr : r.wtns_file);
    if (w->r1cs)
      w->r1cs = streamed(proto::upload_kind::r1cs, files.r1cs.value_or(*w->r1cs), files.r1cs ? nullptr : r.r1cs_file);
  }
  for (const auto& in : sources) {
    std::uint64_t size = 0;
    struct stat st {};
    if (in.file)
      size = ::fstat(in.file->fd(), &st) == 0 ? static_cast<std::uint64_t>(st.st_size) : 0;
    else {
      std::error_code ec;
      size = std::filesystem::file_size(in.path, ec);
      if (ec) size = 0;
    }
    if (size > max_stored_file) {
      c_.out.reply_error(p.to(), rq, proto::error_code::too_large,
                         "a cluster keeps a job's witness files in its database, at most " +
                             std::to_string(max_stored_file >> 20) + " MiB each; this " + in.kind + " file is " +
                             std::to_string(size >> 20) + " MiB");
      return stored(false, false);
    }
  }
  const auto encoded = proto::encode(proto::message{0, request});
  j.spec = util::to_hex(encoded);
  c_.link.call<cluster_submit_outcome>(
      [j, sources, most = c_.opt.max_jobs_per_client, critical = c_.opt.critical.max_per_client,
       bytes = c_.opt.uploads.max_bytes_per_client,
       critical_parts = c_.opt.critical.max_partitions_per_client](cluster_store& db) {
        std::vector<cluster_input> inputs;
        for (const auto& in : sources)
          inputs.push_back({in.kind, in.file ? r1cs::input_file(::dup(in.file->fd()), in.path, in.kind).read_all()
                                             : r1cs::read_whole_file(in.path, in.kind)});
        return db.submit(j, inputs, most, critical, bytes, critical_parts);
      },
      [this, to = p.to(), rq, job_id = s.job_id, uid = p.cred.uid, partitions = s.partitions,
       stored](util::expected<cluster_submit_outcome, std::string> out) {
        if (!out) {
          c_.out.reply_error(to, rq, proto::error_code::unavailable,
                             "the cluster database cannot take the job now (" + out.error() + "); retry");
          return stored(false, false);
        }
        if (out->busy)
          ++(out->stored_full ? c_.counts.refused_files
             : out->critical  ? c_.counts.refused_critical
                              : c_.counts.refused_jobs);
        if (out->busy && out->stored_full) {
          c_.out.reply_error(to, rq, proto::error_code::busy,
                             "your unfinished jobs keep " + std::to_string(out->stored_bytes >> 20) +
                                 " MiB of files in the cluster database, the limit per client is " +
                                 std::to_string(c_.opt.uploads.max_bytes_per_client >> 20) +
                                 " MiB (--max-spool-per-client); wait for some");
          return stored(false, false);
        }
        if (out->busy && out->critical_partitions) {
          c_.out.reply_error(to, rq, proto::error_code::busy,
                             critical_refusal_text(too_many_critical_partitions(
                                 partitions, *out->critical_partitions, c_.opt.critical.max_partitions_per_client)));
          return stored(false, false);
        }
        if (out->busy && out->critical) {
          c_.out.reply_error(to, rq, proto::error_code::busy,
                             critical_refusal_text(too_many_critical_jobs(
                                 out->unfinished, c_.opt.critical.max_per_client, " in the cluster")));
          return stored(false, false);
        }
        if (out->busy) {
          c_.out.reply_error(to, rq, proto::error_code::busy,
                             "you hold " + std::to_string(out->unfinished) +
                                 " unfinished jobs in the cluster, the limit per " + "client is " +
                                 std::to_string(c_.opt.max_jobs_per_client) + "; wait for some");
          return stored(false, false);
        }
        if (out->conflict) {
          c_.out.reply_error(to, rq, proto::error_code::conflict,
                             "job " + job_id + " was submitted before with a different request; choose another job id");
          return stored(false, false);
        }
        if (out->created)
          spdlog::info("job {} of uid {} accepted into the cluster as job {}", util::printable(job_id), uid, out->id);
        c_.out.send(to, proto::message{rq, proto::accepted{job_id, out->created, state_of(out->state)}});
        stored(true, out->created);
      });
}

void cluster_job_directory::refuse(const submission& sub, const std::string& why, proto::error_code code) {
  const auto& [p, rq, s, digest, files] = sub;
  if (!admit(p, rq)) return;
  const auto digest_hex = util::to_hex(digest);
  look_up(
      p.cred.uid,
      [owner = owner_of(p), job_id = s.job_id](cluster_store& db) {
        return answer{db.find(owner, job_id), {}, {}};
      },
      [this, to = p.to(), rq, job_id = s.job_id, digest_hex, why, code](util::expected<answer, std::string> a) {
        if (!a) return unavailable(to, rq, a.error());
        if (!a->job) return c_.out.reply_error(to, rq, code, why);
        if (a->job->digest_hex != digest_hex)
          return c_.out.reply_error(
              to, rq, proto::error_code::conflict,
              "job " + job_id + " was submitted before with a different request; choose another job id");
        c_.out.send(to, proto::message{rq, proto::accepted{job_id, false, state_of(a->job->state)}});
      });
}

void cluster_job_directory::unavailable(const address& to, std::uint64_t rq, const std::string& why) {
  c_.out.reply_error(to, rq, proto::error_code::unavailable, "the cluster database: " + why);
}

bool cluster_job_directory::admit(const peer& p, std::uint64_t rq) {
  const unsigned most = std::max(4u, c_.opt.max_fetches_per_client);
  if (in_flight_[p.cred.uid] < most) return true;
  c_.out.reply_error(
      p.to(), rq, proto::error_code::busy,
      "you have " + std::to_string(most) + " requests waiting for the cluster database; retry when they are answered");
  return false;
}

void cluster_job_directory::look_up(uid_t uid, std::function<answer(cluster_store&)> f,
                                    std::function<void(util::expected<answer, std::string>)> done) {
  ++in_flight_[uid];
  c_.link.call<answer>(std::move(f), [this, uid, done = std::move(done)](util::expected<answer, std::string> a) {
    if (--in_flight_[uid] == 0) in_flight_.erase(uid);
    done(std::move(a));
  });
}

proto::job_status cluster_job_directory::status_of(const cluster_job& j) const {
  proto::job_status st;
  st.job_id = j.job_id;
  st.state = state_of(j.state);
  st.error = util::printable(j.error, proto::max_error_bytes, true);
  st.submitted_ns = j.submitted_ns;
  st.finished_ns = j.finished_ns;
  st.priority = j.priority;
  st.client = util::printable(j.client, proto::max_client_bytes);
  st.curve = curves::valid_curve_id(static_cast<std::uint8_t>(j.curve)) ? curves::curve_id(j.curve)
                                                                        : curves::curve_id::bls12_381;
  // Proven here: the partitions' detail from this node's table.
  if (j.state == cluster_state::claimed && j.node == c_.opt.cluster.node)
    if (auto ref = c_.jobs.find(local_job_id(j.id, j.attempts), std::nullopt))
      if (auto rec = c_.jobs.get(*ref); rec && cluster_id_of(**rec)) {
        st.partitions = job_status_of(**rec, c_.slots).partitions;
        return st;
      }
  for (std::uint32_t i = 0; i < std::clamp<std::uint32_t>(j.partitions, 1, 16); ++i) {
    proto::partition_status ps;
    ps.state = j.state == cluster_state::done     ? proto::partition_state::done
               : j.state == cluster_state::failed ? proto::partition_state::failed
                                                  : proto::partition_state::queued;
    st.partitions.push_back(ps);
  }
  return st;
}

bool cluster_job_directory::answer_finished(const address& to, std::uint64_t rq, const answer& a) {
  if (!a.job) return false;
  if (a.job->state == cluster_state::failed) {
    c_.out.send(to, proto::message{rq, status_of(*a.job)});
    return true;
  }
  if (a.job->state != cluster_state::done) return false;
  if (!a.error.empty()) {
    if (a.altered) {
      ++c_.counts.proofs_refused;
      spdlog::warn("{}", util::printable(a.error));
    }
    c_.out.reply_error(to, rq, proto::error_code::internal, a.error);
  } else if (a.proofs)
    c_.out.send(to, proto::message{rq, *a.proofs});
  else
    return false;
  return true;
}

cluster_job_directory::vk_map cluster_job_directory::vks_now() {
  // An installed circuit's jobs are queued under the circuit's id: its key's vk under that id too.
  const auto circuits = job::list_circuits(c_.opt.pool);
  auto ids = c_.keys.held();
  for (const auto& c : circuits) ids.push_back(c.key_id);
  for (const auto& id : ids) {
    if (vks_.count(id)) continue;
    auto pk = c_.keys.loaded(id);
    if (!pk && asked_.insert(id).second) pk = c_.keys.ready(id);  // loads it once, if it is not in memory
    if (pk)
      pk.visit([&](const auto& k) {
        using C = typename std::remove_cvref_t<decltype(k)>::curve;
        vks_[id] = std::make_shared<const groth16::basic_verifying_key<C>>(k.vk());
      });
  }
  for (const auto& c : circuits)
    if (auto vk = vks_.find(c.key_id); vk != vks_.end()) vks_.try_emplace(c.id, vk->second);
  return vks_;
}

cluster_job_directory::answer cluster_job_directory::answer_of(std::optional<cluster_job> j, const vk_map& vks) {
  answer a;
  a.job = std::move(j);
  if (!a.job || a.job->state != cluster_state::done) return a;
  proto::proof_reply pr;
  pr.job_id = a.job->job_id;
  const auto vk = vks.find(a.job->key_id);
  if (vk == vks.end()) {
    a.error = "job " + pr.job_id + ": this node does not hold its key " + a.job->key_id +
              " (or is loading it) to verify the stored proof; retry, or ask a node that holds it";
    return a;
  }
  for (std::size_t i = 0; i < a.job->results.size(); ++i) {
    try {
      const std::span<const std::uint8_t> stored = a.job->results[i];
      const bool verifies = std::visit(
          [](const auto& r, const auto& v) -> bool {
            using R = std::remove_cvref_t<decltype(r)>;
            using V = std::remove_const_t<typename std::remove_cvref_t<decltype(v)>::element_type>;
            if constexpr (std::is_same_v<R, job::basic_result<curves::bls12_381>> !=
                          std::is_same_v<V, groth16::basic_verifying_key<curves::bls12_381>>)
              return false;  // another curve's proof
            else
              return r.public_signals.size() + 1 == v->ic.size() &&
                     groth16::verify<typename V::curve>(*v, r.public_signals, r.proof);
          },
          job::decode_result(stored), vk->second);
      if (!verifies) {
        a.altered = true;
        throw std::runtime_error("the proof the cluster database holds for partition " + std::to_string(i) +
                                 " does not verify under its key; it was altered there");
      }
      auto res = job::result_to_json(stored);
      pr.partitions.push_back({std::move(res.proof), std::move(res.public_signals), std::nullopt});
    } catch (const std::exception& e) {
      a.error = "job " + pr.job_id + ": " + e.what();
      return a;
    }
  }
  a.proofs = std::move(pr);
  return a;
}

void cluster_job_directory::status(const peer& p, std::uint64_t rq, const proto::status_request& s) {
  if (s.cluster) return cluster(p, rq);
  if (!admit(p, rq)) return;
  const auto to = p.to();
  if (s.job_id) {
    const auto owner = owner_named(p, s.owner_uid);
    look_up(
        p.cred.uid,
        [owner, job_id = *s.job_id](cluster_store& db) {
          answer a;
          if (!owner.empty()) a.job = db.find(owner, job_id);
          return a;
        },
        [this, to, rq, job_id = *s.job_id](util::expected<answer, std::string> a) {
          if (!a) return unavailable(to, rq, a.error());
          if (!a->job) return c_.out.reply_error(to, rq, proto::error_code::unknown_job, "no job " + job_id);
          c_.out.send(to, proto::message{rq, status_of(*a->job)});
        });
    return;
  }
  const bool all = c_.opt.is_operator(p.cred.uid) && !p.network();
  const auto owner = all ? std::string() : owner_of(p);
  auto jobs = std::make_shared<std::vector<cluster_job>>();
  look_up(
      p.cred.uid,
      [owner, jobs](cluster_store& db) {
        *jobs = db.list(owner, 512);
        return answer{};
      },
      [this, to, rq, all, jobs](util::expected<answer, std::string> a) {
        if (!a) return unavailable(to, rq, a.error());
        proto::status_reply st;
        add_jobs(st, jobs->size(), [&](std::size_t i) { return std::optional(status_of((*jobs)[i])); });
        c_.node.describe(st, all);
        c_.out.send(to, proto::message{rq, std::move(st)});
      });
}

void cluster_job_directory::cluster(const peer& p, std::uint64_t rq) {
  if (!admit(p, rq)) return;
  const bool all = c_.opt.is_operator(p.cred.uid) && !p.network();
  auto nodes = std::make_shared<std::vector<cluster_node>>();
  auto queued = std::make_shared<std::uint64_t>(0);
  look_up(
      p.cred.uid,
      [nodes, queued](cluster_store& db) {
        *nodes = db.node_views();
        for (const auto& [state, n] : db.counts())
          if (state == cluster_state::queued) *queued = n;
        return answer{};
      },
      [this, to = p.to(), rq, all, nodes, queued](util::expected<answer, std::string> a) {
        proto::cluster_view v;
        v.node = util::printable(c_.opt.cluster.node, proto::max_node_name_bytes);
        v.database_up = a.has_value();
        if (!a) v.database_error = util::printable(a.error(), proto::max_error_bytes, true);
        v.dead_after_ms = static_cast<std::uint64_t>(std::chrono::milliseconds(c_.opt.cluster.dead_after).count());
        v.queued = static_cast<std::uint32_t>(std::min<std::uint64_t>(*queued, UINT32_MAX));
        for (const auto& n : *nodes) {
          if (v.nodes.size() == proto::max_cluster_nodes) break;
          proto::cluster_node_status ns;
          ns.name = util::printable(n.name, proto::max_node_name_bytes);
          ns.heartbeat_age_ms = static_cast<std::uint64_t>(std::max(0.0, n.silent_s) * 1000);
          ns.alive = ns.heartbeat_age_ms <= v.dead_after_ms;
          ns.claims = static_cast<std::uint32_t>(std::min<std::uint64_t>(n.claims, UINT32_MAX));
          ns.keys = static_cast<std::uint32_t>(n.keys.size());
          if (all)  // key ids are the operator's, as in the node's own status
            for (const auto& k : n.keys)
              if (ns.key_ids.size() < proto::max_cluster_node_keys &&
                  !proto::check_token("", k, proto::max_key_id_bytes))
                ns.key_ids.push_back(k);
          v.nodes.push_back(std::move(ns));
        }
        proto::status_reply st;
        st.cluster = std::move(v);
        c_.out.send(to, proto::message{rq, std::move(st)});
      });
}

void cluster_job_directory::fetch(const peer& p, std::uint64_t rq, const proto::fetch& f) {
  if (!admit(p, rq)) return;
  const auto owner = owner_named(p, f.owner_uid);
  look_up(
      p.cred.uid,
      [owner, job_id = f.job_id, vks = vks_now()](cluster_store& db) {
        return owner.empty() ? answer{} : answer_of(db.find(owner, job_id), vks);
      },
      [this, to = p.to(), rq, job_id = f.job_id](util::expected<answer, std::string> a) {
        if (!a) return unavailable(to, rq, a.error());
        if (!a->job) return c_.out.reply_error(to, rq, proto::error_code::unknown_job, "no job " + job_id);
        if (!answer_finished(to, rq, *a)) c_.out.send(to, proto::message{rq, status_of(*a->job)});
      });
}

// In the database: a queued or claimed job fails; the node holding a claim learns it when its result is refused
// (its claim is no longer there) and drops it.
void cluster_job_directory::cancel(const peer& p, std::uint64_t rq, const proto::cancel_request& c) {
  if (!admit(p, rq)) return;
  const auto owner = owner_named(p, c.owner_uid);
  look_up(
      p.cred.uid,
      [owner, job_id = c.job_id](cluster_store& db) {
        if (owner.empty()) return answer{};
        (void)db.cancel(owner, job_id, cancelled_text);
        answer a;
        a.job = db.find(owner, job_id);
        return a;
      },
      [this, to = p.to(), rq, job_id = c.job_id](util::expected<answer, std::string> a) {
        if (!a) return unavailable(to, rq, a.error());
        if (!a->job) return c_.out.reply_error(to, rq, proto::error_code::unknown_job, "no job " + job_id);
        c_.out.send(to, proto::message{rq, status_of(*a->job)});
      });
}

void cluster_job_directory::wait(const peer& p, std::uint64_t rq, const proto::wait_request& w) {
  if (!admit(p, rq)) return;
  const auto owner = owner_named(p, w.owner_uid);
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(w.timeout_ms);
  look_up(
      p.cred.uid,
      [owner, job_id = w.job_id, vks = vks_now()](cluster_store& db) {
        return owner.empty() ? answer{} : answer_of(db.find(owner, job_id), vks);
      },
      [this, to = p.to(), uid = p.cred.uid, rq, job_id = w.job_id, deadline](util::expected<answer, std::string> a) {
        if (!a) return unavailable(to, rq, a.error());
        if (!a->job) return c_.out.reply_error(to, rq, proto::error_code::unknown_job, "no job " + job_id);
        if (answer_finished(to, rq, *a)) return;
        const auto pending =
            std::count_if(waiters_.begin(), waiters_.end(), [&](const waiter& x) { return x.uid == uid; });
        if (static_cast<std::uint64_t>(pending) >= c_.opt.max_waits_per_client)
          return c_.out.reply_error(to, rq, proto::error_code::busy,
                                    "you have " + std::to_string(pending) + " pending waits, the limit per client is " +
                                        std::to_string(c_.opt.max_waits_per_client));
        waiters_.push_back({to, uid, rq, a->job->id, deadline});
      });
}

void cluster_job_directory::recheck(const std::vector<waiter>& ws) {
  for (const auto& w : ws)
    look_up(
        w.uid, [id = w.id, vks = vks_now()](cluster_store& db) { return answer_of(db.get(id), vks); },
        [this, w](util::expected<answer, std::string> a) {
          if (a && !a->job)
            return c_.out.reply_error(w.to, w.request_id, proto::error_code::unknown_job, "the job is no longer known");
          if (a && answer_finished(w.to, w.request_id, *a)) return;
          waiters_.push_back(w);  // still running, or the database is away: its deadline answers it
        });
}

void cluster_job_directory::job_finished(std::int64_t id) {
  recheck(util::take_if(waiters_, [&](const waiter& w) { return w.id == id; }));
}

void cluster_job_directory::resync() {
  std::vector<waiter> all;
  all.swap(waiters_);
  recheck(all);
}

std::size_t cluster_job_directory::closed(const std::string& identity, channel via) {
  return std::erase_if(waiters_, [&](const waiter& w) { return w.to.via == via && w.to.identity == identity; });
}

void cluster_job_directory::expire_waits() {
  const auto now = std::chrono::steady_clock::now();
  for (const auto& w : util::take_if(waiters_, [&](const waiter& w) { return w.deadline <= now; }))
    look_up(
        w.uid,
        [id = w.id](cluster_store& db) {
          return answer{db.get(id), std::nullopt, {}};
        },
        [this, w](util::expected<answer, std::string> a) {
          if (!a) return unavailable(w.to, w.request_id, a.error());
          if (!a->job)
            return c_.out.reply_error(w.to, w.request_id, proto::error_code::unknown_job, "the job is no longer known");
          c_.out.send(w.to, proto::message{w.request_id, status_of(*a->job)});
        });
}

}  // namespace cuzk::server
