// A real PostgreSQL server for one test: initdb into a fresh directory and
// pg_ctl start on 127.0.0.1 at a free port, as the `postgres` user when the
// test runs as root (initdb refuses root), torn down with the test. Debian's
// postgresql package (scripts/setup.sh) provides the binaries.
#pragma once

#include <filesystem>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace cuzk::test {

class pg_server {
 public:
  /* Where initdb and pg_ctl are (the newest /usr/lib/postgresql/N/bin), or nullopt. */
  static std::optional<std::filesystem::path> bindir();

  /* also: (address, clients) pairs: listen on ADDRESS too and admit clients from CIDR (a test's network namespaces). */
  explicit pg_server(std::vector<std::pair<std::string, std::string>> also = {});  // throws with the server's log
  ~pg_server();
  pg_server(const pg_server&) = delete;
  pg_server& operator=(const pg_server&) = delete;

  std::string conninfo() const;
  /* The same database at another of its addresses. */
  std::string conninfo_at(const std::string& address) const;
  unsigned short port() const { return port_; }
  void stop();  // pg_ctl stop -m immediate: as if the machine lost it
  void start();

 private:
  std::string as_owner(const std::string& cmd) const;
  std::filesystem::path bin_, dir_;
  unsigned short port_ = 0;
  std::vector<std::pair<std::string, std::string>> also_;
  bool running_ = false;
};

}  // namespace cuzk::test
