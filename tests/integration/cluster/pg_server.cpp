#include "pg_server.hpp"

#include <netinet/in.h>
#include <pwd.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <fstream>
#include <iterator>
#include <stdexcept>
#include <vector>

#include "run.hpp"

namespace cuzk::test {

namespace fs = std::filesystem;

namespace {

unsigned short free_port() {
  const int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  socklen_t n = sizeof a;
  if (s < 0 || ::bind(s, reinterpret_cast<sockaddr*>(&a), sizeof a) != 0 ||
      ::getsockname(s, reinterpret_cast<sockaddr*>(&a), &n) != 0)
    throw std::runtime_error("no free port for PostgreSQL");
  ::close(s);
  return ntohs(a.sin_port);
}

std::string text_of(const fs::path& p) {
  std::ifstream f(p);
  return {std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
}

}  // namespace

std::optional<fs::path> pg_server::bindir() {
  std::vector<fs::path> found;
  std::error_code ec;
  for (const auto& v : fs::directory_iterator("/usr/lib/postgresql", ec))
    if (fs::exists(v.path() / "bin" / "initdb") && fs::exists(v.path() / "bin" / "pg_ctl"))
      found.push_back(v.path() / "bin");
  if (found.empty()) return std::nullopt;
  std::sort(found.begin(), found.end());
  return found.back();
}

std::string pg_server::as_owner(const std::string& cmd) const {
  return ::geteuid() == 0 ? "setpriv --reuid=postgres --regid=postgres --clear-groups " + cmd : cmd;
}

pg_server::pg_server(std::vector<std::pair<std::string, std::string>> also) : also_(std::move(also)) {
  const auto b = bindir();
  if (!b)
    throw std::runtime_error("no PostgreSQL server binaries in /usr/lib/postgresql (scripts/setup.sh installs them)");
  bin_ = *b;
  std::string pattern = (fs::temp_directory_path() / "cuzk-pg-XXXXXX").string();
  if (!::mkdtemp(pattern.data())) throw std::runtime_error("mkdtemp failed");
  dir_ = pattern;
  if (::geteuid() == 0) {
    const passwd* pw = ::getpwnam("postgres");
    if (!pw || ::chown(dir_.c_str(), pw->pw_uid, pw->pw_gid) != 0)
      throw std::runtime_error("cannot give " + dir_.string() + " to the postgres user");
  }
  const auto r = run(as_owner((bin_ / "initdb").string() + " -D " + (dir_ / "data").string() +
                              " -U postgres --auth=trust -E UTF8 --no-sync"));
  if (r.rc != 0) throw std::runtime_error("initdb failed:\n" + r.out + r.err);
  {
    std::ofstream hba(dir_ / "data" / "pg_hba.conf", std::ios::app);
    for (const auto& [address, clients] : also_) hba << "host all all " << clients << " trust\n";
  }
  port_ = free_port();
  start();
}

pg_server::~pg_server() {
  if (running_) stop();
  std::error_code ec;
  fs::remove_all(dir_, ec);
}

void pg_server::start() {
  std::string listen = "127.0.0.1";
  for (const auto& [address, clients] : also_) listen += "," + address;
  const std::string opts = "-p " + std::to_string(port_) + " -k " + dir_.string() + " -c listen_addresses=" + listen +
                           " -c fsync=off -c max_connections=80";
  const auto r = run(as_owner((bin_ / "pg_ctl").string() + " -D " + (dir_ / "data").string() + " -l " +
                              (dir_ / "log").string() + " -w -t 60 -o '" + opts + "' start"));
  if (r.rc != 0) throw std::runtime_error("pg_ctl start failed:\n" + r.out + r.err + "\n" + text_of(dir_ / "log"));
  running_ = true;
}

void pg_server::stop() {
  (void)run(as_owner((bin_ / "pg_ctl").string() + " -D " + (dir_ / "data").string() + " -m immediate -w stop"));
  running_ = false;
}

std::string pg_server::conninfo() const { return conninfo_at("127.0.0.1"); }

std::string pg_server::conninfo_at(const std::string& address) const {
  return "host=" + address + " port=" + std::to_string(port_) + " user=postgres dbname=postgres connect_timeout=5";
}

}  // namespace cuzk::test
