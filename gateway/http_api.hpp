// The gateway's REST API, v1 (issue 40): each request authenticated by its
// API key (Authorization: Bearer), then carried to the node through cuzk's
// own client protocol as that key's client (Envelope.on_behalf_of), and
// answered in JSON; errors as RFC 9457 problem+json with the node's
// sentence. One call per HTTP request; it may block (a long-poll), so the
// listener runs it off its accept loop.
#pragma once

#include <chrono>
#include <string>
#include <utility>
#include <vector>

#include "net/api_keys.hpp"

namespace cuzk::gateway {

struct http_request {
  std::string method, target, body;
  std::string authorization, idempotency_key;
};

struct http_reply {
  unsigned status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};

class http_api {
 public:
  http_api(std::string endpoint, net::api_key_store& keys, std::chrono::seconds max_wait = std::chrono::seconds(60))
      : endpoint_(std::move(endpoint)), keys_(keys), max_wait_(max_wait) {}
  http_reply handle(const http_request& r);

 private:
  std::string endpoint_;
  net::api_key_store& keys_;
  std::chrono::seconds max_wait_;
};

/* RFC 9457: {"type": "about:blank", "title", "status", "detail"}. */
http_reply problem(unsigned status, const std::string& title, const std::string& detail);

}  // namespace cuzk::gateway
