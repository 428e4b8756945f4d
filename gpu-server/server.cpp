#include "server.hpp"

#include <sys/resource.h>
#include <sys/stat.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <zmq_addon.hpp>

#include "shm/failpoint.hpp"
#include "shm/srs_region.hpp"
#include "net/endpoint.hpp"
#include "net/options.hpp"
#include "requests/node_job_directory.hpp"
#include "queue/local_job_queue.hpp"
#include "listeners/authorized_clients.hpp"
#include "net/envelope_io.hpp"
#include "proto/codec.hpp"
#include <fstream>

#include "backend/fault.hpp"
#include "io/zkey.hpp"
#include "io/zkey_dims.hpp"
#include "sizing/host_memory.hpp"
#include "util/host_memory.hpp"
#include "util/utf8.hpp"
#include <spdlog/spdlog.h>

namespace cuzk::server {

namespace {

std::string gib(std::uint64_t b) {
  char s[32];
  std::snprintf(s, sizeof s, "%.2f GiB", double(b) / double(1ULL << 30));
  return s;
}

/* The pool and its keys' SRS regions live in memory (/dev/shm, which may be sized beyond it): more than the
   host has, and the node would swap or be killed for memory mid-proof. Refused at start, with the sizes. */
/* The --key files the pool holds no region of yet count at what their region will hold: a native key's
   region without its coefficients, a dropped key's without its points either. */
void check_host_memory(const shm::region& region, const server_options& opt) {
  const std::uint64_t host = util::host_memory_total();
  if (!host) return;
  const std::string& pool = opt.pool;
  std::uint64_t keys = 0;
  std::size_t n = 0;
  std::vector<shm::srs_region> regions;
  for (const auto& id : shm::list_srs(pool))
    if (auto r = shm::srs_region::open(pool, id)) {
      keys += shm::srs_region_bytes(r->bytes().size()) - r->released_bytes();
      ++n;
      regions.push_back(std::move(*r));
    }
  for (const auto& k : opt.keys) {
    if (shm::is_key_id(k)) continue;
    try {
      const auto s = io::read_zkey_shape_file(k);
      /* a region of the same size that begins with the same bytes (its header and α, β, δ) is this key's */
      std::vector<std::uint8_t> head(static_cast<std::size_t>(std::min<std::uint64_t>(s.bytes, 4096)));
      std::ifstream(k, std::ios::binary).read(reinterpret_cast<char*>(head.data()), std::streamsize(head.size()));
      if (std::any_of(regions.begin(), regions.end(), [&](const shm::srs_region& r) {
            return r.bytes().size() == s.bytes && std::equal(head.begin(), head.end(), r.bytes().begin());
          }))
        continue;
      keys += shm::srs_region_bytes(io::region_content(s, opt.host_copy_of(k, {}) == job::host_copy::drop));
      ++n;
    } catch (const std::exception&) {  // the load says what is wrong with it
    }
  }
  if (sizing::host_memory_use{region.size(), keys}.fits(host)) return;
  throw std::runtime_error("the pool '" + pool + "' (" + gib(region.size()) + ") and the SRS regions of its " +
                           std::to_string(n) + " key(s) (" + gib(keys) + ") need " + gib(region.size() + keys) +
                           " of memory, and the host has " + gib(host) +
                           ": recreate the pool with fewer or smaller slots, or on a larger host (cuzk plan sizes a "
                           "node)");
}

std::string opened_or_throw(const char* what, std::string_view name, shm::error e, const std::string& why) {
  return std::string(what) + " " + std::string(name) + ": " + (why.empty() ? std::string(to_string(e)) : why);
}

}  // namespace

server::server(server_options opt)
    : opt_(std::move(opt)),
      tick_(io_),
      wrouter_(ctx_, zmq::socket_type::router),
      prep_(std::max(1u, opt_.prepare_threads)) {
  // The preparation threads yield to the loop: a key being hashed must not
  // slow down a status reply (Linux: a thread's nice value is its own).
  for (unsigned i = 0; i < std::max(1u, opt_.prepare_threads); ++i)
    boost::asio::post(prep_, [] { ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 10); });
  if (opt_.worker_endpoint.empty()) opt_.worker_endpoint = opt_.endpoint + ".worker";
  if (opt_.worker_endpoint == opt_.endpoint)
    throw std::runtime_error(
        "--worker-endpoint must differ from --endpoint: clients must not reach the workers' socket");
  std::string why;
  auto r = shm::region::open({opt_.pool, opt_.hugepage_dir}, &why);
  if (!r) throw std::runtime_error(opened_or_throw("cannot open the pool", opt_.pool, r.error(), why));
  region_ = std::make_unique<shm::region>(std::move(*r));
  auto l = shm::lease::take(*region_, shm::role::server, "gpu-server");
  if (!l) {
    if (l.error() == shm::error::server_running)
      throw std::runtime_error("another cuzk-gpu-server is serving pool " + opt_.pool);
    throw std::runtime_error(opened_or_throw("cannot take a lease on", opt_.pool, l.error(), ""));
  }
  lease_ = std::make_unique<shm::lease>(std::move(*l));
  slots_ = std::make_unique<shm::slot_table>(*region_);
  jobs_ = std::make_unique<shm::job_table>(*region_);
  http_ids_ = std::make_unique<http_identities>(opt_.pool);
  for (std::uint64_t i = 0; i < slots_->size(); ++i)  // after the lease's reclaim: PROVING of a dead server is FILLED
    if (auto w = slots_->word(i); w && (w->state == shm::slot_state::filled || w->state == shm::slot_state::proving))
      ++series_.recovered_slots;
  const auto hung_ms = std::min<std::int64_t>(opt_.hung_timeout.count(), UINT32_MAX);  // for cuzk-shm status
  region_->header().hung_timeout_ms.store(static_cast<std::uint32_t>(hung_ms), std::memory_order_relaxed);

  check_host_memory(*region_, opt_);
  std::string note;
  backend_ = make_backend(opt_.backend, &note);
  if (!note.empty()) spdlog::info("{}", note);
  backend_->attach_pool(region_->payload_chunks(64ULL << 30));

  wire_keys();
  wire_queue();
  wire_listeners();
  state_.held = opt_.hold_proving;
  if (state_.held) spdlog::info("proving held (--hold-proving): synthesis goes on, FILLED slots wait; SIGUSR2 resumes");
  // A cluster node proves once the database has said which jobs of its pool are still its own: a job
  // another node retook while this one was away is dropped, not proven a second time.
  if (claims_ && !state_.held) cluster_hold_ = state_.held = true;
  wire_workers();
  wire_requests();
  queue_->refresh(true);
  wire_provers();
  spdlog::info("serving pool {} (epoch {}, {} slots) on {} (workers on {}) with the {} backend", opt_.pool,
               lease_->epoch(), slots_->size(), opt_.endpoint, opt_.worker_endpoint, backend_->name());
}

void server::wire_keys() {
  keys_ = std::make_unique<key_store>(opt_, *jobs_, io_, prep_,
                                      key_store::hooks{[this](const std::string& id, const std::string& e) {
                                                         fail_jobs_of_key(*jobs_, *queue_, id, e,
                                                                          [this](shm::job_ref j) { job_changed(j); });
                                                       },
                                                       [this] { dispatch(); }});
  keys_->preload(*backend_);
  uploads_ = std::make_unique<uploads>(opt_, *keys_, *jobs_, static_cast<outbox&>(*this));
}

void server::wire_queue() {
  queue_ = std::make_unique<local_job_queue>(*jobs_, opt_.max_synth_crashes, [this](shm::job_ref j) { job_failed(j); });
  if (!opt_.cluster.enabled()) return;
  char host[256] = {};
  ::gethostname(host, sizeof host - 1);
  if (opt_.cluster.node.empty()) opt_.cluster.node = host;
  // A restart of this node (the same pool) keeps its name; another node under it is refused.
  opt_.cluster.instance =
      std::string(host) + " pool " + opt_.pool + " (made " + std::to_string(region_->header().created_unix_ns) + ")";
  cluster_link_ = std::make_unique<cluster_link>(opt_.cluster.database, io_);
  claims_ = std::make_unique<cluster_claims>(
      cluster_claims::context{shared(), *queue_, *uploads_, *cluster_link_, prep_}, [this] { dispatch(); },
      [this] {
        if (!std::exchange(cluster_hold_, false)) return;
        spdlog::info("cluster: this node's claims are checked; proving starts");
        hold_proving(false);
      },
      [this](const std::string& why) {
        spdlog::error("{}", why);
        state_.exit_code = 1;
        stop_accepting();
      });
  spdlog::info("cluster node {}: jobs are queued in the cluster database", opt_.cluster.node);
}

// Workers (the service's own processes, 0600 or the service group) keep a
// ROUTER with handover: a worker that reconnects keeps its routing id.
// Clients never reach it; they are served by client_listener.
void server::wire_listeners() {
  net::configure_router(wrouter_);  // mandatory, handover, heartbeats, message limit, linger 0
  std::optional<gid_t> client_gid, worker_gid;
  if (!opt_.client_group.empty()) client_gid = net::group_id(opt_.client_group);
  if (!opt_.worker_group.empty()) worker_gid = net::group_id(opt_.worker_group);
  net::bind_endpoint(wrouter_, opt_.worker_endpoint, worker_gid ? 0660 : 0600, worker_gid);
  workers_in_ = std::make_unique<router_reader>(io_, wrouter_, [this](const net::routed& r) { on_worker_frame(r); });
  opt_.clients.total = fit_descriptor_limit(opt_.clients.total);
  clients_ = std::make_unique<client_listener>(
      io_, opt_.endpoint, 0660, client_gid, opt_.clients,
      [this](std::uint64_t conn, const net::peer_credentials& cred, std::vector<std::vector<std::uint8_t>> frames) {
        on_client(conn, cred, std::move(frames));
      },
      [this](std::uint64_t conn) { directory_->closed(std::to_string(conn), channel::clients); });
  if (!opt_.network.endpoint.empty()) {
    opt_.network.max_connections = fit_descriptor_limit(opt_.network.max_connections, 256 + opt_.clients.total);
    network_ = std::make_unique<network_listener>(
        io_, opt_.network,
        [this](std::uint64_t conn, const std::string& name, std::vector<std::vector<std::uint8_t>> frames) {
          on_network(conn, name, std::move(frames));
        },
        [this](std::uint64_t conn) {
          if (const auto n = directory_->closed(std::to_string(conn), channel::network))
            spdlog::info("network connection {} closed: its {} pending Wait(s) dropped", conn, n);
        });
    spdlog::info("network clients on {}", network_->local_endpoint());
  }
  if (!opt_.metrics_address.empty()) {
    http_ = std::make_unique<metrics_http>(
        io_, opt_.metrics_address, [this](std::string_view p, std::string_view q, std::optional<std::uint32_t> uid) {
          return on_http(p, q, uid);
        });
    const auto ep = http_->local_endpoint();
    const auto host = ep.address().to_string();
    spdlog::info("metrics on {}:{}", ep.address().is_v6() ? "[" + host + "]" : host, ep.port());
  }
}

void server::wire_workers() {
  workers_ =
      std::make_unique<workers>(workers::context{opt_, *region_, *slots_, *jobs_, *queue_, *this, counters_},
                                workers::hooks{[this](const shm::job_record& rec) -> std::optional<std::uint32_t> {
                                                 auto pk = keys_->ready(std::string(shm::field_text(rec.key_id)));
                                                 if (!pk) return std::nullopt;
                                                 return slots_->class_for(pk->domain_size, pk->n_vars);
                                               },
                                               [this](shm::job_ref j) { job_failed(j); }, [this] { dispatch(); }});
}

// The job directory is chosen here, once: the pool's job table, or on a cluster node the cluster's database.
void server::wire_requests() {
  node_ = std::make_unique<node_status>(
      node_status::context{opt_, *region_, *slots_, *backend_, *keys_, *workers_, throughput_});
  if (cluster_link_) {
    auto d = std::make_unique<cluster_job_directory>(
        cluster_job_directory::context{shared(), *cluster_link_, *node_, cluster_counts_});
    cluster_link_->listen(cluster_link::events{[d = d.get()](std::int64_t id) { d->job_finished(id); },
                                               [this] { claims_->queued(); },
                                               [this, d = d.get()] {
                                                 d->resync();
                                                 claims_->queued();
                                               }});
    directory_ = std::move(d);
  } else {
    directory_ = std::make_unique<node_job_directory>(node_job_directory::context{shared(), *queue_, *node_, replies_},
                                                      [this](const peer& p) { return requests_->capacity_for(p); });
  }
  requests_ = std::make_unique<client_requests>(
      client_requests::context{shared(), *uploads_, counters_, prep_, *node_, *directory_}, [this] { dispatch(); });
}

void server::wire_provers() {
  provers_ = std::make_unique<provers>(
      provers::context{opt_, state_, *backend_, *slots_, *jobs_, *lease_, *keys_, counters_, io_},
      provers::hooks{[this](shm::job_ref j) { job_changed(j); },
                     [this](const proof_done& d, std::uint64_t s0, std::uint64_t s1) { observe_proof(d, s0, s1); },
                     [this] {
                       state_.exit_code = exit_device_lost;
                       state_.stopping = true;
                       io_.stop();
                     },
                     [this] {
                       if (state_.stopping) {
                         if (!provers_->in_flight()) io_.stop();
                         return;
                       }
                       dispatch();
                       drain();
                     }});
}

server::~server() {
  exiting_ = true;
  if (signal_thread_.joinable()) signal_thread_.join();
  clients_.reset();
  network_.reset();
  prep_.stop();
  prep_.join();
  replies_.stop();
  replies_.join();
  provers_.reset();       // the proofs in flight finish
  cluster_link_.reset();  // its threads end; what they would post to the loop is not run
}

int server::run() {
  watch_signals();
  workers_in_->start();
  clients_->start();
  if (network_) network_->start();
  arm_tick();
  boost::asio::post(io_, [this] {
    dispatch();
    drain();
  });
  if (http_) http_->start();
  state_.serving = true;
  notify_.ready(status_line());
  io_.run();
  notify_.stopping();
  spdlog::info("stopped: {} proofs, {} failed, {} malformed frames", counters_.proofs, counters_.failed,
               counters_.malformed);
  return state_.exit_code;
}

void server::stop_accepting() {
  state_.accepting = false;
  state_.stopping = true;
  if (!provers_->in_flight()) io_.stop();
}

void server::drain() { workers_in_->drain(); }

/* A frame on the workers' socket: only ipc peers have credentials, and nothing else is served there. */
void server::on_worker_frame(const net::routed& r) {
  if (r.msg && !r.cred) {
    ++counters_.refused;
    reply_error({r.peer, channel::workers}, 0, proto::error_code::bad_request,
                "the server serves only local (ipc) peers whose credentials it can read");
    return;
  }
  route(peer{r.peer, r.cred.value_or(net::peer_credentials{}), channel::workers, {}}, r.msg);
}

void server::on_client(std::uint64_t conn, const net::peer_credentials& cred,
                       std::vector<std::vector<std::uint8_t>> frames) {
  const peer p{std::to_string(conn), cred, channel::clients, {}};
  if (frames.size() != 1) {
    ++counters_.malformed;
    return reply_error(p.to(), 0, proto::error_code::malformed,
                       "expected one frame per message, got " + std::to_string(frames.size()));
  }
  route(p, proto::decode(frames[0]));
}

// A network client: its connection's number and the name its proven key has.
void server::on_network(std::uint64_t conn, const std::string& name, std::vector<std::vector<std::uint8_t>> frames) {
  const peer p{std::to_string(conn), net::peer_credentials{network_uid(name), static_cast<gid_t>(-1), 0},
               channel::network, name};
  if (frames.size() != 1) {
    ++counters_.malformed;
    return reply_error(p.to(), 0, proto::error_code::malformed,
                       "expected one frame per message, got " + std::to_string(frames.size()));
  }
  route(p, proto::decode(frames[0]));
}

// SIGTERM, SIGINT, SIGUSR1 and SIGUSR2 are blocked in every thread (main
// blocks them before any thread starts) and taken here with sigtimedwait.
// TERM and INT stop: the loop is told at once, and if it does not act within
// stop_grace, whatever holds it, the process exits; the region keeps every
// slot and job, so nothing is lost. USR1 holds proving (synthesis goes on,
// FILLED slots wait, the proofs in flight finish) and USR2 resumes it.
void server::watch_signals() {
  signal_thread_ = std::thread([this] {
    sigset_t set;
    sigemptyset(&set);
    for (int sig : {SIGTERM, SIGINT, SIGUSR1, SIGUSR2}) sigaddset(&set, sig);
    const timespec poll{0, 100 * 1000 * 1000};
    while (!exiting_) {
      const int sig = ::sigtimedwait(&set, nullptr, &poll);
      if (sig <= 0) continue;
      if (sig == SIGUSR1 || sig == SIGUSR2) {
        boost::asio::post(io_, [this, hold = sig == SIGUSR1] {
          cluster_hold_ = false;  // the operator's word wins over the start's wait
          hold_proving(hold);
        });
        continue;
      }
      if (stop_requested_.exchange(true)) continue;
      boost::asio::post(io_, [this, sig] {
        stop_seen_ = true;
        spdlog::info("signal {}: no new jobs; finishing the proof in flight", sig);
        stop_accepting();
      });
      const auto until = std::chrono::steady_clock::now() + opt_.stop_grace;
      while (!stop_seen_ && !exiting_ && std::chrono::steady_clock::now() < until)
        std::this_thread::sleep_for(std::chrono::milliseconds(10));
      if (!stop_seen_ && !exiting_) {
        spdlog::error("signal {}: the loop did not act on it within {} ms; exiting now (the pool keeps every job)", sig,
                      opt_.stop_grace.count());
        spdlog::shutdown();
        std::_Exit(1);
      }
    }
  });
}

void server::hold_proving(bool hold) {
  if (hold == state_.held) return;
  state_.held = hold;
  if (hold) {
    spdlog::info("proving held: synthesis goes on, FILLED slots wait ({} proofs in flight finish); SIGUSR2 resumes",
                 provers_->in_flight());
    return;
  }
  spdlog::info("proving resumed");
  provers_->start();
}

bool server::send(const address& to, const proto::message& m) {
  switch (to.via) {
    case channel::clients:
      return clients_ && clients_->send(std::stoull(to.identity), proto::encode(m));  // on_client's number
    case channel::network:
      return network_ && network_->send(std::stoull(to.identity), proto::encode(m));
    case channel::workers:
      break;
  }
  try {
    return net::send_to(wrouter_, to.identity, m) == net::send_result::sent;
  } catch (const zmq::error_t& e) {
    spdlog::warn("send failed: {}", e.what());
    return false;
  }
}

void outbox::reply_error(const address& to, std::uint64_t request_id, proto::error_code code, const std::string& text) {
  // Valid UTF-8 within the bound, whatever it quotes: else the client cannot decode the reply at all.
  send(to, proto::message{request_id,
                          proto::error_reply{code, util::printable(text, proto::max_error_bytes, true), request_id}});
}

// A gateway's request for one of its API keys: from a trusted gateway only, as client "http:NAME" with a uid of
// its own (http_identities), never as the gateway's uid or CURVE name. Only client requests are spoken for.
void server::route_spoken_for(const peer& p, const proto::message& m) {
  const bool gateway =
      p.network()
          ? std::find(opt_.gateway_clients.begin(), opt_.gateway_clients.end(), p.name) != opt_.gateway_clients.end()
          : p.via == channel::clients &&
                std::find(opt_.gateway_uids.begin(), opt_.gateway_uids.end(), p.cred.uid) != opt_.gateway_uids.end();
  ++counters_.spoken_for;
  if (!gateway) {
    ++counters_.refused;
    return reply_error(p.to(), m.request_id, proto::error_code::bad_request,
                       "only a gateway the operator trusts (the server's --gateway) speaks for an API key; " +
                           (p.network() ? "network client " + p.name : "uid " + std::to_string(p.cred.uid)) +
                           " is none");
  }
  if (!proto::is_client_request(m.body)) {
    ++counters_.refused;
    return reply_error(p.to(), m.request_id, proto::error_code::unknown_message,
                       "a gateway speaks for an API key in client requests only");
  }
  std::string why;
  const auto uid = http_ids_->uid_of(m.on_behalf_of, &why);
  if (!uid) return reply_error(p.to(), m.request_id, proto::error_code::unavailable, why);
  peer key = p;
  key.cred = net::peer_credentials{*uid, static_cast<gid_t>(-1), 0};
  key.name = "http:" + m.on_behalf_of;
  key.spoken_for = true;
  proto::message plain = m;
  plain.on_behalf_of.clear();
  route(key, net::decoded(std::move(plain)));
}

void server::route(const peer& p, const net::decoded& m) {
  if (!m) {
    ++counters_.malformed;
    send(p.to(), proto::error_message(m.error()));
    return;
  }
  const std::uint64_t rq = m->request_id;
  auto refuse = [&](const char* why) {
    ++counters_.refused;
    reply_error(p.to(), rq, proto::error_code::unknown_message, why);
  };
  if (!m->on_behalf_of.empty()) return route_spoken_for(p, *m);
  std::visit(
      [&](const auto& b) {
        using T = std::decay_t<decltype(b)>;
        constexpr bool client_msg = proto::is_client_request_v<T>;
        constexpr bool worker_msg = std::is_same_v<T, proto::ready> || std::is_same_v<T, proto::filled> ||
                                    std::is_same_v<T, proto::synth_failed> || std::is_same_v<T, proto::heartbeat> ||
                                    std::is_same_v<T, proto::bye> || std::is_same_v<T, proto::synth_aborted>;
        if constexpr (client_msg) {
          if (p.via == channel::workers) return refuse("client requests go to the client endpoint, not the workers'");
        } else if constexpr (worker_msg) {
          if (p.via != channel::workers) return refuse("worker messages are accepted only on the worker endpoint");
        }
        if constexpr (std::is_same_v<T, proto::submit>)
          requests_->submit(p, rq, b);
        else if constexpr (std::is_same_v<T, proto::status_request>)
          requests_->status(p, rq, b);
        else if constexpr (std::is_same_v<T, proto::fetch>)
          directory_->fetch(p, rq, b);
        else if constexpr (std::is_same_v<T, proto::wait_request>)
          directory_->wait(p, rq, b);
        else if constexpr (std::is_same_v<T, proto::upload>)
          uploads_->chunk(p, rq, b);
        else if constexpr (std::is_same_v<T, proto::cancel_request>)
          directory_->cancel(p, rq, b);
        else if constexpr (std::is_same_v<T, proto::ready>)
          workers_->ready(p, b);
        else if constexpr (std::is_same_v<T, proto::filled>)
          note_synthesis(p, b), workers_->filled(p, b);
        else if constexpr (std::is_same_v<T, proto::synth_failed>)
          workers_->synth_failed(p, b);
        else if constexpr (std::is_same_v<T, proto::heartbeat>)
          workers_->heartbeat(p, b);
        else if constexpr (std::is_same_v<T, proto::bye>)
          workers_->bye(p, b);
        else if constexpr (std::is_same_v<T, proto::synth_aborted>)
          workers_->aborted(p, b);
        else {
          ++counters_.malformed;
          reply_error(p.to(), rq, proto::error_code::unknown_message, "the server does not accept this message");
        }
      },
      m->body);
}

void server::arm_tick() {
  tick_.expires_after(opt_.tick);
  tick_.async_wait([this](const boost::system::error_code& ec) {
    if (ec) return;
    on_tick();
    arm_tick();
  });
}

std::string server::status_line() const {
  std::uint64_t filled = 0, proving = 0;
  for (std::uint64_t s = 0; s < slots_->size(); ++s)
    if (auto w = slots_->word(s)) {
      filled += w->state == shm::slot_state::filled;
      proving += w->state == shm::slot_state::proving;
    }
  return std::to_string(queue_->size()) + " partitions queued, " + std::to_string(filled) + " slots filled, " +
         std::to_string(proving) + " proving, " + std::to_string(workers_->size()) + " workers, " +
         std::to_string(counters_.proofs) + " proofs, " + std::to_string(counters_.failed) + " failed";
}

void server::on_tick() {
  shm::failpoint("server.tick");  // deploy tests: a stalled loop (stall action) must be restarted by the watchdog
  notify_.tick([this] { return status_line(); });
  lease_->heartbeat();
  workers_->reap_dead();
  directory_->expire_waits();
  uploads_->expire();
  keys_->trim();
  if (claims_) claims_->tick();
  dispatch();
  drain();
}

void server::dispatch() {
  if (state_.stopping) return;
  workers_->assign();
  provers_->start();
}

void server::job_changed(shm::job_ref j) {
  directory_->job_changed(j);
  if (claims_) claims_->job_changed(j);
}

void server::job_failed(shm::job_ref j) {
  ++counters_.failed;
  queue_->drop(j);
  job_changed(j);
}

}  // namespace cuzk::server
