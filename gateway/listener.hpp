// The gateway's listener: TLS 1.3 (or plaintext on loopback behind
// --insecure-loopback), one thread per connection up to the bounds, every
// read and write under a deadline (gateway/deadlines), API keys checked
// and per-key and per-address bounds applied before a request reaches
// the API.
#pragma once

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "gateway/http_api.hpp"

namespace cuzk::gateway {

struct listener_options {
  std::string listen = "127.0.0.1:8443";
  bool insecure_loopback = false;
  std::filesystem::path tls_cert, tls_key;
  std::optional<std::string> anonymous_key;  // requests without a key act as this key (clients that send none)
};

class listener {
 public:
  listener(const listener_options& o, const api_context& ctx, net::api_key_store& keys);
  ~listener();
  /* "https://127.0.0.1:8443" (the port chosen when --listen named 0). */
  std::string url() const;
  void run();  // accepts until the process ends

 private:
  struct impl;
  std::unique_ptr<impl> p_;
};

}  // namespace cuzk::gateway
