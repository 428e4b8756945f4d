#include "cluster/cluster_credentials.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <regex>

#include "util/fd_guard.hpp"

namespace cuzk::server {

namespace {

const char* const where_instead =
    "put the connection string in a file only the service's user reads (chmod 600) and name it with "
    "--cluster-database-file, or keep the password in a libpq passfile (PGPASSFILE or passfile=)";

}  // namespace

bool holds_password(const std::string& conninfo) {
  static const std::regex keyword(R"((^|[\s?&])password\s*=)", std::regex::icase);
  static const std::regex userinfo(R"(^postgres(ql)?://[^/@?]*:[^/@?]*@)", std::regex::icase);
  return std::regex_search(conninfo, keyword) || std::regex_search(conninfo, userinfo);
}

std::optional<std::string> credential_file_refusal(const std::filesystem::path& p) {
  struct stat st {};
  if (::stat(p.c_str(), &st) != 0) return "cannot read " + p.string() + ": " + std::strerror(errno);
  if (!S_ISREG(st.st_mode)) return p.string() + " is not a regular file";
  if (st.st_mode & 077)
    return p.string() + " holds the cluster database's credential and others may read it (mode " +
           std::to_string((st.st_mode >> 6) & 7) + std::to_string((st.st_mode >> 3) & 7) +
           std::to_string(st.st_mode & 7) + "); chmod 600 it";
  if (st.st_uid != ::geteuid())
    return p.string() + " holds the cluster database's credential and belongs to uid " + std::to_string(st.st_uid) +
           ", not the service's uid " + std::to_string(::geteuid());
  return std::nullopt;
}

std::optional<std::string> read_credential_file(const std::filesystem::path& p, std::string& conninfo) {
  if (auto why = credential_file_refusal(p)) return why;
  util::fd_guard fd{::open(p.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW)};
  if (fd.fd < 0) return "cannot read " + p.string() + ": " + std::strerror(errno);
  std::string text;
  char buf[4096];
  for (ssize_t n; (n = ::read(fd.fd, buf, sizeof buf)) > 0 && text.size() < 65536;) text.append(buf, std::size_t(n));
  conninfo = text.substr(0, text.find('\n'));
  while (!conninfo.empty() && (conninfo.back() == '\r' || conninfo.back() == ' ')) conninfo.pop_back();
  if (conninfo.empty()) return p.string() + " holds no connection string on its first line";
  return std::nullopt;
}

std::optional<std::string> database_refusal(const std::string& conninfo, bool from_command_line,
                                            const std::string& config) {
  if (conninfo.empty() || !holds_password(conninfo)) return std::nullopt;
  if (from_command_line)
    return std::string(
               "--cluster-database holds a password, and every local user reads a command line "
               "(/proc/PID/cmdline); ") +
           where_instead;
  struct stat st {};
  if (!config.empty() && ::stat(config.c_str(), &st) == 0 && (st.st_mode & 077))
    return "[cluster] database in " + config + " holds a password, and others may read that file; " + where_instead;
  return std::nullopt;
}

}  // namespace cuzk::server
