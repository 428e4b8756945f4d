#include "net/options.hpp"

#include "proto/limits.hpp"

namespace cuzk::net {

void set_linger(zmq::socket_t& s, milliseconds linger) {
  s.set(zmq::sockopt::linger, static_cast<int>(linger.count()));
}

void set_router_mandatory(zmq::socket_t& s, bool on) { s.set(zmq::sockopt::router_mandatory, on); }

void set_router_handover(zmq::socket_t& s, bool on) { s.set(zmq::sockopt::router_handover, on); }

void set_heartbeat(zmq::socket_t& s, const heartbeat_options& h) {
  s.set(zmq::sockopt::heartbeat_ivl, static_cast<int>(h.ivl.count()));
  s.set(zmq::sockopt::heartbeat_timeout, static_cast<int>(h.timeout.count()));
  s.set(zmq::sockopt::heartbeat_ttl, static_cast<int>(h.ttl.count()));
}

void set_max_message_size(zmq::socket_t& s, std::int64_t bytes) { s.set(zmq::sockopt::maxmsgsize, bytes); }

void set_immediate(zmq::socket_t& s, bool on) { s.set(zmq::sockopt::immediate, on); }

void configure_router(zmq::socket_t& s, const heartbeat_options& h) {
  set_router_mandatory(s);
  set_router_handover(s);
  set_heartbeat(s, h);
  set_max_message_size(s, static_cast<std::int64_t>(proto::zmq_max_message_bytes));
  set_linger(s, milliseconds(0));
}

void configure_dealer(zmq::socket_t& s, const heartbeat_options& h) {
  set_immediate(s);
  set_heartbeat(s, h);
  set_max_message_size(s, static_cast<std::int64_t>(proto::zmq_max_message_bytes));
  set_linger(s, milliseconds(0));
}

}  // namespace cuzk::net
