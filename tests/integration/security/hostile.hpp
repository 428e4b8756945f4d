// What a hostile local client uses against the real service: a raw DEALER
// that can claim any routing id and send anything, and a child process that
// became uid nobody (group nogroup) to run as a second, unprivileged user.
#pragma once

#include <chrono>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>
#include <zmq.hpp>

#include "groth16/keys.hpp"
#include "net/curve_keys.hpp"
#include "proto/codec.hpp"
#include "run.hpp"

namespace cuzk::test {

#define REQUIRE_SECOND_UID() \
  if (const auto why = second_uid_unavailable(); !why.empty()) GTEST_SKIP() << why

/* 's' with its single quotes escaped: one word for sh. */
std::string shell_quote(const std::string& s);

/* The cuzk CLI as `user` with only group nogroup (setpriv), or as root when
   user is empty, killed after `limit` seconds; stdout and stderr apart. */
run_result run_cli(const std::string& user, const std::vector<std::string>& args, int limit = 60);

struct cli_result {
  int exit = -1;
  std::string output;  // stdout and stderr
};
cli_result cli_as(const std::string& user, const std::vector<std::string>& args, int limit = 60);
/* As root or (nobody) as uid nobody. */
cli_result cli(bool nobody, const std::vector<std::string>& args, int limit = 60);

/* A file of `mib` MiB of random bytes (not a key, but one the server must hash before it can say so). */
void random_file(const std::filesystem::path& p, unsigned mib, std::uint64_t seed);

/* A raw DEALER on an endpoint, to send what the client library never would. */
struct raw_peer {
  zmq::context_t ctx;
  zmq::socket_t s{ctx, zmq::socket_type::dealer};
  /* routing_id: the id this DEALER claims (empty: none, the server's choice). */
  explicit raw_peer(const std::string& endpoint, const std::string& routing_id = "");
  /* The same on a tcp:// endpoint with CURVE: these keys, the server's public key (Z85). */
  raw_peer(const std::string& endpoint, const net::curve_keypair& me, const std::string& server_public,
           const std::string& routing_id = "");
  void send(const proto::body& b, std::uint64_t rq = 0);
  /* The next decodable message within `limit`, or nullopt. */
  std::optional<proto::message> receive(std::chrono::milliseconds limit);
};

/* Runs f in a forked child that dropped to uid nobody and group nogroup
   (after raising its descriptor limit to `nofile`, while still root); the
   child's exit code is f's return value. Returns the child's pid (wait_child, run.hpp). */
pid_t fork_as_nobody(const std::function<int()>& f, unsigned nofile = 0);

/* Plain connect()s to an ipc socket path, held open: the descriptors (-1 where connect failed). */
std::vector<int> open_unix_connections(const std::string& path, unsigned n);
/* How many of these descriptors the server has not closed (no EOF or error when polled). */
unsigned still_open(const std::vector<int>& fds);

/* Plain TCP connect()s from source address `from` (any 127.x.y.z works on loopback) to `to`:`port`, held open
   (-1 where connect failed). */
std::vector<int> open_tcp_connections(const std::string& from, const std::string& to, unsigned short port, unsigned n);

/* A file of these bytes. */
void write_bytes(const std::filesystem::path& p, const std::vector<std::uint8_t>& b);
/* A .r1cs of the key's wires and public signals declaring n_constraints,
   whose constraints section (last) declares `section` bytes: the file is
   sparse, a few hundred bytes on disk. */
std::filesystem::path sparse_r1cs(const std::filesystem::path& p,
                                  const groth16::basic_proving_key<curves::bls12_381>& pk, std::uint32_t n_constraints,
                                  std::uint64_t section);

}  // namespace cuzk::test
