#include "fake_server.hpp"

#include <chrono>

#include <zmq.hpp>

#include "net/endpoint.hpp"
#include "net/envelope_io.hpp"
#include "net/options.hpp"
#include "proto/names.hpp"

namespace cuzk::test {

using namespace std::chrono_literals;

fake_server::fake_server(std::string endpoint) : endpoint_(std::move(endpoint)) {
  thread_ = std::thread([this] { loop(); });
  while (!bound_.load()) std::this_thread::sleep_for(1ms);
}

fake_server::~fake_server() {
  stop_.store(true);
  thread_.join();
}

void fake_server::complete(const std::string& job_id) {
  std::lock_guard l(mu_);
  finish(jobs_.at(job_id), proto::job_state::done, "");
}

void fake_server::fail(const std::string& job_id, const std::string& error) {
  std::lock_guard l(mu_);
  finish(jobs_.at(job_id), proto::job_state::failed, error);
}

int fake_server::requests(std::string_view kind) const {
  std::lock_guard l(mu_);
  auto it = seen_.find(kind);
  return it == seen_.end() ? 0 : it->second;
}

proto::submit fake_server::last_submit() const {
  std::lock_guard l(mu_);
  return jobs_.empty() ? proto::submit{} : std::prev(jobs_.end())->second.request;
}

void fake_server::finish(job& j, proto::job_state s, const std::string& error) {
  j.status.state = s;
  j.status.error = error;
  for (auto& p : j.status.partitions)
    p.state = s == proto::job_state::done ? proto::partition_state::done : proto::partition_state::failed;
}

proto::body fake_server::outcome(const job& j) const {
  if (j.status.state != proto::job_state::done) return j.status;
  proto::proof_reply r{j.status.job_id, {}};
  for (std::size_t i = 0; i < j.status.partitions.size(); ++i)
    r.partitions.push_back({"{\"pi_a\": [\"" + std::to_string(i) + "\"]}", "[\"" + std::to_string(i + 100) + "\"]",
                            j.status.partitions[i]});
  return r;
}

proto::body fake_server::answer(const proto::message& m, const std::string& peer) {
  std::lock_guard l(mu_);
  ++seen_[std::string(proto::name(m.body))];
  if (const auto* s = std::get_if<proto::submit>(&m.body)) {
    auto [it, created] = jobs_.try_emplace(s->job_id);
    if (created) {
      it->second.request = *s;
      it->second.status.job_id = s->job_id;
      it->second.status.priority = s->priority;
      it->second.status.client = s->client;
      it->second.status.partitions.resize(s->partitions);
      if (complete_on_submit_) finish(it->second, proto::job_state::done, "");
    }
    return proto::accepted{s->job_id, created, it->second.status.state};
  }
  auto job_of = [&](const std::string& id) -> const job* {
    auto it = jobs_.find(id);
    return it == jobs_.end() ? nullptr : &it->second;
  };
  auto unknown = [&](const std::string& id) {
    return proto::error_reply{proto::error_code::unknown_job, "no job " + id, m.request_id};
  };
  if (const auto* s = std::get_if<proto::status_request>(&m.body)) {
    if (!s->job_id) {
      proto::status_reply r;
      for (const auto& [id, j] : jobs_) r.jobs.push_back(j.status);
      r.slots = {{0, 0, proto::slot_state::free, 4, proto::no_owner}, {1, 0, proto::slot_state::assigned, 7, 2}};
      r.workers = {{2, "worker@1", 4242, proto::worker_state::busy, 350}};
      r.gpus = {{0,
                 "NVIDIA H200",
                 2,
                 0.97,
                 141ULL << 30,
                 9ULL << 30,
                 130ULL << 30,
                 {"ab12"},
                 120ULL << 30,
                 10,
                 0,
                 {"h 11@22 l 11@22 a 11@22 b1 11@22 b2 9@20"},
                 99ULL << 30,
                 0,
                 {}}};
      return r;
    }
    const job* j = job_of(*s->job_id);
    return j ? proto::body{j->status} : proto::body{unknown(*s->job_id)};
  }
  if (const auto* f = std::get_if<proto::fetch>(&m.body)) {
    const job* j = job_of(f->job_id);
    return j ? outcome(*j) : proto::body{unknown(f->job_id)};
  }
  if (const auto* w = std::get_if<proto::wait_request>(&m.body)) {
    const job* j = job_of(w->job_id);
    if (!j) return unknown(w->job_id);
    if (j->status.state == proto::job_state::queued || j->status.state == proto::job_state::running) {
      waits_.push_back(
          {peer, m.request_id, w->job_id, std::chrono::steady_clock::now() + std::chrono::milliseconds(w->timeout_ms)});
      return proto::bye{};  // no reply now: the loop answers when the job ends or the wait times out
    }
    return outcome(*j);
  }
  return proto::error_reply{proto::error_code::bad_request, "a fake server answers clients only", m.request_id};
}

void fake_server::loop() {
  zmq::context_t ctx;
  zmq::socket_t router(ctx, zmq::socket_type::router);
  net::configure_router(router);
  net::bind_endpoint(router, endpoint_);
  bound_.store(true);
  auto reply = [&](const std::string& peer, std::uint64_t id, proto::body b) {
    if (stale_.load())
      (void)net::send_to(router, peer, {id - 1, proto::accepted{"stale", true, proto::job_state::done}});
    (void)net::send_to(router, peer, {id, std::move(b)});
  };
  while (!stop_.load()) {
    zmq::pollitem_t item{router.handle(), 0, ZMQ_POLLIN, 0};
    zmq::poll(&item, 1, 10ms);
    while (auto in = net::receive_routed(router)) {
      if (!in->msg) {
        reply(in->peer, in->msg.error().request_id, proto::error_message(in->msg.error()).body);
        continue;
      }
      if (ignore_.load() > 0) {
        ignore_.fetch_sub(1);
        std::lock_guard l(mu_);
        ++seen_[std::string(proto::name(in->msg->body))];
        continue;
      }
      proto::body b = answer(*in->msg, in->peer);
      if (!std::holds_alternative<proto::bye>(b)) reply(in->peer, in->msg->request_id, std::move(b));
    }
    std::vector<std::pair<pending_wait, proto::body>> due;
    {
      std::lock_guard l(mu_);
      const auto now = std::chrono::steady_clock::now();
      std::erase_if(waits_, [&](const pending_wait& w) {
        const job& j = jobs_.at(w.job_id);
        const bool ended = j.status.state == proto::job_state::done || j.status.state == proto::job_state::failed;
        if (!ended && now < w.deadline) return false;
        due.emplace_back(w, outcome(j));
        return true;
      });
    }
    for (auto& [w, b] : due) reply(w.peer, w.request_id, std::move(b));
  }
}

}  // namespace cuzk::test
