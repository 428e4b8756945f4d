#include "server.hpp"

#include <sys/resource.h>
#include <sys/stat.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <stdexcept>
#include <zmq_addon.hpp>

#include "shm/failpoint.hpp"
#include "shm/srs_region.hpp"
#include "net/endpoint.hpp"
#include "net/options.hpp"
#include "proto/codec.hpp"
#include "util/utf8.hpp"
#include <spdlog/spdlog.h>

namespace cuzk::server {

namespace {

std::string opened_or_throw(const char* what, std::string_view name, shm::error e, const std::string& why) {
  return std::string(what) + " " + std::string(name) + ": " + (why.empty() ? std::string(to_string(e)) : why);
}

}  // namespace

server::server(server_options opt)
    : opt_(std::move(opt)),
      keys_(opt_.pool),
      key_files_(opt_.keys_dirs, "key"),
      witness_files_(opt_.witness_dirs, "witness"),
      wzfd_(io_),
      tick_(io_),
      wrouter_(ctx_, zmq::socket_type::router),
      prep_(std::max(1u, opt_.prepare_threads)) {
  // The preparation threads yield to the loop: a key being hashed must not
  // slow down a status reply (Linux: a thread's nice value is its own).
  for (unsigned i = 0; i < std::max(1u, opt_.prepare_threads); ++i)
    boost::asio::post(prep_, [] { ::setpriority(PRIO_PROCESS, static_cast<id_t>(::gettid()), 10); });
  if (opt_.worker_endpoint.empty()) opt_.worker_endpoint = opt_.endpoint + ".worker";
  if (opt_.worker_endpoint == opt_.endpoint)
    throw std::runtime_error("--worker-endpoint must differ from --endpoint: clients must not reach the workers' socket");
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
  for (std::uint64_t i = 0; i < slots_->size(); ++i)  // after the lease's reclaim: PROVING of a dead server is FILLED
    if (auto w = slots_->word(i); w && (w->state == shm::slot_state::filled || w->state == shm::slot_state::proving))
      ++series_.recovered_slots;
  const auto hung_ms = std::min<std::int64_t>(opt_.hung_timeout.count(), UINT32_MAX);  // for cuzk-shm status
  region_->header().hung_timeout_ms.store(static_cast<std::uint32_t>(hung_ms), std::memory_order_relaxed);

  std::string note;
  backend_ = make_backend(opt_.backend, &note);
  if (!note.empty()) spdlog::info("{}", note);
  keys_.decode_points(!backend_->reads_mapped_bases());
  auto chunks = region_->payload_chunks(64ULL << 30);
  backend_->attach_pool(chunks);

  for (const auto& k : opt_.keys) {  // large keys load here, not in a client's Submit
    const auto t0 = std::chrono::steady_clock::now();
    const bool installed = shm::is_key_id(k);  // already in the pool (cuzk-shm load-srs, cuzk setup --pool)
    const auto id = installed ? k : keys_.load(k);  // a file's load has checked its content
    auto pk = keys_.get(id, !installed);
    if (!installed) preloaded_[std::filesystem::absolute(k).lexically_normal().string()] = id;
    backend_->attach_key(id, pk);
    if (installed) verify_key(id, pk);
    else ready_keys_[id] = pk;
    spdlog::info("key {} ({}): domain 2^{}, {} witness values, loaded in {:.2f} s", id, k, pk->log_domain(), pk->n_vars,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  // The keys of the jobs a previous server left, before serving (a restart
  // should not make the first proofs wait for a parse on the pool).
  jobs_->for_each([&](shm::job_ref, const shm::job_record& rec) {
    if (shm::job_word_state(rec) != shm::job_state::active) return;
    const std::string id(shm::field_text(rec.key_id));
    if (ready_keys_.count(id) || loading_keys_.count(id)) return;
    try {
      auto pk = keys_.get(id, false);
      backend_->attach_key(id, pk);
      verify_key(id, pk);
    } catch (const std::exception& e) {
      spdlog::warn("key {} of a queued job: {}", id, util::printable(e.what()));
    }
  });

  // Workers (the service's own processes, 0600 or the service group) keep a
  // ROUTER with handover: a worker that reconnects keeps its routing id.
  // Clients never reach it; they are served by client_listener.
  net::configure_router(wrouter_);  // mandatory, handover, heartbeats, message limit, linger 0
  std::optional<gid_t> client_gid, worker_gid;
  if (!opt_.client_group.empty()) client_gid = net::group_id(opt_.client_group);
  if (!opt_.worker_group.empty()) worker_gid = net::group_id(opt_.worker_group);
  net::bind_endpoint(wrouter_, opt_.worker_endpoint, worker_gid ? 0660 : 0600, worker_gid);
  opt_.clients.total = fit_descriptor_limit(opt_.clients.total);
  clients_ = std::make_unique<client_listener>(
      io_, opt_.endpoint, 0660, client_gid, opt_.clients,
      [this](std::uint64_t conn, const net::peer_credentials& cred, std::vector<std::vector<std::uint8_t>> frames) {
        on_client(conn, cred, std::move(frames));
      },
      [this](std::uint64_t conn) { on_client_closed(conn); });
  if (!opt_.metrics_address.empty()) {
    http_ = std::make_unique<metrics_http>(io_, opt_.metrics_address, [this](std::string_view p) { return on_http(p); });
    const auto ep = http_->local_endpoint();
    const auto host = ep.address().to_string();
    spdlog::info("metrics on {}:{}", ep.address().is_v6() ? "[" + host + "]" : host, ep.port());
  }
  held_ = opt_.hold_proving;
  if (held_) spdlog::info("proving held (--hold-proving): synthesis goes on, FILLED slots wait; SIGUSR2 resumes");
  rebuild_queues();
  for (unsigned i = 0; i < std::max(1u, backend_->concurrency()); ++i)
    provers_.emplace_back([this] { prover_loop(); });
  spdlog::info("serving pool {} (epoch {}, {} slots) on {} (workers on {}) with the {} backend", opt_.pool,
               lease_->epoch(), slots_->size(), opt_.endpoint, opt_.worker_endpoint, backend_->name());
}

server::~server() {
  exiting_ = true;
  if (signal_thread_.joinable()) signal_thread_.join();
  clients_.reset();
  prep_.stop();
  prep_.join();
  replies_.stop();
  replies_.join();
  {
    std::lock_guard lk(mu_);
    prover_exit_ = true;
  }
  cv_.notify_all();
  for (auto& t : provers_)
    if (t.joinable()) t.join();
}

int server::run() {
  watch_signals();
  wzfd_.assign(::dup(wrouter_.get(zmq::sockopt::fd)));
  arm_socket();
  clients_->start();
  arm_tick();
  boost::asio::post(io_, [this] {
    dispatch();
    drain();
  });
  if (http_) http_->start();
  serving_ = true;
  notify_.ready(status_line());
  io_.run();
  notify_.stopping();
  spdlog::info("stopped: {} proofs, {} failed, {} malformed frames", counters_.proofs, counters_.failed,
               counters_.malformed);
  return exit_code_;
}

void server::stop_accepting() {
  accepting_ = false;
  stopping_ = true;
  if (!proving_) io_.stop();
}

void server::arm_socket() {
  wzfd_.async_wait(boost::asio::posix::stream_descriptor::wait_read, [this](const boost::system::error_code& ec) {
    if (ec) return;
    drain();
    arm_socket();
  });
}

// ZMQ_FD is edge-triggered: it signals only a change of ZMQ_EVENTS, so every
// wake-up (and every send, which can consume the edge) drains until no
// message is left, a bounded number per turn of the loop.
void server::drain() {
  for (int budget = 0; budget < 256; ++budget) {
    if (!(wrouter_.get(zmq::sockopt::events) & ZMQ_POLLIN)) return;
    std::vector<zmq::message_t> parts;
    auto n = zmq::recv_multipart(wrouter_, std::back_inserter(parts), zmq::recv_flags::dontwait);
    if (!n) return;
    if (parts.size() != 2) {
      ++counters_.malformed;
      if (!parts.empty())
        reply_error(parts[0].to_string(), 0, proto::error_code::malformed,
                    "expected one frame per message, got " + std::to_string(parts.size() - 1), true);
      continue;
    }
    const auto cred = net::peer_of(parts[1]);
    if (!cred) {  // only ipc peers have credentials; nothing else is served
      ++counters_.refused;
      reply_error(parts[0].to_string(), 0, proto::error_code::bad_request,
                  "the server serves only local (ipc) peers whose credentials it can read", true);
      continue;
    }
    on_frame(peer{parts[0].to_string(), *cred, true},
             {static_cast<const std::uint8_t*>(parts[1].data()), parts[1].size()});
  }
  boost::asio::post(io_, [this] { drain(); });  // more queued: yield to timers first
}

void server::on_client(std::uint64_t conn, const net::peer_credentials& cred,
                       std::vector<std::vector<std::uint8_t>> frames) {
  const peer p{std::to_string(conn), cred, false};
  if (frames.size() != 1) {
    ++counters_.malformed;
    return reply_error(p.identity, 0, proto::error_code::malformed,
                       "expected one frame per message, got " + std::to_string(frames.size()));
  }
  on_frame(p, frames[0]);
}

void server::on_client_closed(std::uint64_t conn) {
  const auto id = std::to_string(conn);
  std::erase_if(waiters_, [&](const waiter& w) { return w.identity == id; });
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
        boost::asio::post(io_, [this, hold = sig == SIGUSR1] { hold_proving(hold); });
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
  if (hold == held_) return;
  held_ = hold;
  if (hold) {
    spdlog::info("proving held: synthesis goes on, FILLED slots wait ({} proofs in flight finish); SIGUSR2 resumes",
                 proving_);
    return;
  }
  spdlog::info("proving resumed");
  start_proofs();
}

bool server::send(const std::string& identity, const proto::message& m, bool workers) {
  const auto bytes = proto::encode(m);
  if (!workers) return clients_ && clients_->send(std::stoull(identity), bytes);  // on_client's number
  try {
    if (!wrouter_.send(zmq::buffer(identity), zmq::send_flags::sndmore | zmq::send_flags::dontwait)) return false;
    if (!wrouter_.send(zmq::buffer(bytes), zmq::send_flags::dontwait)) return false;
  } catch (const zmq::error_t& e) {
    if (e.num() != EHOSTUNREACH) spdlog::warn("send failed: {}", e.what());
    return false;
  }
  return true;
}

void server::reply_error(const std::string& identity, std::uint64_t request_id, proto::error_code code,
                         const std::string& text, bool workers) {
  // Valid UTF-8 within the bound, whatever it quotes: else the client cannot decode the reply at all.
  send(identity, proto::message{request_id, proto::error_reply{code, util::printable(text, proto::max_error_bytes, true), request_id}},
       workers);
}

bool server::is_operator(uid_t uid) const {
  return uid == 0 || uid == ::geteuid() || std::find(opt_.operators.begin(), opt_.operators.end(), uid) != opt_.operators.end();
}

void server::on_frame(const peer& p, std::span<const std::uint8_t> frame) {
  auto m = proto::decode(frame);
  if (!m) {
    ++counters_.malformed;
    send(p.identity, proto::error_message(m.error()), p.worker_socket);
    return;
  }
  const std::uint64_t rq = m->request_id;
  auto refuse = [&](const char* why) {
    ++counters_.refused;
    reply_error(p.identity, rq, proto::error_code::unknown_message, why, p.worker_socket);
  };
  std::visit(
      [&](const auto& b) {
        using T = std::decay_t<decltype(b)>;
        constexpr bool client_msg = std::is_same_v<T, proto::submit> || std::is_same_v<T, proto::status_request> ||
                                    std::is_same_v<T, proto::fetch> || std::is_same_v<T, proto::wait_request>;
        constexpr bool worker_msg = std::is_same_v<T, proto::ready> || std::is_same_v<T, proto::filled> ||
                                    std::is_same_v<T, proto::synth_failed> || std::is_same_v<T, proto::heartbeat> ||
                                    std::is_same_v<T, proto::bye>;
        if constexpr (client_msg) {
          if (p.worker_socket) return refuse("client requests go to the client endpoint, not the workers'");
        } else if constexpr (worker_msg) {
          if (!p.worker_socket) return refuse("worker messages are accepted only on the worker endpoint");
        }
        if constexpr (std::is_same_v<T, proto::submit>) on_submit(p, rq, b);
        else if constexpr (std::is_same_v<T, proto::status_request>) on_status(p, rq, b);
        else if constexpr (std::is_same_v<T, proto::fetch>) on_fetch(p, rq, b);
        else if constexpr (std::is_same_v<T, proto::wait_request>) on_wait(p, rq, b);
        else if constexpr (std::is_same_v<T, proto::ready>) on_ready(p, b);
        else if constexpr (std::is_same_v<T, proto::filled>) on_filled(p, b);
        else if constexpr (std::is_same_v<T, proto::synth_failed>) on_synth_failed(p, b);
        else if constexpr (std::is_same_v<T, proto::heartbeat>) on_heartbeat(p, b);
        else if constexpr (std::is_same_v<T, proto::bye>) on_bye(p, b);
        else {
          ++counters_.malformed;
          reply_error(p.identity, rq, proto::error_code::unknown_message, "the server does not accept this message",
                      p.worker_socket);
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
  return std::to_string(queue_.size()) + " partitions queued, " + std::to_string(filled) + " slots filled, " +
         std::to_string(proving) + " proving, " + std::to_string(workers_.size()) + " workers, " +
         std::to_string(counters_.proofs) + " proofs, " + std::to_string(counters_.failed) + " failed";
}

void server::on_tick() {
  shm::failpoint("server.tick");  // deploy tests: a stalled loop (stall action) must be restarted by the watchdog
  notify_.tick([this] { return status_line(); });
  lease_->heartbeat();
  reap_dead();
  const auto now = std::chrono::steady_clock::now();
  std::vector<waiter> due;
  std::erase_if(waiters_, [&](const waiter& w) {
    if (w.deadline > now) return false;
    due.push_back(w);
    return true;
  });
  for (const auto& w : due) {
    auto rec = jobs_->get(w.job);
    if (!rec) {
      reply_error(w.identity, w.request_id, proto::error_code::unknown_job, "the job is no longer known");
      continue;
    }
    send(w.identity, proto::message{w.request_id, job_status_of(w.job, **rec)});
  }
  trim_ready_keys();
  dispatch();
  drain();
}

}  // namespace cuzk::server
