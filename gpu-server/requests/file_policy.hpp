// Files a client names (DESIGN §9): the server opens only regular files under
// a directory the operator allow-listed, without following symlinks, and only
// when the client itself could read them (its uid and groups, from
// SO_PEERCRED). A rejected file is never read, kept or quoted.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <vector>

#include "net/peer.hpp"
#include "util/expected.hpp"

namespace cuzk::server {

/* An open descriptor (closed on destruction) and what fstat said. */
class opened_file {
 public:
  opened_file() = default;
  opened_file(int fd, std::string identity) : fd_(fd), identity_(std::move(identity)) {}
  opened_file(opened_file&& o) noexcept { *this = std::move(o); }
  opened_file& operator=(opened_file&& o) noexcept;
  ~opened_file();
  int fd() const noexcept { return fd_; }
  /* job::file_identity: a worker that opens the path again checks it still names this file. */
  const std::string& identity() const noexcept { return identity_; }

 private:
  int fd_ = -1;
  std::string identity_;
};

class file_policy {
 public:
  file_policy(std::vector<std::filesystem::path> dirs, std::string what)
      : dirs_(std::move(dirs)), what_(std::move(what)) {}
  bool empty() const noexcept { return dirs_.empty(); }
  /* Why a path is refused before any file is looked at (not absolute,
     outside the allowed directories), or nullopt: cheap, for the loop. */
  std::optional<std::string> lexical_refusal(const std::string& path) const;
  /* Opens path (absolute) for this peer, or says why not in one sentence. */
  util::expected<opened_file, std::string> open(const net::peer_credentials& who, const std::string& path) const;

 private:
  /* path below the allow-listed directory open as top (closed here), as rel. */
  util::expected<opened_file, std::string> open_under(const net::peer_credentials& who, int top,
                                                      const std::filesystem::path& rel, const std::string& path) const;
  std::vector<std::filesystem::path> dirs_;  // canonical
  std::string what_;                         // "key" or "witness", for errors
};

}  // namespace cuzk::server
