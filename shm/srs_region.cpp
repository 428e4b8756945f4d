#include "shm/srs_region.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <atomic>
#include <boost/interprocess/mapped_region.hpp>
#include <boost/interprocess/shared_memory_object.hpp>
#include <cerrno>
#include <chrono>
#include <cstring>
#include <thread>

#include <xxhash.h>

#include "shm/lease.hpp"

namespace cuzk::shm {

namespace bi = boost::interprocess;

namespace {

constexpr std::uint32_t srs_version = 1;
constexpr std::uint64_t srs_header_bytes = 4096;

struct srs_header {
  std::atomic<std::uint64_t> magic;  // stored last (release)
  std::uint32_t version;
  std::uint32_t header_bytes;
  std::uint64_t total_bytes;    // the object's size
  std::uint64_t content_bytes;  // the .zkey's size
  std::uint64_t created_unix_ns;
  char key_id[40];              // 32 hex digits, NUL-padded
};

void say(std::string* why, const std::string& s) {
  if (why) *why = s;
}

bool valid_key_id(std::string_view k) {
  if (k.size() != 32) return false;
  for (char c : k)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

std::string object_name(std::string_view pool, std::string_view key_id) {
  return std::string(pool) + ".srs." + std::string(key_id);
}

/* A read-only mapping of a whole file. */
struct file_view {
  void* p = MAP_FAILED;
  std::size_t n = 0;
  ~file_view() {
    if (p != MAP_FAILED && n) ::munmap(p, n);
  }
  std::span<const std::uint8_t> bytes() const {
    return {n ? static_cast<const std::uint8_t*>(p) : nullptr, n};
  }
};

}  // namespace

std::string content_hash(std::span<const std::uint8_t> bytes) noexcept {
  XXH128_hash_t h = XXH3_128bits(bytes.data(), bytes.size());
  XXH128_canonical_t c;
  XXH128_canonicalFromHash(&c, h);  // big-endian: high 64 bits first
  static constexpr char digits[] = "0123456789abcdef";
  std::string s(32, '0');
  for (int i = 0; i < 16; ++i) {
    s[2 * i] = digits[c.digest[i] >> 4];
    s[2 * i + 1] = digits[c.digest[i] & 0xf];
  }
  return s;
}

struct srs_region::impl {
  std::string key_id;
  bi::mapped_region map;
  std::uint64_t content_bytes = 0;
};

srs_region::srs_region(impl* p) noexcept : p_(p) {}
srs_region::srs_region(srs_region&& o) noexcept : p_(o.p_) { o.p_ = nullptr; }
srs_region& srs_region::operator=(srs_region&& o) noexcept {
  if (this != &o) {
    delete p_;
    p_ = o.p_;
    o.p_ = nullptr;
  }
  return *this;
}
srs_region::~srs_region() { delete p_; }

const std::string& srs_region::key_id() const noexcept { return p_->key_id; }
std::span<const std::uint8_t> srs_region::bytes() const noexcept {
  return {static_cast<const std::uint8_t*>(p_->map.get_address()) + srs_header_bytes, p_->content_bytes};
}

result<void> srs_region::verify() const noexcept {
  if (content_hash(bytes()) != p_->key_id) return unexpected(error::srs_mismatch);
  return {};
}

result<srs_region> srs_region::open(std::string_view pool, std::string_view key_id, std::string* why) noexcept {
  try {
    if (!valid_key_id(key_id)) {
      say(why, "key id '" + std::string(key_id) + "' is not 32 lowercase hex digits");
      return unexpected(error::not_found);
    }
    const std::string name = object_name(pool, key_id);
    bi::mapped_region map;
    try {
      bi::shared_memory_object shm(bi::open_only, name.c_str(), bi::read_only);
      map = bi::mapped_region(shm, bi::read_only);
    } catch (const bi::interprocess_exception& e) {
      if (e.get_error_code() == bi::not_found_error) {
        say(why, "no SRS region '" + name + "'");
        return unexpected(error::not_found);
      }
      say(why, "cannot map SRS region '" + name + "': " + e.what());
      return unexpected(error::os_error);
    }
    std::uint64_t size = map.get_size();
    if (size < srs_header_bytes) {
      say(why, "SRS region '" + name + "': the object holds " + std::to_string(size) + " bytes, less than its header");
      return unexpected(error::srs_mismatch);
    }
    const auto& h = *static_cast<const srs_header*>(map.get_address());
    std::uint64_t magic = h.magic.load(std::memory_order_acquire);
    if (magic == 0) {
      say(why, "SRS region '" + name + "' is still being loaded (field 'magic' not published; if no load is "
                   "running, destroy it)");
      return unexpected(error::being_created);
    }
    auto bad = [&](const std::string& field, const std::string& has, const std::string& want) {
      say(why, "SRS region '" + name + "': field '" + field + "' is " + has + ", expected " + want);
      return unexpected(error::srs_mismatch);
    };
    if (magic != srs_magic) return bad("magic", std::to_string(magic), std::to_string(srs_magic));
    if (h.version != srs_version) return bad("version", std::to_string(h.version), std::to_string(srs_version));
    if (h.header_bytes != srs_header_bytes)
      return bad("header_bytes", std::to_string(h.header_bytes), std::to_string(srs_header_bytes));
    if (h.total_bytes != size) return bad("total_bytes", std::to_string(h.total_bytes), std::to_string(size) + " (object size)");
    if (h.content_bytes > size - srs_header_bytes)
      return bad("content_bytes", std::to_string(h.content_bytes), "at most " + std::to_string(size - srs_header_bytes));
    std::string stored(h.key_id, strnlen(h.key_id, sizeof h.key_id));
    if (stored != key_id) return bad("key_id", "'" + stored + "'", "'" + std::string(key_id) + "'");
    return srs_region(new impl{std::string(key_id), std::move(map), h.content_bytes});
  } catch (...) {
    say(why, "out of memory");
    return unexpected(error::os_error);
  }
}

result<srs_region> srs_region::load(std::string_view pool, const std::filesystem::path& zkey, std::string* why) noexcept {
  try {
    file_view f;
    int fd = ::open(zkey.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
      say(why, "cannot open " + zkey.string() + ": " + std::strerror(errno));
      return unexpected(error::not_found);
    }
    struct stat st {};
    if (::fstat(fd, &st) != 0 || st.st_size == 0) {
      ::close(fd);
      say(why, zkey.string() + " is empty or unreadable");
      return unexpected(error::srs_mismatch);
    }
    f.n = static_cast<std::size_t>(st.st_size);
    f.p = ::mmap(nullptr, f.n, PROT_READ, MAP_PRIVATE, fd, 0);
    ::close(fd);
    if (f.p == MAP_FAILED) {
      say(why, "cannot map " + zkey.string() + ": " + std::strerror(errno));
      return unexpected(error::os_error);
    }
    const std::string key = content_hash(f.bytes());
    const std::string name = object_name(pool, key);

    for (int attempt = 0;; ++attempt) {
      auto existing = open(pool, key, why);
      if (existing) {
        if (existing->bytes().size() != f.n) {
          say(why, "SRS region '" + name + "': field 'content_bytes' is " + std::to_string(existing->bytes().size()) +
                       ", the key file has " + std::to_string(f.n));
          return unexpected(error::srs_mismatch);
        }
        return existing;
      }
      if (existing.error() == error::being_created && attempt < 300) {  // another loader: wait up to 30 s
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        continue;
      }
      if (existing.error() != error::not_found) return unexpected(existing.error());

      const std::uint64_t total = srs_header_bytes + (f.n + 4095) / 4096 * 4096;
      struct statvfs sv {};
      if (::statvfs("/dev/shm", &sv) == 0 && total > static_cast<std::uint64_t>(sv.f_bavail) * sv.f_frsize) {
        say(why, "SRS region '" + name + "' needs " + std::to_string(total) + " bytes but /dev/shm has " +
                     std::to_string(static_cast<std::uint64_t>(sv.f_bavail) * sv.f_frsize) + " free");
        return unexpected(error::no_space);
      }
      bi::mapped_region map;
      try {
        bi::shared_memory_object shm(bi::create_only, name.c_str(), bi::read_write, bi::permissions(0660));
        shm.truncate(static_cast<bi::offset_t>(total));
        if (int rc = ::posix_fallocate(shm.get_mapping_handle().handle, 0, static_cast<off_t>(total)); rc != 0) {
          bi::shared_memory_object::remove(name.c_str());
          say(why, "cannot allocate " + std::to_string(total) + " bytes for SRS region '" + name + "': " + std::strerror(rc));
          return unexpected(rc == ENOSPC ? error::no_space : error::os_error);
        }
        map = bi::mapped_region(shm, bi::read_write);
      } catch (const bi::interprocess_exception& e) {
        if (e.get_error_code() == bi::already_exists_error) continue;  // lost a race: open the winner's
        bi::shared_memory_object::remove(name.c_str());
        say(why, "cannot create SRS region '" + name + "': " + e.what());
        return unexpected(error::os_error);
      }
      auto* base = static_cast<std::uint8_t*>(map.get_address());
      std::memcpy(base + srs_header_bytes, f.p, f.n);
      auto& h = *reinterpret_cast<srs_header*>(base);
      h.version = srs_version;
      h.header_bytes = srs_header_bytes;
      h.total_bytes = total;
      h.content_bytes = f.n;
      h.created_unix_ns = now_ns();
      std::memcpy(h.key_id, key.data(), key.size());
      h.magic.store(srs_magic, std::memory_order_release);
      return srs_region(new impl{key, std::move(map), f.n});
    }
  } catch (...) {
    say(why, "out of memory");
    return unexpected(error::os_error);
  }
}

result<void> srs_region::destroy(std::string_view pool, std::string_view key_id) noexcept {
  try {
    if (!valid_key_id(key_id)) return unexpected(error::not_found);
    if (!bi::shared_memory_object::remove(object_name(pool, key_id).c_str())) return unexpected(error::not_found);
    return {};
  } catch (...) {
    return unexpected(error::os_error);
  }
}

std::vector<std::string> list_srs(std::string_view pool) noexcept {
  std::vector<std::string> out;
  try {
    const std::string prefix = std::string(pool) + ".srs.";
    if (DIR* d = ::opendir("/dev/shm")) {
      while (dirent* e = ::readdir(d)) {
        std::string_view n(e->d_name);
        if (n.size() == prefix.size() + 32 && n.substr(0, prefix.size()) == prefix &&
            valid_key_id(n.substr(prefix.size())))
          out.emplace_back(n.substr(prefix.size()));
      }
      ::closedir(d);
    }
  } catch (...) {
  }
  return out;
}

}  // namespace cuzk::shm
