// A libzmq ROUTER read on the loop through its ZMQ_FD. The descriptor is
// edge-triggered: it signals only a change of ZMQ_EVENTS, so every wake-up
// (and every send, which can take the edge) reads until nothing is queued,
// a bounded number per turn of the loop, and the owner calls drain() on its
// tick as well.
#pragma once

#include <utility>  // before Boost 1.74 asio: its awaitable.hpp uses std::exchange without it

#include <boost/asio/io_context.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/posix/stream_descriptor.hpp>
#include <functional>
#include <zmq.hpp>

#include "net/envelope_io.hpp"

namespace cuzk::server {

class router_reader {
 public:
  using handler = std::function<void(const net::routed&)>;
  router_reader(boost::asio::io_context& io, zmq::socket_t& router, handler on_message)
      : io_(io), router_(router), on_message_(std::move(on_message)), fd_(io) {}

  void start() {
    fd_.assign(::dup(router_.get(zmq::sockopt::fd)));
    arm();
  }

  void drain() {
    for (int budget = 0; budget < 256; ++budget) {
      if (!(router_.get(zmq::sockopt::events) & ZMQ_POLLIN)) return;
      auto r = net::receive_routed(router_);
      if (!r) return;
      on_message_(*r);
    }
    boost::asio::post(io_, [this] { drain(); });  // more queued: yield to timers first
  }

 private:
  void arm() {
    fd_.async_wait(boost::asio::posix::stream_descriptor::wait_read, [this](const boost::system::error_code& ec) {
      if (ec) return;
      drain();
      arm();
    });
  }

  boost::asio::io_context& io_;
  zmq::socket_t& router_;
  handler on_message_;
  boost::asio::posix::stream_descriptor fd_;
};

}  // namespace cuzk::server
