#include "cluster/cluster_claims.hpp"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <map>

#include "cluster/cluster_names.hpp"
#include "job/circuit_store.hpp"
#include "requests/preparation.hpp"
#include "proto/codec.hpp"
#include "proto/names.hpp"
#include "util/fd_guard.hpp"
#include "util/hex.hpp"
#include "util/utf8.hpp"

namespace cuzk::server {

namespace {

/* The request a cluster job row holds (cluster_job_directory::record). */
std::optional<proto::submit> request_of(const cluster_job& j) {
  auto bytes = util::from_hex(j.spec);
  if (!bytes) return std::nullopt;
  auto m = proto::decode({reinterpret_cast<const std::uint8_t*>(bytes->data()), bytes->size()});
  if (!m) return std::nullopt;
  if (const auto* s = std::get_if<proto::submit>(&m->body)) return *s;
  return std::nullopt;
}

void write_file(const std::filesystem::path& path, std::span<const std::uint8_t> bytes) {
  util::fd_guard fd{::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC | O_NOFOLLOW, 0600)};
  std::size_t done = 0;
  while (fd.fd >= 0 && done < bytes.size()) {
    const auto n = ::write(fd.fd, bytes.data() + done, bytes.size() - done);
    if (n <= 0) break;
    done += static_cast<std::size_t>(n);
  }
  if (fd.fd < 0 || done != bytes.size())
    throw std::runtime_error("cannot write " + path.string() + ": " + std::strerror(errno));
}

}  // namespace

cluster_claims::cluster_claims(context c, std::function<void()> dispatch, std::function<void()> reconciled,
                               std::function<void(const std::string&)> refused)
    : c_(c),
      dispatch_(std::move(dispatch)),
      reconciled_(std::move(reconciled)),
      refused_(std::move(refused)),
      witness_files_({}, "witness") {}  // no directory: a claimed job's files are its bytes, never a path

void cluster_claims::note_database(bool up, const std::string& why) {
  if (up && !database_up_) spdlog::info("cluster database: reachable again");
  if (!up && database_up_) spdlog::warn("cluster database: {}; this node keeps proving what it holds", why);
  database_up_ = up;
  database_error_ = up ? std::string() : why;
  if (!up)
    up_since_.reset();
  else if (!up_since_)
    up_since_ = std::chrono::steady_clock::now();
}

void cluster_claims::tick() {
  const auto now = std::chrono::steady_clock::now();
  if (now - last_beat_ >= c_.opt.cluster.heartbeat) beat();
  // While the database is away only the heartbeat tries it (the claims would fail the same way).
  if (database_up_ && now - last_poll_ >= c_.opt.cluster.poll) claim_more();
}

std::uint32_t cluster_claims::room() const {
  std::uint64_t busy = 0;
  c_.jobs.for_each([&](shm::job_ref, const shm::job_record& rec) {
    if (shm::job_word_state(rec) != shm::job_state::active) return;
    for (std::uint32_t p = 0; p < rec.n_partitions; ++p) {
      const auto s = shm::part_word::unpack(rec.parts[p].word.load(std::memory_order_acquire)).state;
      busy += s == shm::part_state::queued || s == shm::part_state::slotted;
    }
  });
  busy += taking_.size();
  const std::uint64_t slots = c_.slots.size();
  return static_cast<std::uint32_t>(busy >= slots ? 0 : slots - busy);
}

void cluster_claims::claim_more() {
  last_poll_ = std::chrono::steady_clock::now();
  if (claiming_ || !named_ || c_.loop.stopping || !c_.loop.accepting) return;
  const auto free = room();
  auto keys = c_.keys.held();
  for (const auto& c : job::list_circuits(c_.opt.pool)) keys.push_back(c.id);  // jobs queued under a circuit's id
  if (!free || keys.empty()) return;
  const std::uint32_t most = std::min<std::uint32_t>(free, 4);
  claiming_ = true;
  c_.link.call<std::vector<cluster_job>>(
      // A node without a spool cannot take streamed files: it leaves those jobs to nodes that can.
      [node = c_.opt.cluster.node, keys = std::move(keys), most, streamed = c_.spool.enabled()](cluster_store& db) {
        return db.claim(node, keys, most, streamed);
      },
      [this, most](util::expected<std::vector<cluster_job>, std::string> r) {
        claiming_ = false;
        if (!r) return note_database(false, r.error());
        note_database(true, {});
        for (const auto& j : *r) {
          spdlog::info("cluster job {} ({} of {}) claimed", j.id, util::printable(j.job_id), util::printable(j.owner));
          take_in(j);
        }
        if (r->size() == most) claim_more();  // more may wait
      });
}

void cluster_claims::beat() {
  last_beat_ = std::chrono::steady_clock::now();
  if (beating_) return;
  beating_ = true;
  std::vector<std::int64_t> held;  // the cluster jobs this node's table holds unfinished
  c_.jobs.for_each([&](shm::job_ref, const shm::job_record& rec) {
    if (shm::job_word_state(rec) != shm::job_state::active) return;
    if (auto id = cluster_id_of(rec)) held.push_back(*id);
  });
  const auto& o = c_.opt;
  const bool judge = up_since_ && last_beat_ - *up_since_ >= o.cluster.dead_after;
  auto holder = std::make_shared<std::optional<node_holder>>();
  c_.link.call<std::vector<cluster_job>>(
      [node = o.cluster.node, instance = o.cluster.instance, keys = c_.keys.held(), dead = o.cluster.dead_after,
       retention = o.retention, held = std::move(held), judge, holder](cluster_store& db) {
        // Another live node under this name: nothing of its is touched (its claims look like this node's).
        if ((*holder = db.heartbeat(node, keys, instance, dead))) return std::vector<cluster_job>{};
        if (judge)
          if (auto n = db.release_dead(dead))
            spdlog::warn("cluster: {} job(s) of silent nodes returned to the queue", n);
        db.expire(retention);
        for (auto id : held) db.reclaim(id, node);  // still ours, or ours again if nobody took it
        return db.claimed_by(node);
      },
      [this, holder](util::expected<std::vector<cluster_job>, std::string> r) {
        beating_ = false;
        if (!r) return note_database(false, r.error());
        note_database(true, {});
        if (*holder) {
          named_ = false;
          const auto& h = **holder;
          char age[32];
          std::snprintf(age, sizeof age, "%.1f", h.silent_s);
          const auto why = "cluster node name " + c_.opt.cluster.node + " is in use by a live node (" + h.instance +
                           ", last heartbeat " + age +
                           " s ago); give this node a name of its own with --cluster-node, "
                           "or start it once that node has been silent for --cluster-dead-after (" +
                           std::to_string(c_.opt.cluster.dead_after.count()) + " s)";
          if (refused_) refused_(why);
          return;
        }
        const bool first = !std::exchange(named_, true);
        reconcile(*r);
        if (reconciled_) std::exchange(reconciled_, nullptr)();
        // Finished jobs whose report the database missed are sent again.
        c_.jobs.for_each([&](shm::job_ref j, const shm::job_record&) { report(j); });
        if (first) claim_more();
      });
}

void cluster_claims::reconcile(const std::vector<cluster_job>& mine) {
  std::set<std::int64_t> ids;
  for (const auto& j : mine) ids.insert(j.id);
  std::set<std::int64_t> here;
  c_.jobs.for_each([&](shm::job_ref ref, const shm::job_record& rec) {
    auto id = cluster_id_of(rec);
    if (!id) return;
    const auto st = shm::job_word_state(rec);
    if (st == shm::job_state::active && !ids.count(*id) && !taking_.count(*id)) {
      spdlog::warn("cluster job {}: another node holds it now; dropped here", *id);
      (void)c_.jobs.fail_job(ref, "the cluster gave this job to another node");
      c_.queue.drop(ref);
      c_.jobs.mark_fetched(ref);
      return;
    }
    if (st == shm::job_state::active || ((st == shm::job_state::done || st == shm::job_state::failed) && !rec.fetched))
      here.insert(*id);
  });
  for (const auto& j : mine)
    if (!here.count(j.id) && !taking_.count(j.id) && !reporting_.count(j.id)) {
      spdlog::info("cluster job {} is claimed by this node but not in its pool; preparing it again", j.id);
      take_in(j);
    }
}

void cluster_claims::take_in(const cluster_job& j) {
  auto request = request_of(j);
  if (!request) return give_up(j.id, "the cluster database holds a request this node cannot decode", true);
  // The request names its files by kind ("upload:wtns", "upload:r1cs": cluster_job_directory::record); a path
  // (a row an older node recorded) is never opened here with the service's rights for another node's client.
  if (const auto* w = std::get_if<proto::circom_work>(&request->work))
    for (const auto* f : {&w->wtns, w->r1cs ? &*w->r1cs : nullptr})
      if (f && !f->starts_with(proto::upload_prefix))
        return give_up(j.id,
                       "its witness was named by a path on the node that accepted it, and a node opens no client's "
                       "path for another node; submit it again",
                       true);
  const auto streamed = named_uploads(*request);
  if (!streamed.empty() && !c_.spool.enabled())
    return give_up(j.id, "node " + c_.opt.cluster.node + " keeps no spool (--spool-dir) for streamed witnesses", false);
  taking_.insert(j.id);
  std::vector<std::pair<proto::upload_kind, std::string>> files;
  for (const auto& [name, kind] : streamed) files.emplace_back(kind, c_.spool.cluster_file(j.id, kind).string());
  // The streamed files come from the database and are written on its thread, then the pool prepares the job.
  c_.link.call<bool>(
      [id = j.id, files](cluster_store& db) {
        if (files.empty()) return true;
        for (const auto& in : db.inputs(id))
          for (const auto& [kind, path] : files)
            if (in.kind == proto::name(kind)) write_file(path, in.bytes);
        return true;
      },
      [this, j, request = *request, files](util::expected<bool, std::string> r) {
        if (!r) {  // the database went away: the claim stays this node's, and the next heartbeat takes it in again
          taking_.erase(j.id);
          return note_database(false, r.error());
        }
        spooled uploaded;
        for (const auto& [kind, path] : files)
          (kind == proto::upload_kind::wtns ? uploaded.wtns : uploaded.r1cs) = path;
        boost::asio::post(c_.prep, [this, j, request, files, uploaded] {
          // The accepting node checked the client's right to the key; here the service names it by id.
          const net::peer_credentials service{::geteuid(), ::getegid(), 0};
          prepared p = prepare(request, service, c_.keys, c_.slots, witness_files_, c_.opt.pool, uploaded);
          boost::asio::post(c_.io, [this, j, files, p = std::move(p)]() mutable { taken_in(j, files, std::move(p)); });
        });
      });
}

void cluster_claims::taken_in(const cluster_job& j,
                              const std::vector<std::pair<proto::upload_kind, std::string>>& files, prepared r) {
  taking_.erase(j.id);
  auto remove_files = [&] {
    std::error_code ec;
    for (const auto& [kind, path] : files) std::filesystem::remove(path, ec);
    if (!r.inputs_file.empty()) std::filesystem::remove(r.inputs_file, ec);
  };
  if (r.code) {
    remove_files();
    return give_up(j.id, "node " + c_.opt.cluster.node + " cannot prove it: " + r.error, true);
  }
  const auto owner = local_uid_of(j.owner).value_or(0);
  const auto job_id = local_job_id(j.id, j.attempts);
  shm::job_request req{job_id, j.client, r.key_id, r.spec_json, j.priority, j.partitions};
  req.curve = static_cast<std::uint8_t>(r.pk->curve);
  req.owner_uid = owner;
  if (auto d = util::from_hex(j.digest_hex); d && d->size() == req.digest.size())
    std::memcpy(req.digest.data(), d->data(), d->size());
  req.retention_ns = c_.opt.retention_ns();
  req.origin = shm::job_origin::cluster;
  auto out = c_.queue.submit(req);
  if (!out) {
    remove_files();
    return give_up(j.id, "this node's job table cannot take it now", false);
  }
  if (!out->created) {
    remove_files();
    auto known = c_.jobs.get(out->job);
    if (!known || !cluster_id_of(**known))  // a record under this name that no claim made: never adopted
      return give_up(j.id, "this node's pool holds a job named " + job_id + " that is no cluster claim", false);
    // This claim's job is in the pool already (taken in twice): its result, if any, is reported.
    return report(out->job, true);
  }
  for (const auto& [kind, path] : files) c_.spool.adopt(owner, path, kind, out->job);
  if (!r.inputs_file.empty()) c_.spool.adopt(owner, r.inputs_file, proto::upload_kind::wtns, out->job);
  dispatch_();
}

void cluster_claims::give_up(std::int64_t id, const std::string& why, bool fail) {
  spdlog::warn("cluster job {}: {}; {}", id, why, fail ? "failed" : "returned to the queue");
  c_.link.call<bool>(
      [id, node = c_.opt.cluster.node, why, fail](cluster_store& db) {
        return fail ? db.fail(id, node, why) : db.unclaim(id, node);
      },
      [this](util::expected<bool, std::string> r) { note_database(r.has_value(), r ? std::string() : r.error()); });
}

void cluster_claims::job_changed(shm::job_ref j) { report(j); }

void cluster_claims::report(shm::job_ref j, bool again) {
  auto rec = c_.jobs.get(j);
  if (!rec) return;
  const auto* r = *rec;
  const auto id = cluster_id_of(*r);
  const auto st = shm::job_word_state(*r);
  if (!id || (r->fetched && !again) || (st != shm::job_state::done && st != shm::job_state::failed) ||
      reporting_.count(*id))
    return;
  std::vector<std::vector<std::uint8_t>> results;
  std::string error;
  if (st == shm::job_state::done) {
    for (std::uint32_t p = 0; p < r->n_partitions; ++p) {
      const auto& part = r->parts[p];
      results.emplace_back(part.result, part.result + std::min<std::size_t>(part.result_len, shm::result_bytes));
    }
  } else {
    error = std::string(r->error, std::min<std::size_t>(r->error_len, sizeof r->error));
  }
  reporting_.insert(*id);
  c_.link.call<bool>(
      [id = *id, node = c_.opt.cluster.node, results = std::move(results), error,
       digest = util::to_hex({r->digest, sizeof r->digest}), owner = r->owner_uid](cluster_store& db) {
        return results.empty() ? db.fail(id, node, error) : db.complete(id, node, results, digest, owner);
      },
      [this, j, id = *id, done = st == shm::job_state::done](util::expected<bool, std::string> ok) {
        reporting_.erase(id);
        if (!ok) return note_database(false, ok.error());  // kept; the next heartbeat sends it again
        note_database(true, {});
        if (*ok)
          spdlog::info("cluster job {} {} in the database", id, done ? "proven: its proofs are" : "failed: recorded");
        else
          spdlog::warn("cluster job {}: its claim was no longer this node's; its result is discarded", id);
        c_.jobs.mark_fetched(j);
        claim_more();
      });
}

}  // namespace cuzk::server
