// API keys of the HTTP gateway (issue 40): a token shown once to its holder,
// "cuzk_" and 43 base64url characters of 32 random bytes; what the gateway
// keeps is only its SHA-256, in a file of its directory named after the key
// (api-keys.d/NAME, 0600: "sha256:" and 64 hex digits). A key's name is its
// holder's client identity (http:NAME). Removing the file revokes the key:
// the store reads its directory again when it changes and at least once a
// second.
#pragma once

#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace cuzk::net {

struct api_key {
  std::string name, token;
};

/* A fresh key NAME (a client name: 1–64 of A-Za-z0-9._-), its hash written to dir/NAME (the directory made
   0700 if missing); never over an existing key. The token is returned, and kept nowhere. */
api_key make_api_key(const std::filesystem::path& dir, const std::string& name);
/* "sha256:" + the token's SHA-256 in hex. */
std::string api_key_hash(std::string_view token);

class api_key_store {
 public:
  explicit api_key_store(std::filesystem::path dir);
  /* The name of the key whose token this is, or nullopt (unknown, revoked, or not a token). */
  std::optional<std::string> name_of(std::string_view token);
  std::size_t size();

 private:
  void reload_if_due();
  std::filesystem::path dir_;
  std::mutex mu_;
  std::filesystem::file_time_type seen_{};
  std::chrono::steady_clock::time_point loaded_{};
  std::map<std::string, std::string> by_hash_;  // "sha256:…" → name
};

}  // namespace cuzk::net
