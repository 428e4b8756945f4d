// The clients directory of the network endpoint (DESIGN §11): NAME.pub files
// from `cuzk keygen`, each authorizing one CURVE public key as client NAME.
// It is read again when it changes, and at least once a second (a key file
// rewritten in place does not touch the directory). A file that is refused
// (a bad name, not a public key, a key another file holds, a name whose uid
// another name has) authorizes nothing and is logged with the reason; it
// never holds back the rest: a removed or changed file is revoked at the
// next read whatever else the directory holds. At start, any refused file
// is an error for the operator.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <filesystem>
#include <map>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>

namespace cuzk::server {

// Who a network client is: the name its key file has in the clients
// directory, and the uid its jobs are owned by, from a range no local
// account uses (systemd never allocates uids at or above 2^31).
/* 2^31 plus 31 bits of a hash of the name (two authorized names that meet are refused at load). */
uid_t network_uid(std::string_view name);
inline bool is_network_uid(uid_t uid) { return uid >= (1u << 31); }
/* A gateway's API keys (client "http:NAME") own jobs under uids of their own, handed out one by one
   (http_identities): 0x70000000 + 0..2^20-1, in the range systemd leaves unused between container uids
   (up to 0x6FFFFFFF) and 2^31, so never a local account's and never a network client's. */
inline constexpr uid_t http_uid_base = 0x70000000u;
inline constexpr uid_t http_uid_count = 1u << 20;
inline bool is_http_uid(uid_t uid) { return uid >= http_uid_base && uid - http_uid_base < http_uid_count; }
/* Not a local account: a network client or an API key; it names no file on the server's host. */
inline bool is_remote_uid(uid_t uid) { return is_network_uid(uid) || is_http_uid(uid); }
/* A client name: 1–64 of [A-Za-z0-9._-], not starting with a dot. */
bool is_client_name(std::string_view name);

class authorized_clients {
 public:
  explicit authorized_clients(std::filesystem::path dir);
  /* The name of the client whose 32-byte public key this is, or nullopt. */
  std::optional<std::string> name_of(std::string_view public_key);
  std::size_t size();

 private:
  void reload_if_changed(bool first);
  std::filesystem::path dir_;
  std::mutex mu_;
  std::filesystem::file_time_type seen_{};
  std::chrono::steady_clock::time_point loaded_{};
  std::map<std::string, std::string> by_key_;   // binary public key → name
  std::map<std::string, std::string> refused_;  // file → why, as last logged
};

}  // namespace cuzk::server
