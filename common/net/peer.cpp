#include "net/peer.hpp"

#include <grp.h>
#include <pwd.h>
#include <sys/stat.h>

#include <charconv>
#include <vector>

namespace cuzk::net {

namespace {

template <class T>
bool number(std::string_view s, T& out) {
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size() || s.empty()) return false;
  out = static_cast<T>(v);
  return true;
}

bool in_group(const peer_credentials& who, gid_t g) {
  if (who.gid == g) return true;
  std::vector<char> buf(16384);
  passwd pw{}, *found = nullptr;
  if (::getpwuid_r(who.uid, &pw, buf.data(), buf.size(), &found) != 0 || !found) return false;
  int n = 64;
  std::vector<gid_t> groups(static_cast<std::size_t>(n));
  if (::getgrouplist(pw.pw_name, pw.pw_gid, groups.data(), &n) < 0) {
    groups.resize(static_cast<std::size_t>(n));
    if (::getgrouplist(pw.pw_name, pw.pw_gid, groups.data(), &n) < 0) return false;
  }
  for (int i = 0; i < n; ++i)
    if (groups[static_cast<std::size_t>(i)] == g) return true;
  return false;
}

}  // namespace

std::optional<peer_credentials> parse_peer_address(std::string_view a) {
  peer_credentials c;
  const auto p3 = a.rfind(':');
  if (p3 == std::string_view::npos || !number(a.substr(p3 + 1), c.pid)) return std::nullopt;
  a = a.substr(0, p3);
  const auto p2 = a.rfind(':');
  if (p2 == std::string_view::npos || !number(a.substr(p2 + 1), c.gid)) return std::nullopt;
  a = a.substr(0, p2);
  const auto p1 = a.rfind(':');
  if (p1 == std::string_view::npos || !number(a.substr(p1 + 1), c.uid)) return std::nullopt;
  return c;
}

std::optional<peer_credentials> peer_of(const zmq::message_t& m) {
  const char* a = zmq_msg_gets(m.handle(), "Peer-Address");
  if (!a) return std::nullopt;
  return parse_peer_address(a);
}

std::string user_id_of(const zmq::message_t& m) {
  const char* u = zmq_msg_gets(m.handle(), "User-Id");
  return u ? std::string(u) : std::string();
}

bool may_read(const peer_credentials& who, uid_t owner, gid_t group, mode_t mode) {
  if (who.uid == 0) return true;
  if (who.uid == owner) return (mode & S_IRUSR) != 0;
  if (in_group(who, group)) return (mode & S_IRGRP) != 0;
  return (mode & S_IROTH) != 0;
}

}  // namespace cuzk::net
