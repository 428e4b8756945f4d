#include "worker.hpp"

#include <spdlog/spdlog.h>
#include <unistd.h>

#include <cerrno>
#include <stdexcept>

#include "circuits/circuit.hpp"
#include "job/slot_buffers.hpp"
#include "job/spec.hpp"
#include "job/synthesize.hpp"
#include "net/options.hpp"
#include "proto/codec.hpp"
#include "shm/failpoint.hpp"

namespace cuzk::worker {

namespace {

using clock = std::chrono::steady_clock;

}  // namespace

std::atomic<bool>& worker::stop_flag() {
  static std::atomic<bool> stop{false};
  return stop;
}

worker::worker(worker_options opt)
    : opt_(std::move(opt)), keys_(opt_.pool), sock_(ctx_, zmq::socket_type::dealer) {
  std::string why;
  auto r = shm::region::open({opt_.pool, opt_.hugepage_dir}, &why);
  if (!r)
    throw std::runtime_error("cannot open the pool " + opt_.pool + ": " +
                             (why.empty() ? std::string(to_string(r.error())) : why));
  region_ = std::make_unique<shm::region>(std::move(*r));
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
  sock_.connect(opt_.endpoint);
  spdlog::info("{}: lease {} on pool {}, server {}", opt_.name, lease_->index(), opt_.pool, opt_.endpoint);
}

worker::~worker() = default;

void worker::send(const proto::body& b) {
  const auto bytes = proto::encode(proto::message{0, b});
  // A full queue (no server for a long time) drops the hint; the region keeps the truth.
  (void)sock_.send(zmq::buffer(bytes), zmq::send_flags::dontwait);
}

int worker::run() {
  auto last_announce = clock::now() - opt_.announce;
  for (;;) {
    if (running_.valid() && running_.wait_for(std::chrono::seconds(0)) == std::future_status::ready) {
      auto out = running_.get();
      send(out.message);
      shm::failpoint("worker.filled.sent");
      current_.reset();
      start_next();
      if (!current_) last_announce = clock::now() - opt_.announce;  // idle again: announce now
    }
    if (stop_flag().load() && !current_) break;
    const auto now = clock::now();
    if (now - last_announce >= opt_.announce) {
      lease_->heartbeat();
      if (current_)
        send(proto::heartbeat{lease_->index(), current_->slot, current_->generation});
      else if (!stop_flag().load())
        send(proto::ready{lease_->index(), ::getpid(), opt_.name, capacity_});
      last_announce = now;
    }
    zmq::pollitem_t item{sock_.handle(), 0, ZMQ_POLLIN, 0};
    try {
      zmq::poll(&item, 1, std::chrono::milliseconds(current_ ? 20 : 100));
    } catch (const zmq::error_t& e) {
      if (e.num() != EINTR) throw;
      continue;  // a signal: the loop checks stop_flag()
    }
    while (item.revents & ZMQ_POLLIN) {
      zmq::message_t frame;
      auto got = sock_.recv(frame, zmq::recv_flags::dontwait);
      if (!got) break;
      auto m = proto::decode({static_cast<const std::uint8_t*>(frame.data()), frame.size()});
      if (!m) {
        spdlog::warn("dropping a malformed message from the server: {}", m.error().reason);
        continue;
      }
      on_message(*m);
    }
  }
  send(proto::bye{lease_->index()});
  spdlog::info("{}: stopped", opt_.name);
  return 0;
}

void worker::on_message(const proto::message& m) {
  if (const auto* a = std::get_if<proto::assign>(&m.body)) {
    shm::failpoint("worker.assign.received");
    if (stop_flag().load()) return;  // the slot stays ASSIGNED; reclaimed when this process exits
    const bool dup = (current_ && current_->slot == a->slot && current_->generation == a->generation);
    if (!dup) pending_.push_back(*a);
    if (!current_) start_next();
  } else if (const auto* e = std::get_if<proto::error_reply>(&m.body)) {
    spdlog::warn("server: {}", e->message);
  }
}

void worker::start_next() {
  while (!current_ && !pending_.empty()) {
    proto::assign a = std::move(pending_.front());
    pending_.pop_front();
    auto w = slots_->word(a.slot);
    if (!w || w->state != shm::slot_state::assigned || w->generation != a.generation ||
        w->owner != lease_->index())
      continue;  // stale: the slot moved on
    current_ = a;
    running_ = std::async(std::launch::async, [this, a] { return synthesize(a); });
  }
}

synth_outcome worker::synthesize(const proto::assign& a) {
  const shm::job_ref j{a.job_index, a.job_generation};
  const auto t0 = clock::now();
  jobs_->count_synthesis(j, a.partition);
  std::string error;
  try {
    auto pk = keys_.get(a.key_id);
    auto spec = job::spec::from_json(a.spec);
    auto payload = slots_->payload(a.slot);
    if (!payload) throw job::job_error("slot " + std::to_string(a.slot) + " has no payload");
    auto st = job::synthesize(*pk, spec, a.partition, job::slot_buffers(*payload, *pk));
    shm::failpoint("worker.synthesized");
    const auto ns = static_cast<std::uint64_t>(std::chrono::duration_cast<std::chrono::nanoseconds>(clock::now() - t0).count());
    auto f = slots_->fill(a.slot, a.generation, lease_->index(),
                          shm::fill_info{st.n_constraints, pk->domain_size, st.n_witness, ns, opt_.checksum});
    if (!f) {
      spdlog::warn("slot {} gen {}: fill refused ({}), dropping", a.slot, a.generation, to_string(f.error()));
      return {proto::heartbeat{lease_->index(), a.slot, a.generation}};
    }
    spdlog::info("slot {}: job {} partition {} synthesized in {:.3f} s", a.slot, a.job_index, a.partition, ns / 1e9);
    return {proto::filled{a.slot, a.generation, ns, st.n_constraints, st.n_witness}};
  } catch (const std::exception& e) {
    error = e.what();
  }
  // The job cannot be synthesized (bad inputs, unsatisfied constraint): record
  // it in the job table first, then give the slot back.
  spdlog::warn("slot {}: job {} partition {}: {}", a.slot, a.job_index, a.partition, error);
  (void)jobs_->fail(j, a.partition, error);
  (void)slots_->abandon(a.slot, a.generation, lease_->index());
  return {proto::synth_failed{a.slot, a.generation, error}};
}

}  // namespace cuzk::worker
