// Webhooks (issue 40, item 5): a request may name a callback URL; when its
// job ends, the gateway POSTs the job (as GET /v1/proofs/{id} shows it) to
// that URL from a thread of its own, never a connection's.
//  - Only to hosts the operator allowed (--webhook-allow: host names, or
//    address ranges in CIDR). Every address a name resolves to must be public
//    or inside an allowed range, and the delivery connects to the address
//    that was checked. Redirects are not followed.
//  - Signed: Cuzk-Signature: t=UNIX_SECONDS,v1=HEX, where HEX is
//    HMAC-SHA256(key = SHA-256(the API key's token), "t.BODY").
//    The receiver keeps the SHA-256 of the token (what api-keys.d/NAME holds),
//    not the token.
//  - Retried with backoff (backoff, 2·backoff, …) until `attempts` have failed.
//  - At most webhooks_per_key pending per key; with a state directory they
//    outlive the gateway (gateway/webhook_store).
#pragma once

#include <chrono>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "gateway/key_limits.hpp"
#include "gateway/node_endpoints.hpp"
#include "gateway/webhook_store.hpp"

namespace cuzk::gateway {

struct webhook_options {
  std::vector<std::string> allow;  // "hooks.example.com", "10.1.0.0/16", "::1/128"
  int attempts = 5;
  std::chrono::milliseconds backoff{1000};
  std::chrono::seconds timeout{10};      // one delivery: connect, send, the receiver's answer
  std::filesystem::path ca_file = {};    // extra CA for https receivers (the system's are always trusted)
  std::filesystem::path state_dir = {};  // pending webhooks kept here (none: in memory only)
};

class webhooks {
 public:
  using reservation = key_limits::lease;
  /* Starts delivering what a gateway before left in the state directory. */
  webhooks(webhook_options o, node_endpoints& nodes, key_limits& limits, unsigned per_key);
  /* Why this URL is refused (a sentence), or nullopt. */
  std::optional<std::string> check_url(const std::string& url) const;
  /* A place for one more webhook of this key; empty at its limit. */
  reservation reserve(const std::string& key) { return limits_.take(key_limits::kind::webhook, key, per_key_); }
  /* Kept (the state directory), then waits for the job on a thread of its own and delivers. */
  void watch(reservation r, const std::string& key, const std::string& token, const std::string& job_id,
             const std::string& url);
  std::size_t resumed() const { return resumed_; }

 private:
  webhook_options o_;
  void deliver(reservation r, pending_webhook w);
  node_endpoints& nodes_;
  key_limits& limits_;
  unsigned per_key_;
  webhook_store store_;
  std::size_t resumed_ = 0;
};

/* "t=T,v1=HEX" for this body at time t, under the secret SHA-256(token) (secret_hex: that hash in hex). */
std::string webhook_signature(const std::string& token, const std::string& body, long long t);
std::string webhook_signature_with(const std::string& secret_hex, const std::string& body, long long t);

}  // namespace cuzk::gateway
