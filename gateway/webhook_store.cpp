#include "gateway/webhook_store.hpp"

#include <fcntl.h>
#include <sodium.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>

namespace cuzk::gateway {

namespace fs = std::filesystem;

webhook_store::webhook_store(fs::path dir) : dir_(std::move(dir)) {
  if (dir_.empty()) return;
  fs::create_directories(dir_);
  fs::permissions(dir_, fs::perms::owner_all, fs::perm_options::replace);
}

fs::path webhook_store::file_of(const pending_webhook& w) const {
  const std::string id = w.key + '\0' + w.job_id;
  unsigned char h[crypto_hash_sha256_BYTES];
  crypto_hash_sha256(h, reinterpret_cast<const unsigned char*>(id.data()), id.size());
  char hex[2 * sizeof h + 1];
  sodium_bin2hex(hex, sizeof hex, h, sizeof h);
  return dir_ / (std::string(hex, 32) + ".webhook");
}

std::vector<pending_webhook> webhook_store::load() const {
  std::vector<pending_webhook> out;
  if (dir_.empty()) return out;
  for (const auto& e : fs::directory_iterator(dir_)) {
    if (e.path().extension() != ".webhook") continue;
    try {
      std::ifstream in(e.path());
      std::stringstream ss;
      ss << in.rdbuf();
      const auto j = nlohmann::json::parse(ss.str());
      out.push_back({j.at("key"), j.at("job_id"), j.at("url"), j.at("secret")});
    } catch (const std::exception& ex) {
      spdlog::warn("webhook file {}: {}; left alone", e.path().string(), ex.what());
    }
  }
  return out;
}

void webhook_store::save(const pending_webhook& w) const {
  if (dir_.empty()) return;
  const auto path = file_of(w);
  const auto tmp = fs::path(path.string() + ".tmp");
  const std::string text =
      nlohmann::json{{"key", w.key}, {"job_id", w.job_id}, {"url", w.url}, {"secret", w.secret_hex}}.dump();
  const int fd = ::open(tmp.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
  if (fd < 0) throw std::runtime_error("cannot write " + tmp.string() + ": " + std::strerror(errno));
  const bool ok = ::write(fd, text.data(), text.size()) == static_cast<ssize_t>(text.size()) && ::fsync(fd) == 0;
  ::close(fd);
  if (!ok || ::rename(tmp.c_str(), path.c_str()) != 0) {
    ::unlink(tmp.c_str());
    throw std::runtime_error("cannot write " + path.string() + ": " + std::strerror(errno));
  }
}

void webhook_store::remove(const pending_webhook& w) const {
  if (dir_.empty()) return;
  std::error_code ec;
  fs::remove(file_of(w), ec);
}

}  // namespace cuzk::gateway
