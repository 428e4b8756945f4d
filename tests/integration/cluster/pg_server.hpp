// A real PostgreSQL server for one test: initdb into a fresh directory and
// pg_ctl start on 127.0.0.1 at a free port, as the `postgres` user when the
// test runs as root (initdb refuses root), torn down with the test. Debian's
// postgresql package (scripts/setup.sh) provides the binaries.
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace cuzk::test {

class pg_server {
 public:
  /* Where initdb and pg_ctl are (the newest /usr/lib/postgresql/N/bin), or nullopt. */
  static std::optional<std::filesystem::path> bindir();

  pg_server();  // throws std::runtime_error with the server's log when it does not start
  ~pg_server();
  pg_server(const pg_server&) = delete;
  pg_server& operator=(const pg_server&) = delete;

  std::string conninfo() const;
  unsigned short port() const { return port_; }
  void stop();   // pg_ctl stop -m immediate: as if the machine lost it
  void start();

 private:
  std::string as_owner(const std::string& cmd) const;
  std::filesystem::path bin_, dir_;
  unsigned short port_ = 0;
  bool running_ = false;
};

}  // namespace cuzk::test
