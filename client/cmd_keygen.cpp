// cuzk keygen: a CURVE keypair for a network client (or the server): FILE
// (secret, 0600) and FILE.pub, which the operator copies into the server's
// clients directory to authorize the client.
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <stdexcept>
#include <vector>

#include "commands.hpp"
#include "net/api_keys.hpp"
#include "net/curve_keys.hpp"

namespace cuzk::cli {

namespace {

/* The directories above a key file that do not exist yet, made 0700 (only their owner lists the secret). */
void make_parents(const std::filesystem::path& file) {
  std::vector<std::filesystem::path> missing;
  for (auto d = file.parent_path(); !d.empty() && !std::filesystem::exists(d); d = d.parent_path()) {
    missing.push_back(d);
    if (d == d.parent_path()) break;
  }
  for (auto it = missing.rbegin(); it != missing.rend(); ++it)
    if (::mkdir(it->c_str(), 0700) != 0 && errno != EEXIST)
      throw std::runtime_error("cannot make the directory " + it->string() + " for " + file.string() + ": " +
                               std::strerror(errno));
}

}  // namespace

int run_keygen(const keygen_args& a) {
  if (!a.api.empty()) {
    const auto k = net::make_api_key(a.api_dir, a.api);
    std::printf("%s\n", k.token.c_str());
    std::fprintf(stderr,
                 "[cuzk] API key %s: its token is printed once, above; %s holds only its hash (remove that file to "
                 "revoke it)\n",
                 k.name.c_str(), (std::filesystem::path(a.api_dir) / k.name).c_str());
    return 0;
  }
  if (a.out.empty()) throw std::invalid_argument("keygen needs --out FILE (a CURVE keypair) or --api NAME");
  make_parents(a.out);
  const auto k = net::make_curve_keypair();
  net::write_curve_keys(a.out, k);
  std::printf("%s\n", k.public_key.c_str());
  std::fprintf(stderr,
               "[cuzk] wrote %s (secret) and %s.pub; authorize it with: install -m 0644 %s.pub "
               "CLIENTS_DIR/NAME.pub\n",
               a.out.c_str(), a.out.c_str(), a.out.c_str());
  return 0;
}

client::options connection_options(const server_args& a) {
  client::options o;
  o.timeout =
      std::chrono::milliseconds(static_cast<long long>((a.request_timeout_given() ? a.request_timeout : 10) * 1000));
  o.attempts = 3;
  if (a.curve_key.empty() != a.server_public.empty())
    throw std::invalid_argument("--curve-key and --server-public go together (CURVE over tcp://)");
  if (!a.curve_key.empty()) {
    const auto mine = net::read_curve_secret(a.curve_key);
    o.curve = client::curve_keys{mine.public_key, mine.secret_key, net::read_curve_public(a.server_public)};
  }
  return o;
}

}  // namespace cuzk::cli
