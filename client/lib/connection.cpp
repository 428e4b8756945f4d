#include "client/lib/connection.hpp"

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <thread>
#include <random>

#include "net/envelope_io.hpp"
#include "net/options.hpp"
#include "proto/codec.hpp"
#include "proto/limits.hpp"
#include "proto/names.hpp"

namespace cuzk::client {

namespace {

using clock = std::chrono::steady_clock;

milliseconds left(clock::time_point deadline) {
  return std::max(milliseconds(0), std::chrono::duration_cast<milliseconds>(deadline - clock::now()));
}

/* Waits for `events` on s until the deadline. */
bool ready(zmq::socket_t& s, short events, clock::time_point deadline) {
  zmq::pollitem_t item{s.handle(), 0, events, 0};
  return zmq::poll(&item, 1, left(deadline)) > 0;
}

template <class T>
T expect(proto::message m, std::string_view asked) {
  if (auto* t = std::get_if<T>(&m.body)) return std::move(*t);
  throw protocol_error("the server answered " + std::string(asked) + " with " + std::string(proto::name(m.body)));
}

job_outcome outcome(proto::message m, std::string_view asked) {
  if (auto* p = std::get_if<proto::proof_reply>(&m.body)) return std::move(*p);
  return expect<proto::job_status>(std::move(m), asked);
}

}  // namespace

connection::connection(options o) : opt_(o), next_id_(std::random_device{}() | 1) {}

connection::connection(const std::string& endpoint, options o) : connection(o) { connect(endpoint); }

connection::~connection() = default;

void connection::connect(const std::string& endpoint) {
  endpoint_ = endpoint;
  sock_ = std::make_unique<zmq::socket_t>(ctx_, zmq::socket_type::dealer);
  net::configure_dealer(*sock_);
  if (opt_.curve) {
    sock_->set(zmq::sockopt::curve_serverkey, opt_.curve->server_key);
    sock_->set(zmq::sockopt::curve_publickey, opt_.curve->public_key);
    sock_->set(zmq::sockopt::curve_secretkey, opt_.curve->secret_key);
  }
  sock_->connect(endpoint_);
}

std::string random_job_id() {
  std::random_device rd;
  std::mt19937_64 g((std::uint64_t(rd()) << 32) ^ rd());
  std::uint64_t hi = g(), lo = g();
  hi = (hi & ~0xf000ULL) | 0x4000ULL;        // version 4
  lo = (lo & ~(3ULL << 62)) | (2ULL << 62);  // variant 10
  char s[37];
  std::snprintf(s, sizeof s, "%08llx-%04llx-%04llx-%04llx-%012llx", (unsigned long long)(hi >> 32),
                (unsigned long long)((hi >> 16) & 0xffff), (unsigned long long)(hi & 0xffff),
                (unsigned long long)(lo >> 48), (unsigned long long)(lo & 0xffffffffffffULL));
  return s;
}

std::optional<std::uint64_t> connection::send_request(const proto::body& b, clock::time_point deadline) {
  const std::uint64_t id = next_id_++;
  const proto::message m{id, b, opt_.on_behalf_of};
  // ZMQ_IMMEDIATE: not writable until the connection is up.
  for (;;) {
    if (!ready(*sock_, ZMQ_POLLOUT, deadline)) return std::nullopt;
    if (net::send(*sock_, m) == net::send_result::sent) return id;
    if (left(deadline) == milliseconds(0)) return std::nullopt;
  }
}

std::optional<proto::message> connection::await_reply(std::uint64_t id, clock::time_point deadline) {
  while (ready(*sock_, ZMQ_POLLIN, deadline)) {
    auto in = net::receive(*sock_);
    if (!in) continue;
    if (!*in) {
      // Replies carry no request id we could trust here; a reply we cannot
      // read is fatal rather than retried (it would be unreadable again).
      throw protocol_error("unreadable reply: " + in->error().reason);
    }
    proto::message reply = std::move(**in);
    if (reply.request_id != id) continue;  // the answer to an attempt we gave up on
    if (auto* e = std::get_if<proto::error_reply>(&reply.body)) throw server_error(e->code, e->message);
    return reply;
  }
  return std::nullopt;
}

std::optional<proto::message> connection::attempt(const proto::body& b, milliseconds reply_within) {
  const auto deadline = clock::now() + reply_within;
  const auto id = send_request(b, deadline);
  if (!id) return std::nullopt;
  return await_reply(*id, deadline);
}

proto::message connection::request(const proto::body& b, milliseconds reply_within) {
  if (!sock_) throw std::logic_error("cuzk::client::connection: connect() first");
  const int attempts = std::max(1, opt_.attempts);
  for (int i = 0; i < attempts; ++i) {
    if (i > 0) connect(endpoint_);  // a fresh socket: drops whatever the old one had queued
    if (auto reply = attempt(b, reply_within)) return std::move(*reply);
  }
  throw unreachable("no reply from " + endpoint_ + " within " + std::to_string(reply_within.count()) + " ms (" +
                    std::to_string(attempts) + " attempts)");
}

proto::accepted connection::submit(const proto::submit& s) {
  return expect<proto::accepted>(request(s, opt_.timeout), "submit");
}

proto::job_status connection::status(std::string_view job_id, std::optional<std::uint32_t> owner) {
  return expect<proto::job_status>(request(proto::status_request{std::string(job_id), owner}, opt_.timeout), "status");
}

proto::status_reply connection::status() {
  return expect<proto::status_reply>(request(proto::status_request{}, opt_.timeout), "status");
}

proto::capacity connection::capacity() {
  proto::status_request r;
  r.capacity_only = true;
  auto st = expect<proto::status_reply>(request(r, opt_.timeout), "capacity");
  if (!st.capacity) throw protocol_error("the server's reply to a capacity request carries no capacity");
  return std::move(*st.capacity);
}

proto::cluster_view connection::cluster() {
  proto::status_request r;
  r.cluster = true;
  auto st = expect<proto::status_reply>(request(r, opt_.timeout), "cluster status");
  if (!st.cluster)
    throw protocol_error("the server's reply carries no cluster view: it predates cuzk status --cluster");
  return std::move(*st.cluster);
}

job_outcome connection::fetch(std::string_view job_id, std::optional<std::uint32_t> owner) {
  return outcome(request(proto::fetch{std::string(job_id), owner}, opt_.timeout), "fetch");
}

proto::job_status connection::cancel(std::string_view job_id, std::optional<std::uint32_t> owner) {
  return expect<proto::job_status>(request(proto::cancel_request{std::string(job_id), owner}, opt_.timeout), "cancel");
}

job_outcome connection::wait(std::string_view job_id, milliseconds timeout, std::optional<std::uint32_t> owner) {
  const auto deadline = clock::now() + timeout;
  // In slices, so a server that dies mid-wait is noticed within one slice
  // plus the request timeout, not after the whole wait.
  for (;;) {
    const auto slice = std::min({left(deadline), opt_.wait_slice, milliseconds(proto::max_wait_ms)});
    proto::wait_request w{std::string(job_id), static_cast<std::uint32_t>(slice.count()), owner};
    job_outcome r = outcome(request(w, slice + opt_.timeout), "wait");
    if (std::holds_alternative<proto::proof_reply>(r)) return r;
    const auto state = std::get<proto::job_status>(r).state;
    if (state == proto::job_state::done) return fetch(job_id, owner);  // finished between the server's checks
    if (state == proto::job_state::failed || left(deadline) == milliseconds(0)) return r;
  }
}

proto::upload_ack connection::upload_chunk(const proto::upload& u) {
  return expect<proto::upload_ack>(request(u, opt_.timeout), "upload");
}

// The first chunk alone (its answer may be busy: the key is being loaded,
// or the client's quota is in use; it is sent again after a pause), then up
// to upload_window chunks in flight, each acknowledged in order: the
// server's pace is the flow control, and a round trip no longer bounds the
// rate to one chunk.
void connection::upload(const std::string& upload_id, proto::upload_kind kind, const std::filesystem::path& file,
                        const std::string& key_id) {
  std::ifstream in(file, std::ios::binary);
  if (!in) throw std::runtime_error("cannot read " + file.string());
  const std::uint64_t size = std::filesystem::file_size(file);
  if (size == 0) throw std::runtime_error(file.string() + " is empty");
  auto chunk_at = [&](std::uint64_t offset) {
    std::string data(static_cast<std::size_t>(std::min<std::uint64_t>(proto::max_upload_chunk_bytes, size - offset)),
                     '\0');
    in.seekg(static_cast<std::streamoff>(offset));
    if (!in.read(data.data(), static_cast<std::streamsize>(data.size())))
      throw std::runtime_error("cannot read " + file.string());
    return proto::upload{upload_id, kind, size, offset, std::move(data), offset == 0 ? key_id : std::string()};
  };
  auto acked = [&](const proto::upload_ack& ack, std::uint64_t expected) {
    if (ack.received != expected)
      throw protocol_error("the server acknowledged " + std::to_string(ack.received) + " bytes of upload " + upload_id +
                           ", not " + std::to_string(expected));
  };
  const auto first = chunk_at(0);
  for (int tries = 0;; ++tries) {
    try {
      acked(upload_chunk(first), first.data.size());
      break;
    } catch (const server_error& e) {
      if (e.code() != proto::error_code::busy || tries >= 50) throw;
      std::this_thread::sleep_for(milliseconds(200));
    }
  }
  std::deque<std::pair<std::uint64_t, std::uint64_t>> in_flight;  // (request id, bytes received once acknowledged)
  for (std::uint64_t offset = first.data.size(); offset < size || !in_flight.empty();) {
    const auto deadline = clock::now() + opt_.timeout;
    while (offset < size && in_flight.size() < opt_.upload_window) {
      auto u = chunk_at(offset);
      const auto id = send_request(u, deadline);
      if (!id)
        throw unreachable("upload " + upload_id + ": the server took no chunk within " +
                          std::to_string(opt_.timeout.count()) + " ms");
      offset += u.data.size();
      in_flight.emplace_back(*id, offset);
    }
    auto reply = await_reply(in_flight.front().first, deadline);
    if (!reply)
      throw unreachable("upload " + upload_id + ": no acknowledgement within " + std::to_string(opt_.timeout.count()) +
                        " ms");
    acked(expect<proto::upload_ack>(std::move(*reply), "upload"), in_flight.front().second);
    in_flight.pop_front();
  }
}

}  // namespace cuzk::client
