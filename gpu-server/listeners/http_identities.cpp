#include "listeners/http_identities.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <set>
#include <sstream>
#include <stdexcept>

#include "listeners/authorized_clients.hpp"
#include "shm/shm_dir.hpp"
#include "shm/shm_file.hpp"
#include "shm/srs_header.hpp"
#include "util/fd_guard.hpp"

namespace cuzk::server {

http_identities::http_identities(std::string pool)
    : pool_(std::move(pool)), path_(shm::shm_path(pool_ + ".identities")) {
  std::string why;
  auto fd = shm::detail::open_checked(path_, O_RDONLY, "identities", &why);
  if (!fd && fd.error() == shm::error::not_found) return;
  if (!fd) throw std::runtime_error("cannot read " + path_ + ": " + why);
  util::fd_guard guard{*fd};
  std::string text;
  char buf[65536];
  for (ssize_t n; (n = ::read(guard.fd, buf, sizeof buf)) != 0;) {
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw std::runtime_error("cannot read " + path_ + ": " + std::strerror(errno));
    text.append(buf, static_cast<std::size_t>(n));
  }
  std::istringstream in(text);
  std::set<uid_t> uids;
  std::string line;
  for (int number = 1; std::getline(in, line); ++number) {
    std::istringstream l(line);
    std::string name;
    std::uint64_t uid = 0;
    if (!(l >> name >> uid) || !is_client_name(name) || uid > UINT32_MAX || !is_http_uid(static_cast<uid_t>(uid)) ||
        !uids.insert(static_cast<uid_t>(uid)).second || by_name_.count(name))
      throw std::runtime_error(path_ + " line " + std::to_string(number) +
                               ": not NAME UID with a uid of its own in the API keys' range");
    by_name_[name] = static_cast<uid_t>(uid);
  }
}

std::optional<uid_t> http_identities::uid_of(const std::string& name, std::string* why) {
  if (auto it = by_name_.find(name); it != by_name_.end()) return it->second;
  if (by_name_.size() >= http_uid_count) {
    if (why) *why = "all " + std::to_string(http_uid_count) + " API key identities of this pool are handed out";
    return std::nullopt;
  }
  const uid_t uid = http_uid_base + static_cast<uid_t>(by_name_.size());  // handed out in order, never taken back
  by_name_[name] = uid;
  try {
    save();
  } catch (const std::exception& e) {
    by_name_.erase(name);
    if (why) *why = e.what();
    return std::nullopt;
  }
  return uid;
}

/* The whole file again, written beside and renamed over the old: a crash leaves the old or the new. */
void http_identities::save() {
  std::string text;
  for (const auto& [name, uid] : by_name_) text += name + " " + std::to_string(uid) + "\n";
  const std::string tmp = path_ + ".new-" + std::to_string(::getpid());
  (void)::unlink(tmp.c_str());
  std::string why;
  auto ps = shm::srs_detail::pool_stat(pool_);
  auto fd =
      shm::detail::create_file(tmp, ps ? shm::detail::access_of(*ps) : shm::detail::file_access{}, "identities", &why);
  if (!fd) throw std::runtime_error("cannot write " + tmp + ": " + why);
  util::fd_guard guard{*fd};
  for (std::size_t at = 0; at < text.size();) {
    const ssize_t w = ::write(guard.fd, text.data() + at, text.size() - at);
    if (w < 0 && errno == EINTR) continue;
    if (w <= 0) {
      (void)::unlink(tmp.c_str());
      throw std::runtime_error("cannot write " + tmp + ": " + std::strerror(errno));
    }
    at += static_cast<std::size_t>(w);
  }
  if (::fsync(guard.fd) != 0 || ::rename(tmp.c_str(), path_.c_str()) != 0) {
    (void)::unlink(tmp.c_str());
    throw std::runtime_error("cannot write " + path_ + ": " + std::strerror(errno));
  }
}

}  // namespace cuzk::server
