#include "worker.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <stdexcept>
#include <vector>
#include <zmq_addon.hpp>

#include "circuits/circuit.hpp"
#include "fence.hpp"
#include "job/slot_buffers.hpp"
#include "job/spec.hpp"
#include "liveness.hpp"
#include "net/envelope_io.hpp"
#include "net/options.hpp"
#include "proto/codec.hpp"
#include "proto/limits.hpp"
#include "shm/failpoint.hpp"
#include "util/utf8.hpp"

namespace cuzk::worker {

namespace {

using clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

std::atomic<int>& signals_received() {
  static std::atomic<int> n{0};
  return n;
}

std::uint64_t ns(std::chrono::nanoseconds d) {
  return static_cast<std::uint64_t>(std::max<std::int64_t>(d.count(), 0));
}

}  // namespace

std::chrono::nanoseconds default_synth_deadline(std::uint64_t domain) {
  return 60s + std::chrono::microseconds(20) * static_cast<std::int64_t>(std::min<std::uint64_t>(domain, 1ULL << 40));
}

void worker::on_signal() noexcept { signals_received().fetch_add(1); }

worker::worker(worker_options opt)
    : opt_(std::move(opt)),
      keys_(opt_.pool),
      sock_(ctx_, zmq::socket_type::dealer),
      monitor_(ctx_, zmq::socket_type::pair) {
  std::string why;
  auto r = shm::region::open({opt_.pool, opt_.hugepage_dir}, &why);
  if (!r)
    throw std::runtime_error("cannot open the pool " + opt_.pool + ": " +
                             (why.empty() ? std::string(to_string(r.error())) : why));
  region_ = std::make_unique<shm::region>(std::move(*r));
  keys_.decode_points(false);  // synthesis reads a key's header and coefficients, never its points
  auto l = shm::lease::take(*region_, shm::role::worker, opt_.name);
  if (!l) throw std::runtime_error("cannot take a lease on " + opt_.pool + ": " + std::string(to_string(l.error())));
  lease_ = std::make_unique<shm::lease>(std::move(*l));
  slots_ = std::make_unique<shm::slot_table>(*region_);
  jobs_ = std::make_unique<shm::job_table>(*region_);
  const auto& h = region_->header();
  for (std::uint32_t c = 0; c < h.n_classes; ++c) capacity_ = std::max(capacity_, h.classes[c].domain);

  sock_.set(zmq::sockopt::routing_id, "worker-" + std::to_string(lease_->index()) + "-" + std::to_string(::getpid()));
  net::configure_dealer(sock_);  // immediate: hints for an absent server are dropped, not queued
  sock_.set(zmq::sockopt::reconnect_ivl, 100);
  sock_.set(zmq::sockopt::reconnect_ivl_max, 1000);
  sock_.set(zmq::sockopt::linger, 1000);  // let Filled/Bye out at exit
  // Connection events: a (re)connected server hears Ready at once, not a period later.
  const std::string mon = "inproc://monitor-" + std::to_string(::getpid());
  if (zmq_socket_monitor(sock_.handle(), mon.c_str(), ZMQ_EVENT_HANDSHAKE_SUCCEEDED) == 0) monitor_.connect(mon);
  sock_.connect(opt_.endpoint);
  loop_ns_.store(shm::boot_ns());
  watcher_ = std::thread([this] { watch(); });
  spdlog::info("{}: lease {} on pool {}, server {}", opt_.name, lease_->index(), opt_.pool, opt_.endpoint);
}

worker::~worker() {
  {
    std::lock_guard l(watch_m_);
    quit_watch_ = true;
  }
  watch_cv_.notify_all();
  if (watcher_.joinable()) watcher_.join();
}

bool worker::send(const proto::body& b) {
  // A full queue (no server for a long time) drops the hint; the region keeps the truth.
  return net::send(sock_, proto::message{0, b}) == net::send_result::sent;
}

void worker::quit(int status) {
  spdlog::default_logger()->flush();
  ::_exit(status);  // the synthesis thread may never return: no destructors
}

int worker::run() {
  auto last_announce = clock::now() - opt_.announce;
  std::optional<std::uint64_t> stop_since;
  for (;;) {
    loop_ns_.store(shm::boot_ns());
    if (running_.valid() && running_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
      auto out = running_.get();
      if (out.message) send(*out.message);
      shm::failpoint("worker.filled.sent");
      auto finishing = synth_state::finishing;
      state_.compare_exchange_strong(finishing, synth_state::idle);
      current_.reset();
      start_next();
      if (!current_) last_announce = clock::now() - opt_.announce;  // idle again: announce now
    }
    if (const int sig = signals_received().load(); sig > 0) {
      if (!stop_since) {
        stop_since = shm::boot_ns();
        pending_.clear();  // never started: given back below, with any slot still assigned to this worker
        if (current_)
          spdlog::info("{}: stopping: waiting up to {} ms for the synthesis of slot {}", opt_.name,
                       opt_.stop_timeout.count(), current_->slot);
      }
      if (!current_) break;
      if (sig > 1 || shm::boot_ns() - *stop_since >= ns(opt_.stop_timeout)) {
        const auto why = "slot " + std::to_string(current_->slot) + ": job " + std::to_string(current_->job_index) +
                         " partition " + std::to_string(current_->partition) + ": stopping " +
                         (sig > 1 ? std::string("at once (second signal)")
                                  : "after --stop-timeout " + std::to_string(opt_.stop_timeout.count()) + " ms");
        if (give_back(why)) quit(exit_stopped);
      }
    }
    const auto now = clock::now();
    if (now - last_announce >= opt_.announce) {
      bool sent = true;
      if (current_) {
        // The lease heartbeat is the truth the server acts on; the message only says the same.
        if (shm::boot_ns() - lease_->last_heartbeat_ns() < ns(opt_.announce))
          send(proto::heartbeat{lease_->index(), current_->slot, current_->generation});
      } else if (!stop_since) {
        // A Ready sent before the connection is up is dropped (ZMQ_IMMEDIATE): retried at the next poll.
        sent = send(proto::ready{lease_->index(), ::getpid(), opt_.name, capacity_});
      }
      if (sent) last_announce = now;
    }
    zmq::pollitem_t items[2] = {{sock_.handle(), 0, ZMQ_POLLIN, 0}, {monitor_.handle(), 0, ZMQ_POLLIN, 0}};
    auto& item = items[0];
    try {
      zmq::poll(items, 2, std::chrono::milliseconds(current_ || now - last_announce >= opt_.announce ? 20 : 100));
    } catch (const zmq::error_t& e) {
      if (e.num() != EINTR) throw;
      continue;  // a signal: checked at the top of the loop
    }
    if (items[1].revents & ZMQ_POLLIN) {  // (re)connected: announce now
      std::vector<zmq::message_t> ev;
      (void)zmq::recv_multipart(monitor_, std::back_inserter(ev), zmq::recv_flags::dontwait);
      last_announce = clock::now() - opt_.announce;
    }
    if (item.revents & ZMQ_POLLIN)
      while (auto m = net::receive(sock_)) {
        if (!*m) {
          spdlog::warn("dropping a malformed message from the server: {}", m->error().reason);
          continue;
        }
        on_message(**m);
      }
  }
  // Slots assigned to this worker whose synthesis never started go back to the queue now.
  if (auto rep = lease_->surrender(); rep && rep->assigned_freed)
    spdlog::info("{}: gave back {} slot(s) assigned while stopping", opt_.name, rep->assigned_freed);
  send(proto::bye{lease_->index()});
  spdlog::info("{}: stopped", opt_.name);
  return exit_stopped;
}

void worker::on_message(const proto::message& m) {
  if (const auto* a = std::get_if<proto::assign>(&m.body)) {
    shm::failpoint("worker.assign.received");
    if (signals_received().load() > 0) return;  // stopping: the slot is given back at exit
    const bool dup = (current_ && current_->slot == a->slot && current_->generation == a->generation);
    if (!dup) pending_.push_back(*a);
    if (!current_) start_next();
  } else if (const auto* x = std::get_if<proto::abort_synthesis>(&m.body)) {
    // A critical job needs this worker or its slot: the synthesis stops at its next progress report.
    if (current_ && current_->slot == x->slot && current_->generation == x->generation &&
        state_.load() == synth_state::running) {
      spdlog::info("slot {}: job {} partition {}: aborting the synthesis for a critical job", x->slot,
                   current_->job_index, current_->partition);
      progress_.cancel();
    }
  } else if (const auto* e = std::get_if<proto::error_reply>(&m.body)) {
    spdlog::warn("server: {}", util::printable(e->message));
  }
}

void worker::start_next() {
  if (signals_received().load() > 0) return;  // stopping: no new work
  while (!current_ && !pending_.empty()) {
    proto::assign a = std::move(pending_.front());
    pending_.pop_front();
    auto w = slots_->word(a.slot);
    if (!w || w->state != shm::slot_state::assigned || w->generation != a.generation || w->owner != lease_->index())
      continue;  // stale: the slot moved on
    current_ = a;
    const auto now = shm::boot_ns();
    const auto deadline = opt_.synth_deadline.count() ? std::chrono::nanoseconds(opt_.synth_deadline)
                                                      : default_synth_deadline(slots_->payload(a.slot)->domain);
    slot_.store(a.slot);
    start_ns_.store(now);
    deadline_ns_.store(now + ns(deadline));
    state_.store(synth_state::running);
    progress_.reset_cancel();
    running_ = std::async(std::launch::async, [this, a] { return synthesize(a); });
  }
}

bool worker::finish() {
  auto running = synth_state::running;
  return state_.compare_exchange_strong(running, synth_state::finishing);
}

synth_outcome worker::synthesize(const proto::assign& a) {
  const shm::job_ref j{a.job_index, a.job_generation};
  const auto t0 = clock::now();
  jobs_->count_synthesis(j, a.partition);
  std::string error;
  try {
    progress_.opaque(true);  // parsing the key (first job of a key) reports nothing
    job::any_key pk;
    try {
      pk = keys_.get(a.key_id);
    } catch (...) {
      progress_.opaque(false);
      throw;
    }
    progress_.opaque(false);
    if (opt_.synth_deadline.count() == 0)
      deadline_ns_.store(start_ns_.load() + ns(default_synth_deadline(pk->domain_size)));
    auto spec = job::spec::from_json(a.spec);
    auto payload = slots_->payload(a.slot);
    if (!payload) throw job::job_error("slot " + std::to_string(a.slot) + " has no payload");
    // An installed circuit's generator must end before the synthesis deadline, so that its job fails saying so
    // and this worker lives on: it gets nine tenths of the time left.
    job::installed_context ctx{opt_.pool, opt_.generator};
    const auto now = shm::boot_ns();
    const auto left = deadline_ns_.load() > now ? deadline_ns_.load() - now : 0;
    ctx.limits.deadline = std::chrono::milliseconds(std::max<std::uint64_t>(1, left / 1000000 * 9 / 10));
    ctx.limits.cpu_seconds = std::max<std::uint64_t>(1, left / 1000000000ULL);
    auto st = job::synthesize(pk, spec, a.partition, *payload, &progress_, &ctx);
    shm::failpoint("worker.synthesized");
    if (!finish()) return {};  // given back: this process is exiting
    const auto ns =
        static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - t0).count());
    auto f = slots_->fill(a.slot, a.generation, lease_->index(),
                          shm::fill_info{st.n_constraints, pk->domain_size, st.n_witness, ns, opt_.checksum,
                                         std::uint8_t(pk->curve), st.witness_ns});
    if (!f) {
      spdlog::warn("slot {} gen {}: fill refused ({}), dropping", a.slot, a.generation, to_string(f.error()));
      return {proto::heartbeat{lease_->index(), a.slot, a.generation}};
    }
    spdlog::info("slot {}: job {} partition {} synthesized in {:.3f} s (witness generator {:.3f} s)", a.slot,
                 a.job_index, a.partition, ns / 1e9, st.witness_ns / 1e9);
    return {proto::filled{a.slot, a.generation, ns, st.n_constraints, st.n_witness}};
  } catch (const job::progress::cancelled&) {
    // Nothing more is written into the slot: the server frees it and requeues the partition.
    if (!finish()) return {};
    spdlog::info("slot {}: job {} partition {}: synthesis aborted after {:.3f} s", a.slot, a.job_index, a.partition,
                 std::chrono::duration<double>(clock::now() - t0).count());
    return {proto::synth_aborted{a.slot, a.generation}};
  } catch (const std::exception& e) {
    error = e.what();
  }
  if (state_.load() != synth_state::finishing && !finish()) return {};
  // The job cannot be synthesized (bad inputs, unsatisfied constraint): record
  // it in the job table first, then give the slot back.
  spdlog::warn("slot {}: job {} partition {}: {}", a.slot, a.job_index, a.partition, util::printable(error));
  (void)jobs_->fail(j, a.partition, error);
  (void)slots_->abandon(a.slot, a.generation, lease_->index());
  return {proto::synth_failed{a.slot, a.generation, util::printable(error, proto::max_error_bytes, true)}};
}

bool worker::give_back(const std::string& why) {
  auto running = synth_state::running;
  if (!state_.compare_exchange_strong(running, synth_state::given_back)) return false;
  progress_.park();
  const std::uint64_t slot = slot_.load();
  const auto p = slots_->payload(slot);
  const auto& h = region_->header();
  const std::size_t page = h.hugepages ? shm::payload_alignment : static_cast<std::size_t>(::sysconf(_SC_PAGESIZE));
  const std::uint32_t cls = slots_->class_of(slot);  // the whole slot: payload_alignment-sized, page-aligned
  if (!p || cls >= h.n_classes || !fence({p->a.data(), h.classes[cls].slot_bytes}, page)) {
    spdlog::warn(
        "{}: the slot's memory cannot be fenced, so it is left to the server, which reclaims it once "
        "this worker has exited",
        why);
    return true;
  }
  if (auto rep = lease_->surrender())
    spdlog::warn("{}: slot given back ({} slot(s) freed, {} partition(s) requeued)", why, rep->assigned_freed,
                 rep->partitions_requeued);
  else
    spdlog::warn("{}: giving the slot back failed ({}); the server reclaims it once this worker has exited", why,
                 to_string(rep.error()));
  return true;
}

void worker::watch() {
  liveness rule(ns(opt_.progress_grace));
  const auto period = std::clamp<std::chrono::milliseconds>(opt_.progress_grace / 4, 10ms, 250ms);
  bool beating = true;
  for (;;) {
    {
      std::unique_lock l(watch_m_);
      if (quit_watch_) break;
    }
    const auto now = shm::boot_ns();
    const auto st = state_.load();
    std::optional<synthesis_view> s;
    if (st == synth_state::running || st == synth_state::finishing)
      s = synthesis_view{start_ns_.load(), progress_.count(),
                         st == synth_state::finishing || progress_.in_opaque_phase()};
    const bool alive = st != synth_state::given_back && rule.alive(now, loop_ns_.load(), s);
    if (alive) lease_->heartbeat();
    if (alive != beating && st != synth_state::given_back) {
      if (!alive)
        spdlog::warn(
            "{}: no progress for {} ms ({}): the lease heartbeat stops, so the server kills this worker "
            "after its --hung-timeout",
            opt_.name, opt_.progress_grace.count(),
            s ? "synthesis of slot " + std::to_string(slot_.load()) : std::string("main loop"));
      else
        spdlog::info("{}: progress again: the lease heartbeat resumes", opt_.name);
      beating = alive;
    }
    if (st == synth_state::running && now > deadline_ns_.load()) {
      const auto limit_ms = (deadline_ns_.load() - start_ns_.load()) / 1000000;
      if (give_back("slot " + std::to_string(slot_.load()) + ": the synthesis passed its deadline (" +
                    std::to_string(limit_ms) + " ms); exiting with status " + std::to_string(exit_deadline)))
        quit(exit_deadline);
    }
    std::unique_lock l(watch_m_);
    if (watch_cv_.wait_for(l, period, [this] { return quit_watch_; })) break;
  }
}

}  // namespace cuzk::worker
