#include "server.hpp"

#include <sys/stat.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>
#include <zmq_addon.hpp>

#include "net/endpoint.hpp"
#include "net/options.hpp"
#include "proto/codec.hpp"
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
      zfd_(io_),
      signals_(io_, SIGTERM, SIGINT),
      tick_(io_),
      router_(ctx_, zmq::socket_type::router) {
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

  std::string note;
  backend_ = make_backend(opt_.backend, opt_.threads, &note);
  if (!note.empty()) spdlog::info("{}", note);
  auto chunks = region_->payload_chunks(64ULL << 30);
  backend_->attach_pool(chunks);

  net::configure_router(router_);  // mandatory, handover, heartbeats, message limit, linger 0
  net::bind_endpoint(router_, opt_.endpoint, 0660);

  for (const auto& k : opt_.keys) {  // large keys load here, not in a client's Submit
    const auto t0 = std::chrono::steady_clock::now();
    const auto id = keys_.load(k);
    auto pk = keys_.get(id);
    spdlog::info("key {} ({}): domain 2^{}, {} witness values, loaded in {:.2f} s", id, k, pk->log_domain(), pk->n_vars,
                 std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count());
  }
  rebuild_queues();
  prover_ = std::thread([this] { prover_loop(); });
  spdlog::info("serving pool {} (epoch {}, {} slots) on {} with the {} backend", opt_.pool, lease_->epoch(),
               slots_->size(), opt_.endpoint, backend_->name());
}

server::~server() {
  {
    std::lock_guard lk(mu_);
    prover_exit_ = true;
  }
  cv_.notify_all();
  if (prover_.joinable()) prover_.join();
}

int server::run() {
  signals_.async_wait([this](const boost::system::error_code& ec, int sig) {
    if (ec) return;
    spdlog::info("signal {}: no new jobs; finishing the proof in flight", sig);
    stop_accepting();
  });
  zfd_.assign(::dup(router_.get(zmq::sockopt::fd)));
  arm_socket();
  arm_tick();
  boost::asio::post(io_, [this] {
    dispatch();
    drain();
  });
  sd_notify(0, "READY=1");
  io_.run();
  sd_notify(0, "STOPPING=1");
  spdlog::info("stopped: {} proofs, {} failed, {} malformed frames", counters_.proofs, counters_.failed,
               counters_.malformed);
  return 0;
}

void server::stop_accepting() {
  accepting_ = false;
  stopping_ = true;
  if (!prover_busy_) io_.stop();
}

void server::arm_socket() {
  zfd_.async_wait(boost::asio::posix::stream_descriptor::wait_read, [this](const boost::system::error_code& ec) {
    if (ec) return;
    drain();
    arm_socket();
  });
}

// ZMQ_FD is edge-triggered: it signals only a change of ZMQ_EVENTS, so every
// wake-up (and every send, which can consume the edge) drains until no
// message is left.
void server::drain() {
  for (int budget = 0; budget < 10000; ++budget) {
    if (!(router_.get(zmq::sockopt::events) & ZMQ_POLLIN)) return;
    std::vector<zmq::message_t> parts;
    auto n = zmq::recv_multipart(router_, std::back_inserter(parts), zmq::recv_flags::dontwait);
    if (!n) return;
    if (parts.size() != 2) {
      ++counters_.malformed;
      if (!parts.empty())
        reply_error(parts[0].to_string(), 0, proto::error_code::malformed,
                    "expected one frame per message, got " + std::to_string(parts.size() - 1));
      continue;
    }
    on_frame(parts[0].to_string(), parts[1]);
  }
  boost::asio::post(io_, [this] { drain(); });  // more queued: yield to timers first
}

bool server::send(const std::string& identity, const proto::message& m) {
  const auto bytes = proto::encode(m);
  try {
    if (!router_.send(zmq::buffer(identity), zmq::send_flags::sndmore | zmq::send_flags::dontwait)) return false;
    if (!router_.send(zmq::buffer(bytes), zmq::send_flags::dontwait)) return false;
  } catch (const zmq::error_t& e) {
    if (e.num() != EHOSTUNREACH) spdlog::warn("send failed: {}", e.what());
    return false;
  }
  return true;
}

void server::reply_error(const std::string& identity, std::uint64_t request_id, proto::error_code code,
                         const std::string& text) {
  send(identity, proto::message{request_id, proto::error_reply{code, text, request_id}});
}

void server::on_frame(const std::string& id, zmq::message_t& frame) {
  auto m = proto::decode({static_cast<const std::uint8_t*>(frame.data()), frame.size()});
  if (!m) {
    ++counters_.malformed;
    send(id, proto::error_message(m.error()));
    return;
  }
  const std::uint64_t rq = m->request_id;
  std::visit(
      [&](const auto& b) {
        using T = std::decay_t<decltype(b)>;
        if constexpr (std::is_same_v<T, proto::submit>) on_submit(id, rq, b);
        else if constexpr (std::is_same_v<T, proto::status_request>) on_status(id, rq, b);
        else if constexpr (std::is_same_v<T, proto::fetch>) on_fetch(id, rq, b);
        else if constexpr (std::is_same_v<T, proto::wait_request>) on_wait(id, rq, b);
        else if constexpr (std::is_same_v<T, proto::ready>) on_ready(id, b);
        else if constexpr (std::is_same_v<T, proto::filled>) on_filled(id, b);
        else if constexpr (std::is_same_v<T, proto::synth_failed>) on_synth_failed(id, b);
        else if constexpr (std::is_same_v<T, proto::heartbeat>) on_heartbeat(id, b);
        else if constexpr (std::is_same_v<T, proto::bye>) on_bye(id, b);
        else {
          ++counters_.malformed;
          reply_error(id, rq, proto::error_code::unknown_message, "the server does not accept this message");
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

void server::on_tick() {
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
    auto j = jobs_->find(w.job_id);
    if (!j) {
      reply_error(w.identity, w.request_id, proto::error_code::unknown_job, "no job " + w.job_id);
      continue;
    }
    auto rec = jobs_->get(*j);
    if (rec) send(w.identity, proto::message{w.request_id, job_status_of(*j, **rec)});
  }
  dispatch();
  drain();
}

}  // namespace cuzk::server
