// The gateway's HTTP API (issue 40): REST v1, and the requests iden3's
// prover-server and rapidsnark's proverServer take. Each request is
// authenticated by its API key (Authorization: Bearer, or x-api-key) and
// carried to the node through cuzk's own client protocol as that key's
// client (Envelope.on_behalf_of); answered in JSON, errors as RFC 9457
// problem+json with the node's sentence. One call per request; it may
// block (a long-poll), on its connection's thread.
#pragma once

#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "gateway/bounds.hpp"
#include "gateway/key_limits.hpp"
#include "gateway/node_endpoints.hpp"
#include "net/api_keys.hpp"

namespace cuzk::client {
class server_error;
}

namespace cuzk::gateway {

class webhooks;

struct http_request {
  std::string method, target, body, content_type, idempotency_key;
  std::string key;            // the API key's name (authenticated)
  std::string token;          // its token: a webhook's signing secret is its SHA-256
  std::string fresh_id = {};  // a job id for a request that names none (the same if it goes to another node)
  bool loopback_peer = false;
  /* A body not read yet (a witness streamed to the node): reads up to n bytes, 0 at its end. */
  std::function<std::size_t(std::span<char>)> read_body = {};
  std::optional<std::uint64_t> content_length = std::nullopt;
};

struct http_reply {
  unsigned status = 200;
  std::string content_type = "application/json";
  std::string body;
  std::vector<std::pair<std::string, std::string>> headers;
};

struct api_context {
  node_endpoints* nodes;
  gateway::bounds bounds;
  key_limits& limits;
  webhooks* hooks = nullptr;
};

/* Routes needing no key: GET /v1/openapi.json, and GET /metrics from a loopback peer. Nullopt: not one of them. */
std::optional<http_reply> handle_open(const http_request& r);
/* Every other route, for an authenticated key. */
http_reply handle(const api_context& ctx, http_request r);
/* A streamed body goes to the node; is this request one? (POST /v1/proofs with a .wtns body) */
bool streams_body(std::string_view method, std::string_view target, std::string_view content_type);

/* The node's refusal as HTTP: its code chooses the status, its sentence is the detail. */
http_reply from_node(const client::server_error& e);
/* RFC 9457: {"type": "about:blank", "title", "status", "detail"}. */
http_reply problem(unsigned status, const std::string& title, const std::string& detail);

}  // namespace cuzk::gateway
