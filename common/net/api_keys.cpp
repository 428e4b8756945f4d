#include "net/api_keys.hpp"

#include <fcntl.h>
#include <sodium.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <stdexcept>

#include "util/names.hpp"

namespace cuzk::net {

namespace fs = std::filesystem;

namespace {

constexpr std::string_view prefix = "cuzk_";
constexpr std::size_t token_bytes = 32;

std::string hex(const unsigned char* p, std::size_t n) {
  static constexpr char d[] = "0123456789abcdef";
  std::string s;
  for (std::size_t i = 0; i < n; ++i) s += d[p[i] >> 4], s += d[p[i] & 15];
  return s;
}

void init_sodium() {
  if (sodium_init() < 0) throw std::runtime_error("libsodium cannot start");
}

}  // namespace

std::string api_key_hash(std::string_view token) {
  init_sodium();
  unsigned char h[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(h, reinterpret_cast<const unsigned char*>(token.data()), token.size());
  return "sha256:" + hex(h, sizeof h);
}

api_key make_api_key(const fs::path& dir, const std::string& name) {
  if (!util::is_plain_name(name))
    throw std::invalid_argument("an API key's name is 1 to 64 of A-Z a-z 0-9 . _ - (not starting with a dot), not '" +
                                name + "'");
  init_sodium();
  if (::mkdir(dir.c_str(), 0700) != 0 && errno != EEXIST)
    throw std::runtime_error("cannot make " + dir.string() + ": " + std::strerror(errno));
  unsigned char raw[token_bytes];
  randombytes_buf(raw, sizeof raw);
  char b64[sodium_base64_ENCODED_LEN(token_bytes, sodium_base64_VARIANT_URLSAFE_NO_PADDING)];
  sodium_bin2base64(b64, sizeof b64, raw, sizeof raw, sodium_base64_VARIANT_URLSAFE_NO_PADDING);
  sodium_memzero(raw, sizeof raw);
  api_key k{name, std::string(prefix) + b64};
  const fs::path file = dir / name;
  const int fd = ::open(file.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
  if (fd < 0)
    throw std::runtime_error(errno == EEXIST ? "an API key named " + name + " exists (" + file.string() +
                                                   "): remove that file to revoke it first"
                                             : "cannot write " + file.string() + ": " + std::strerror(errno));
  const std::string line = api_key_hash(k.token) + "\n";
  const bool ok = ::write(fd, line.data(), line.size()) == static_cast<ssize_t>(line.size()) && ::fsync(fd) == 0;
  ::close(fd);
  if (!ok) {
    ::unlink(file.c_str());
    throw std::runtime_error("cannot write " + file.string());
  }
  return k;
}

api_key_store::api_key_store(fs::path dir) : dir_(std::move(dir)) {
  std::lock_guard lock(mu_);
  reload_if_due();
}

void api_key_store::reload_if_due() {
  std::error_code ec;
  const auto mtime = fs::last_write_time(dir_, ec);
  const auto now = std::chrono::steady_clock::now();
  if (!ec && mtime == seen_ && now - loaded_ < std::chrono::seconds(1)) return;
  std::map<std::string, std::string> keys;
  for (const auto& e : fs::directory_iterator(dir_, ec)) {
    const std::string name = e.path().filename().string();
    std::error_code fe;
    if (!util::is_plain_name(name) || !e.is_regular_file(fe)) continue;
    std::ifstream f(e.path());
    std::string line;
    std::getline(f, line);
    if (line.size() == 7 + 64 && line.starts_with("sha256:")) keys[line] = name;
  }
  by_hash_ = std::move(keys);
  seen_ = ec ? fs::file_time_type{} : mtime;
  loaded_ = now;
}

std::optional<std::string> api_key_store::name_of(std::string_view token) {
  if (!token.starts_with(prefix) || token.size() > 256) return std::nullopt;
  const auto h = api_key_hash(token);
  std::lock_guard lock(mu_);
  reload_if_due();
  if (auto it = by_hash_.find(h); it != by_hash_.end()) return it->second;
  return std::nullopt;
}

std::size_t api_key_store::size() {
  std::lock_guard lock(mu_);
  reload_if_due();
  return by_hash_.size();
}

}  // namespace cuzk::net
