// Socket options the service sets, one function each so call sites read as
// the design does (DESIGN §4). Every setter throws zmq::error_t on failure.
#pragma once

#include <chrono>
#include <cstdint>

#include <zmq.hpp>

namespace cuzk::net {

using std::chrono::milliseconds;

/* How long close() keeps unsent messages. The service uses 0: a reply to a
   peer that is gone is worth nothing, and a stuck close would stall exit. */
void set_linger(zmq::socket_t& s, milliseconds linger);
/* ROUTER: a message to an unknown peer fails (send_result::unreachable)
   instead of vanishing silently. */
void set_router_mandatory(zmq::socket_t& s, bool on = true);
/* ROUTER: a reconnecting peer that reuses a routing id takes it over. */
void set_router_handover(zmq::socket_t& s, bool on = true);
/* ZMTP heartbeats: PING every ivl, drop the connection when nothing arrives
   for timeout; ttl tells the peer how long to wait for us. */
struct heartbeat_options {
  milliseconds ivl{1000}, timeout{5000}, ttl{10000};
};
void set_heartbeat(zmq::socket_t& s, const heartbeat_options& h);
/* libzmq disconnects a peer that sends a larger message (it never buffers
   it). -1: no limit. */
void set_max_message_size(zmq::socket_t& s, std::int64_t bytes);
/* DEALER: queue messages only on completed connections, so a send to a
   server that is down would block (and times out) instead of queueing. */
void set_immediate(zmq::socket_t& s, bool on = true);

/* The service's ROUTER: mandatory, handover, heartbeats, the hard message
   limit (proto::zmq_max_message_bytes), linger 0. */
void configure_router(zmq::socket_t& s, const heartbeat_options& h = {});
/* A client's or worker's DEALER: immediate, heartbeats, the hard message
   limit, linger 0. */
void configure_dealer(zmq::socket_t& s, const heartbeat_options& h = {});

}  // namespace cuzk::net
