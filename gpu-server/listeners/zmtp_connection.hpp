// One accepted connection speaking ZMTP (net/zmtp.hpp) on the loop, over a
// Unix or TCP socket, with the NULL mechanism or CURVE (net/curve_server.hpp).
// Its identity is the number its listener gave it, and for CURVE the key
// INITIATE proved; nothing the peer declares is used. A connection that does
// not finish its handshake in time, or does not read its replies, is closed.
//
// Owner (the listener's state) provides: limits (handshake, max_queued_bytes,
// messages_per_turn, and optionally idle: once handshaken, a connection that
// sends nothing, not even a heartbeat, for that long is closed), counters (handshake_timeouts, slow_readers,
// protocol_errors), warn(text), remove(id), describe(conn), message(conn,
// frames), and for CURVE authorize(conn, key) → the client's name or nullopt.
#pragma once

#include <utility>  // before Boost 1.74 asio: its awaitable.hpp uses std::exchange without it

#include <array>
#include <boost/asio/post.hpp>
#include <boost/asio/steady_timer.hpp>
#include <boost/asio/write.hpp>
#include <cstdint>
#include <deque>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "net/curve_server.hpp"
#include "net/zmtp.hpp"
#include "proto/limits.hpp"

namespace cuzk::server {

template <class Socket, class Owner>
struct zmtp_connection : std::enable_shared_from_this<zmtp_connection<Socket, Owner>> {
  /* curve: the server's keys for CURVE; none: NULL. */
  zmtp_connection(std::shared_ptr<Owner> owner, Socket s, std::uint64_t id, const net::curve_server_keys* curve)
      : owner(std::move(owner)),
        sock(std::move(s)),
        deadline(sock.get_executor()),
        id(id),
        reader(proto::zmq_max_message_bytes, 16, curve ? "CURVE" : "NULL") {
    if (curve) this->curve = std::make_unique<net::curve_server>(*curve);
  }
  std::weak_ptr<Owner> owner;
  Socket sock;
  boost::asio::steady_timer deadline;
  std::uint64_t id;
  std::string address;   // the peer's address, as the listener counts it
  std::string name;      // CURVE: the client the proven key belongs to
  net::curve_key key{};  // CURVE: the key INITIATE proved
  std::unique_ptr<net::curve_server> curve;
  net::zmtp::reader reader;
  std::array<std::uint8_t, 16384> in{};
  std::deque<std::vector<std::uint8_t>> out;
  std::size_t queued = 0;
  bool writing = false, closed = false, closing = false;  // closing: closed once what is queued is written

  void start() {
    enqueue(net::zmtp::server_greeting(curve ? "CURVE" : "NULL"));
    if (!curve) enqueue(net::zmtp::ready_command("ROUTER"));
    auto self = this->shared_from_this();
    deadline.expires_after(owner.lock()->limits.handshake);
    deadline.async_wait([self](const boost::system::error_code& ec) {
      if (ec || self->closed || self->reader.handshaken()) return;
      if (auto o = self->owner.lock()) ++o->counters.handshake_timeouts;
      self->close();
    });
    read();
  }
  /* One message (a single frame) to the peer; false when gone or closed for not reading. */
  bool send(std::span<const std::uint8_t> body) {
    if (!curve) return enqueue(net::zmtp::message_frame(body));
    return enqueue(net::zmtp::message_frame(curve->seal(0, body)));
  }
  void read() {
    auto self = this->shared_from_this();
    sock.async_read_some(boost::asio::buffer(in), [self](const boost::system::error_code& ec, std::size_t n) {
      if (self->closed || self->closing) return;
      if (ec) return self->close();
      self->heard = true;
      self->reader.feed({self->in.data(), n});
      self->pump();
    });
  }
  bool heard = false;  // something arrived since the idle timer last looked
  // Every `idle`: closed unless something arrived meanwhile (libzmq clients PING every second).
  void watch_idle(const Owner& o) {
    if constexpr (requires { o.limits.idle; }) {
      if (o.limits.idle.count() <= 0) return;
      heard = false;
      deadline.expires_after(o.limits.idle);
      deadline.async_wait([self = this->shared_from_this()](const boost::system::error_code& ec) {
        if (ec || self->closed) return;
        auto o = self->owner.lock();
        if (!o) return;
        if (self->heard) return self->watch_idle(*o);
        ++o->counters.idle_timeouts;
        self->close();
      });
    }
  }
  // At most messages_per_turn requests, then the loop's other handlers run
  // before this connection's next ones: one client's pipelined burst cannot
  // hold the loop.
  void pump() {
    auto o = owner.lock();
    if (!o || closed || closing) return;
    try {
      for (unsigned k = 0; k < o->limits.messages_per_turn; ++k) {
        auto e = reader.next();
        if (!e) return read();
        handle(*o, *e);
        if (closed || closing) return;
      }
    } catch (const net::zmtp::protocol_error& err) {
      ++o->counters.protocol_errors;
      o->warn("closed a client connection (" + o->describe(*this) + "): " + err.what());
      return close();
    }
    boost::asio::post(sock.get_executor(), [self = this->shared_from_this()] { self->pump(); });
  }
  void handle(Owner& o, net::zmtp::event& e) {
    switch (e.kind) {
      case net::zmtp::event::ready:
        if (e.socket_type != "DEALER") {
          ++o.counters.protocol_errors;
          return close();
        }
        deadline.cancel();
        watch_idle(o);
        return;
      case net::zmtp::event::handshake:
        return handshake(o, e.frames.at(0));
      case net::zmtp::event::ping: {
        const auto pong = net::zmtp::command_body("PONG", e.frames.at(0));
        enqueue(curve ? net::zmtp::message_frame(curve->seal(0x02, pong)) : net::zmtp::command_frame(pong));
        return;
      }
      case net::zmtp::event::message:
        o.message(*this, std::move(e.frames));
        return;
    }
  }
  void handshake(Owner& o, const std::vector<std::uint8_t>& body) {
    if (curve->at() == net::curve_server::state::hello) {
      enqueue(net::zmtp::command_frame(curve->hello(body)));
      return;
    }
    const auto proven = curve->initiate(body);
    if (proven.socket_type != "DEALER")
      throw net::zmtp::protocol_error("a " + proven.socket_type + " socket (DEALER is served)");
    auto who = o.authorize(*this, proven.client_key);
    if (!who) {
      enqueue(net::zmtp::command_frame(net::curve_server::error("400")));  // ZAP's status: the client's key is refused
      closing = true;
      if (!writing) close();
      return;
    }
    name = std::move(*who);
    key = proven.client_key;
    enqueue(net::zmtp::command_frame(curve->ready("ROUTER")));
    reader.secure([c = curve.get()](std::span<const std::uint8_t> sealed) { return c->open(sealed); });
    deadline.cancel();
    watch_idle(o);
  }
  bool enqueue(std::vector<std::uint8_t> bytes) {
    if (closed) return false;
    auto o = owner.lock();
    if (o && queued + bytes.size() > o->limits.max_queued_bytes) {
      ++o->counters.slow_readers;
      o->warn("closed a client connection (" + o->describe(*this) + ") that does not read its replies");
      close();
      return false;
    }
    queued += bytes.size();
    out.push_back(std::move(bytes));
    if (!writing) write();
    return true;
  }
  void write() {
    writing = true;
    auto self = this->shared_from_this();
    boost::asio::async_write(sock, boost::asio::buffer(out.front()),
                             [self](const boost::system::error_code& ec, std::size_t) {
                               if (self->closed) return;
                               if (ec) return self->close();
                               self->queued -= self->out.front().size();
                               self->out.pop_front();
                               if (!self->out.empty()) return self->write();
                               self->writing = false;
                               if (self->closing) self->close();
                             });
  }
  void close() {
    if (closed) return;
    closed = true;
    boost::system::error_code ignored;
    deadline.cancel();
    sock.close(ignored);
    if (auto o = owner.lock()) o->remove(id);
  }
};

}  // namespace cuzk::server
