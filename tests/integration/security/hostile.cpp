#include "hostile.hpp"

#include <arpa/inet.h>
#include <grp.h>
#include <netinet/in.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <random>
#include <fstream>
#include <stdexcept>
#include <thread>

#include "harness.hpp"
#include "r1cs/binfile.hpp"
#include "run.hpp"

namespace cuzk::test {

std::string shell_quote(const std::string& s) {
  std::string q = "'";
  for (char c : s) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

run_result run_cli(const std::string& user, const std::vector<std::string>& args, int limit) {
  std::string cmd = shell_quote(cli_bin());
  for (const auto& a : args) cmd += " " + shell_quote(a);
  if (!user.empty()) cmd = "setpriv --reuid=" + user + " --regid=nogroup --clear-groups " + cmd;
  return run("timeout " + std::to_string(limit) + " " + cmd);
}

cli_result cli_as(const std::string& user, const std::vector<std::string>& args, int limit) {
  const auto r = run_cli(user, args, limit);
  return {r.rc, r.out + r.err};
}

cli_result cli(bool nobody, const std::vector<std::string>& args, int limit) {
  return cli_as(nobody ? "nobody" : "", args, limit);
}

void random_file(const std::filesystem::path& p, unsigned mib, std::uint64_t seed) {
  std::ofstream f(p, std::ios::binary);
  std::vector<char> chunk(1 << 20);
  std::mt19937_64 g(seed);
  for (auto& ch : chunk) ch = static_cast<char>(g());
  for (unsigned i = 0; i < mib; ++i) f.write(chunk.data(), static_cast<std::streamsize>(chunk.size()));
}

raw_peer::raw_peer(const std::string& endpoint, const net::curve_keypair& me, const std::string& server_public,
                   const std::string& routing_id) {
  s.set(zmq::sockopt::curve_serverkey, server_public);
  s.set(zmq::sockopt::curve_publickey, me.public_key);
  s.set(zmq::sockopt::curve_secretkey, me.secret_key);
  s.set(zmq::sockopt::linger, 0);
  if (!routing_id.empty()) s.set(zmq::sockopt::routing_id, zmq::buffer(routing_id));
  s.connect(endpoint);
}

raw_peer::raw_peer(const std::string& endpoint, const std::string& routing_id) {
  s.set(zmq::sockopt::linger, 0);
  if (!routing_id.empty()) s.set(zmq::sockopt::routing_id, zmq::buffer(routing_id));
  s.connect(endpoint);
}

void raw_peer::send(const proto::body& b, std::uint64_t rq) {
  const auto bytes = proto::encode(proto::message{rq, b});
  s.send(zmq::buffer(bytes), zmq::send_flags::none);
}

std::optional<proto::message> raw_peer::receive(std::chrono::milliseconds limit) {
  zmq::pollitem_t item{s.handle(), 0, ZMQ_POLLIN, 0};
  if (zmq::poll(&item, 1, limit) <= 0) return std::nullopt;
  zmq::message_t m;
  if (!s.recv(m)) return std::nullopt;
  auto d = proto::decode({static_cast<const std::uint8_t*>(m.data()), m.size()});
  if (!d) return std::nullopt;
  return *d;
}

pid_t fork_as_nobody(const std::function<int()>& f, unsigned nofile) {
  const pid_t child = ::fork();
  if (child != 0) return child;
  if (nofile) {
    rlimit rl{nofile, nofile};
    if (::setrlimit(RLIMIT_NOFILE, &rl) != 0) ::_exit(100);
  }
  if (::setgroups(0, nullptr) != 0 || ::setgid(::getgrnam("nogroup")->gr_gid) != 0 ||
      ::setuid(::getpwnam("nobody")->pw_uid) != 0)
    ::_exit(101);
  int rc = 102;
  try {
    rc = f();
  } catch (const std::exception& e) {
    std::fprintf(stderr, "[cuzk] the child as nobody threw: %s\n", e.what());
  } catch (...) {
    std::fprintf(stderr, "[cuzk] the child as nobody threw a non-exception\n");
  }
  ::_exit(rc);
}

std::vector<int> open_unix_connections(const std::string& path, unsigned n) {
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::strncpy(a.sun_path, path.c_str(), sizeof a.sun_path - 1);
  std::vector<int> fds;
  const timeval second{1, 0};  // a connect waits at most this long for a full backlog
  for (unsigned i = 0; i < n; ++i) {
    int fd = ::socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0) ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &second, sizeof second);
    if (fd >= 0 && ::connect(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a) != 0) {
      ::close(fd);
      fd = -1;
    }
    fds.push_back(fd);
  }
  return fds;
}

unsigned still_open(const std::vector<int>& fds) {
  unsigned n = 0;
  for (int fd : fds) {
    if (fd < 0) continue;
    char buf[256];
    ssize_t r;
    while ((r = ::recv(fd, buf, sizeof buf, MSG_DONTWAIT)) > 0) {
    }
    n += r < 0 && (errno == EAGAIN || errno == EWOULDBLOCK);  // nothing more to read, no end: open
  }
  return n;
}

std::vector<int> open_tcp_connections(const std::string& from, const std::string& to, unsigned short port, unsigned n) {
  sockaddr_in src{}, dst{};
  src.sin_family = dst.sin_family = AF_INET;
  ::inet_pton(AF_INET, from.c_str(), &src.sin_addr);
  ::inet_pton(AF_INET, to.c_str(), &dst.sin_addr);
  dst.sin_port = htons(port);
  std::vector<int> fds;
  const timeval second{1, 0};
  for (unsigned i = 0; i < n; ++i) {
    int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd >= 0) ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &second, sizeof second);
    if (fd >= 0 && (::bind(fd, reinterpret_cast<const sockaddr*>(&src), sizeof src) != 0 ||
                    ::connect(fd, reinterpret_cast<const sockaddr*>(&dst), sizeof dst) != 0)) {
      ::close(fd);
      fd = -1;
    }
    fds.push_back(fd);
  }
  return fds;
}

void write_bytes(const std::filesystem::path& p, const std::vector<std::uint8_t>& b) {
  std::ofstream(p, std::ios::binary)
      .write(reinterpret_cast<const char*>(b.data()), static_cast<std::streamsize>(b.size()));
}

std::filesystem::path sparse_r1cs(const std::filesystem::path& p,
                                  const groth16::basic_proving_key<curves::bls12_381>& pk, std::uint32_t n_constraints,
                                  std::uint64_t section) {
  r1cs::binfile_writer w("r1cs", 1, 3);
  w.begin_section(1);
  w.u32(32);
  w.raw(r1cs::fr_modulus_le());
  for (std::uint32_t v : {pk.n_vars, pk.n_public, 0u, 1u}) w.u32(v);
  w.u64(pk.n_vars);
  w.u32(n_constraints);
  w.end_section();
  w.begin_section(3);
  for (std::uint64_t i = 0; i < pk.n_vars; ++i) w.u64(i);
  w.end_section();
  w.u32(2);
  w.u64(section);
  auto b = std::move(w).take();
  write_bytes(p, b);
  if (::truncate(p.c_str(), static_cast<off_t>(b.size() + section)) != 0)
    throw std::runtime_error("truncate " + p.string());
  return p;
}

}  // namespace cuzk::test
