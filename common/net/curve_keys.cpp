#include "net/curve_keys.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <zmq.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <map>
#include <stdexcept>

namespace cuzk::net {

namespace {

constexpr std::string_view z85_alphabet =
    "0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

std::string trim(std::string_view s) {
  const auto a = s.find_first_not_of(" \t\r");
  if (a == std::string_view::npos) return {};
  const auto b = s.find_last_not_of(" \t\r");
  return std::string(s.substr(a, b - a + 1));
}

/* name → value of the `name = "value"` lines; anything else is refused. */
std::map<std::string, std::string> read_fields(const std::filesystem::path& p) {
  std::ifstream f(p);
  if (!f) throw std::runtime_error("cannot read the CURVE key file " + p.string() + ": " + std::strerror(errno));
  std::map<std::string, std::string> out;
  std::string line;
  for (int n = 1; std::getline(f, line) && n <= 64; ++n) {
    const auto t = trim(line);
    if (t.empty() || t[0] == '#') continue;
    const auto eq = t.find('=');
    const auto v = eq == std::string::npos ? std::string() : trim(std::string_view(t).substr(eq + 1));
    if (eq == std::string::npos || v.size() < 2 || v.front() != '"' || v.back() != '"')
      throw std::runtime_error(p.string() + " line " + std::to_string(n) + ": expected name = \"value\"");
    out[trim(std::string_view(t).substr(0, eq))] = v.substr(1, v.size() - 2);
  }
  return out;
}

std::string key_field(const std::map<std::string, std::string>& fields, const std::string& name,
                      const std::filesystem::path& p) {
  auto it = fields.find(name);
  if (it == fields.end()) throw std::runtime_error(p.string() + " holds no " + name);
  if (!is_curve_key(it->second))
    throw std::runtime_error(p.string() + ": its " + name + " is not a CURVE key (40 Z85 characters)");
  return it->second;
}

void write_file(const std::filesystem::path& p, const std::string& text, mode_t mode) {
  const int fd = ::open(p.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW, mode);
  if (fd < 0) throw std::runtime_error("cannot create " + p.string() + ": " + std::strerror(errno));
  const bool ok = ::fchmod(fd, mode) == 0 && ::write(fd, text.data(), text.size()) == ssize_t(text.size());
  const int saved = errno;
  ::close(fd);
  if (!ok) throw std::runtime_error("cannot write " + p.string() + ": " + std::strerror(saved));
}

}  // namespace

curve_keypair make_curve_keypair() {
  if (!zmq_has("curve")) throw std::runtime_error("this libzmq was built without CURVE");
  char pub[41], sec[41];
  if (zmq_curve_keypair(pub, sec) != 0)
    throw std::runtime_error(std::string("zmq_curve_keypair: ") + zmq_strerror(zmq_errno()));
  return {pub, sec};
}

bool is_curve_key(std::string_view z85) {
  return z85.size() == 40 && z85.find_first_not_of(z85_alphabet) == std::string_view::npos;
}

void write_curve_keys(const std::filesystem::path& secret, const curve_keypair& k) {
  if (!is_curve_key(k.public_key) || !is_curve_key(k.secret_key)) throw std::runtime_error("not a CURVE keypair");
  const auto pub = std::filesystem::path(secret.string() + ".pub");
  write_file(secret, "public-key = \"" + k.public_key + "\"\nsecret-key = \"" + k.secret_key + "\"\n", 0600);
  write_file(pub, "public-key = \"" + k.public_key + "\"\n", 0644);
}

curve_keypair read_curve_secret(const std::filesystem::path& secret) {
  const auto f = read_fields(secret);
  return {key_field(f, "public-key", secret), key_field(f, "secret-key", secret)};
}

std::string read_curve_public(const std::filesystem::path& pub) {
  const auto f = read_fields(pub);
  if (f.count("secret-key"))
    throw std::runtime_error(pub.string() + " holds a secret key: give the public key file (NAME.pub)");
  return key_field(f, "public-key", pub);
}

}  // namespace cuzk::net
