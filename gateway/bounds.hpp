// What one HTTP client may take of the gateway (issue 40, item 6): each
// bound has its default here, its option in main.cpp and its refusals in
// cuzk_gateway_refused_total{bound}; docs/operations.md has the table.
#pragma once

#include <chrono>
#include <cstddef>

namespace cuzk::gateway {

using std::chrono::seconds;

struct bounds {
  unsigned connections = 512;             // all clients at once; more are closed at accept
  unsigned connections_per_address = 64;  // per source address, counted before the TLS handshake
  unsigned connections_per_key = 32;      // connections whose requests carry one API key
  seconds handshake_timeout{10};          // TCP accept to the end of the TLS handshake
  seconds header_timeout{10};             // the first byte of a request to the end of its header
  seconds body_timeout{60};               // the end of the header to the end of the body
  seconds idle_timeout{30};               // a kept-alive connection between requests
  seconds write_timeout{30};              // a response taken by its client
  std::size_t header_bytes = 16 * 1024;
  std::size_t header_fields = 64;
  std::size_t body_bytes = 1 << 20;                  // a JSON request
  std::size_t witness_bytes = std::size_t(4) << 30;  // a .wtns uploaded with its request
  int json_depth = 64;
  unsigned long_polls_per_key = 16;  // GET ?wait= at once
  unsigned webhooks_per_key = 64;    // callbacks not yet delivered or given up
  double requests_per_second = 50;   // per key, with a burst of twice that
  seconds max_wait{60};              // ?wait= longer is cut to this
};

}  // namespace cuzk::gateway
