#include "shm/srs_region.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <linux/falloc.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <array>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <chrono>
#include <cstring>
#include <memory>
#include <optional>
#include <thread>
#include <vector>
#include <algorithm>

#include <xxhash.h>

#include "shm/failpoint.hpp"
#include "shm/lease.hpp"
#include "shm/prefault.hpp"
#include "shm/shm_dir.hpp"
#include "shm/shm_file.hpp"
#include "shm/srs_header.hpp"
#include "util/fd_guard.hpp"

namespace cuzk::shm {

using detail::mapping;

namespace srs_detail {

std::string object_name(std::string_view pool, std::string_view key_id) {
  return std::string(pool) + ".srs." + std::string(key_id);
}

std::string object_path(std::string_view pool, std::string_view key_id) { return shm_path(object_name(pool, key_id)); }

namespace {

std::string hex(XXH128_hash_t h) {
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

}  // namespace

std::optional<struct stat> pool_stat(std::string_view pool) {
  auto fd = detail::open_checked(shm_path(std::string(pool) + ".lock"), O_RDONLY, "lock file", nullptr);
  if (!fd) return std::nullopt;
  struct stat st {};
  bool ok = ::fstat(*fd, &st) == 0;
  ::close(*fd);
  if (!ok) return std::nullopt;
  return st;
}

}  // namespace srs_detail

content_hasher::content_hasher() : s_(XXH3_createState()) {
  if (!s_) throw std::bad_alloc();
  XXH3_128bits_reset(static_cast<XXH3_state_t*>(s_));
}
content_hasher::~content_hasher() { XXH3_freeState(static_cast<XXH3_state_t*>(s_)); }
void content_hasher::add(const void* p, std::size_t n) { XXH3_128bits_update(static_cast<XXH3_state_t*>(s_), p, n); }
void content_hasher::add_zeros(std::uint64_t n) {
  static const std::vector<std::uint8_t> zeros(1 << 20, 0);
  while (n) {
    const auto k = static_cast<std::size_t>(std::min<std::uint64_t>(n, zeros.size()));
    add(zeros.data(), k);
    n -= k;
  }
}
std::string content_hasher::digest() const {
  return srs_detail::hex(XXH3_128bits_digest(static_cast<XXH3_state_t*>(s_)));
}

using namespace srs_detail;

namespace {

using util::fd_guard;

constexpr std::uint64_t total_for(std::uint64_t content) { return srs_header_bytes + (content + 4095) / 4096 * 4096; }

/* A new unnamed file in the service's directory of `total` bytes in out.fd
   (locked when lock), with the pool's access, allocated and mapped writable;
   `what` names it in errors. linkat gives it its name once it is ready. */
result<mapping> unnamed_region(fd_guard& out, std::uint64_t total, const detail::file_access& access, bool lock,
                               const std::string& what, const std::string& path, std::string* why,
                               const std::vector<std::pair<std::uint64_t, std::uint64_t>>& holes = {}) {
  if (auto d = check_shm_dir(true, why); !d) return unexpected(d.error());
  const std::string dir = shm_dir();
  /* the object's pages that hold something: all but the whole pages inside the holes (content offsets, by offset) */
  std::vector<std::pair<std::uint64_t, std::uint64_t>> held;
  {
    const std::uint64_t page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
    std::uint64_t at = 0;
    for (const auto& [off, len] : holes) {
      const std::uint64_t first = (srs_header_bytes + off + page - 1) / page * page,
                          last = (srs_header_bytes + off + len) / page * page;
      if (first >= last) continue;
      if (first > at) held.emplace_back(at, first - at);
      at = last;
    }
    if (at < total) held.emplace_back(at, total - at);
  }
  std::uint64_t need = 0;
  for (const auto& [at, n] : held) need += n;
  struct statvfs sv {};
  if (::statvfs(dir.c_str(), &sv) == 0 && need > static_cast<std::uint64_t>(sv.f_bavail) * sv.f_frsize) {
    say(why, what + " needs " + std::to_string(need) + " bytes but " + dir + " has " +
                 std::to_string(static_cast<std::uint64_t>(sv.f_bavail) * sv.f_frsize) + " free");
    return unexpected(error::no_space);
  }
  do out.fd = ::open(dir.c_str(), O_TMPFILE | O_RDWR | O_NOFOLLOW | O_CLOEXEC, 0600);
  while (out.fd < 0 && errno == EINTR);
  if (out.fd < 0) {
    const int err = errno;
    say(why, "cannot create " + what + " in " + dir + ": " + std::strerror(err));
    return unexpected(err == EACCES ? error::access_denied : error::os_error);
  }
  if (lock && ::flock(out.fd, LOCK_EX) != 0) {
    say(why, "cannot lock " + what + ": " + std::strerror(errno));
    return unexpected(error::os_error);
  }
  if (auto a = detail::apply_access(out.fd, access, "SRS region", path, why); !a) return unexpected(a.error());
  if (::ftruncate(out.fd, static_cast<off_t>(total)) != 0) {
    say(why, "cannot size " + what + ": " + std::strerror(errno));
    return unexpected(errno == ENOSPC ? error::no_space : error::os_error);
  }
  for (const auto& [at, n] : held)
    if (int rc = ::posix_fallocate(out.fd, static_cast<off_t>(at), static_cast<off_t>(n)); rc != 0) {
      say(why, "cannot allocate " + std::to_string(need) + " bytes for " + what + ": " + std::strerror(rc));
      return unexpected(rc == ENOSPC ? error::no_space : error::os_error);
    }
  return mapping::of(out.fd, total, true, path, why);
}

/* The header of a region whose content is in place; the magic is stored last (release). */
void publish(std::uint8_t* base, std::uint64_t total, std::uint64_t content, const std::string& key,
             srs_origin origin = srs_origin::installed) {
  auto& h = *reinterpret_cast<srs_header*>(base);
  h.client_file.store(origin == srs_origin::client_file ? 1 : 0, std::memory_order_relaxed);
  h.version = srs_version;
  h.header_bytes = srs_header_bytes;
  h.total_bytes = total;
  h.content_bytes = content;
  h.created_unix_ns = now_ns();
  std::memcpy(h.key_id, key.data(), key.size());
  h.magic.store(srs_magic, std::memory_order_release);
}

std::array<std::uint64_t, 5> identity_of(const struct stat& st) {
  return {
      static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino),
      static_cast<std::uint64_t>(st.st_size),
      static_cast<std::uint64_t>(st.st_mtim.tv_sec) * 1000000000ULL + static_cast<std::uint64_t>(st.st_mtim.tv_nsec),
      static_cast<std::uint64_t>(st.st_ctim.tv_sec) * 1000000000ULL + static_cast<std::uint64_t>(st.st_ctim.tv_nsec)};
}

/* The region at path was loaded from the file of status st (best effort: a later load hashes the file). */
void record_file(const std::string& path, const struct stat* pool, const struct stat& st) {
  auto fd = detail::open_checked(path, O_RDWR, "SRS region", nullptr, pool);
  if (!fd) return;
  const auto id = identity_of(st);
  (void)!::pwrite(*fd, id.data(), sizeof id, offsetof(srs_header, file_identity));
  ::close(*fd);
}

/* An operator loads a key a client's file brought in first: from now on
   every client may name it by id. */
result<void> mark_installed(const std::string& path, const struct stat* pool, std::string* why) {
  auto fd = detail::open_checked(path, O_RDWR, "SRS region", why, pool);
  if (!fd) return unexpected(fd.error());
  fd_guard guard{*fd};
  const std::uint32_t installed = 0;
  if (::pwrite(*fd, &installed, sizeof installed, offsetof(srs_header, client_file)) != sizeof installed) {
    say(why, "cannot mark SRS region " + path + " installed: " + std::strerror(errno));
    return unexpected(error::os_error);
  }
  return {};
}

}  // namespace

std::uint64_t srs_region_bytes(std::uint64_t content_bytes) noexcept { return total_for(content_bytes); }

bool is_key_id(std::string_view k) noexcept {
  if (k.size() != 32) return false;
  for (char c : k)
    if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f'))) return false;
  return true;
}

std::string content_hash(std::span<const std::uint8_t> bytes) noexcept {
  return hex(XXH3_128bits(bytes.data(), bytes.size()));
}

struct srs_region::impl {
  std::string key_id;
  mapping map;
  std::uint64_t content_bytes = 0;
  bool verified = false;
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
  return {static_cast<const std::uint8_t*>(p_->map.data()) + srs_header_bytes, p_->content_bytes};
}
bool srs_region::verified() const noexcept { return p_->verified; }
srs_origin srs_region::origin() const noexcept {
  const auto& h = *static_cast<const srs_header*>(p_->map.data());
  return h.client_file.load(std::memory_order_acquire) ? srs_origin::client_file : srs_origin::installed;
}

result<void> srs_region::verify() const noexcept {
  try {
    const auto ranges = released();
    const auto& h = *static_cast<const srs_header*>(p_->map.data());
    if (!ranges.empty()) {
      if (!ranges_fit(ranges, p_->content_bytes)) return unexpected(error::srs_mismatch);
      if (hash_around(bytes(), ranges, h.resident_rule) !=
          std::string(h.resident_hash, strnlen(h.resident_hash, sizeof h.resident_hash)))
        return unexpected(error::srs_mismatch);
    } else if (content_hash(bytes()) != p_->key_id) {
      return unexpected(error::srs_mismatch);
    }
    p_->verified = true;
    return {};
  } catch (...) {
    return unexpected(error::os_error);
  }
}

const void* srs_region::header() const noexcept { return p_->map.data(); }

result<srs_region> srs_region::open(std::string_view pool, std::string_view key_id, std::string* why) noexcept {
  return open_as(pool, key_id, false, why);
}

result<srs_region> srs_region::open_as(std::string_view pool, std::string_view key_id, bool reclaim,
                                       std::string* why) noexcept {
  try {
    if (!is_key_id(key_id)) {
      say(why, "key id '" + std::string(key_id) + "' is not 32 lowercase hex digits");
      return unexpected(error::not_found);
    }
    const std::string name = object_name(pool, key_id), path = object_path(pool, key_id);
    if (auto d = check_shm_dir(false, why); !d) return unexpected(d.error());
    auto ps = pool_stat(pool);
    auto fd = detail::open_checked(path, O_RDONLY, "SRS region", why, ps ? &*ps : nullptr);
    if (!fd) {
      if (fd.error() == error::not_found) say(why, "no SRS region '" + name + "'");
      return unexpected(fd.error());
    }
    fd_guard guard{*fd};
    struct stat st {};
    if (::fstat(*fd, &st) != 0) {
      say(why, "cannot stat SRS region '" + name + "': " + std::strerror(errno));
      return unexpected(error::os_error);
    }
    const auto size = static_cast<std::uint64_t>(st.st_size);
    if (size < srs_header_bytes) {
      say(why, "SRS region '" + name + "': the object holds " + std::to_string(size) + " bytes, less than its header");
      return unexpected(error::srs_mismatch);
    }
    auto map = mapping::of(*fd, size, false, path, why);
    if (!map) return unexpected(map.error());
    const auto& h = *static_cast<const srs_header*>(map->data());
    std::uint64_t magic = h.magic.load(std::memory_order_acquire);
    if (magic == 0) {
      if (::flock(*fd, LOCK_EX | LOCK_NB) != 0) {
        say(why, "SRS region '" + name + "' is still being loaded by a live loader (field 'magic' not yet published)");
        return unexpected(error::being_created);
      }
      magic = h.magic.load(std::memory_order_acquire);  // its loader may have finished meanwhile
      if (magic == 0) {
        // Nobody holds the load lock: the loader died. While we hold it no one
        // else can remove or replace this inode, so the name is checked once.
        struct stat now {};
        if (reclaim && ::lstat(path.c_str(), &now) == 0 && now.st_dev == st.st_dev && now.st_ino == st.st_ino)
          ::unlink(path.c_str());
        say(why, "SRS region '" + name + "' was left half-written by a loader that died" +
                     (reclaim ? std::string("; removed it to load again") : "; loading the key again reclaims it"));
        return unexpected(error::srs_abandoned);
      }
    }
    auto bad = [&](const std::string& field, const std::string& has, const std::string& want) {
      say(why, "SRS region '" + name + "': field '" + field + "' is " + has + ", expected " + want);
      return unexpected(error::srs_mismatch);
    };
    if (magic != srs_magic) return bad("magic", std::to_string(magic), std::to_string(srs_magic));
    if (h.version != srs_version) return bad("version", std::to_string(h.version), std::to_string(srs_version));
    if (h.header_bytes != srs_header_bytes)
      return bad("header_bytes", std::to_string(h.header_bytes), std::to_string(srs_header_bytes));
    if (h.total_bytes != size)
      return bad("total_bytes", std::to_string(h.total_bytes), std::to_string(size) + " (object size)");
    if (h.content_bytes > size - srs_header_bytes)
      return bad("content_bytes", std::to_string(h.content_bytes),
                 "at most " + std::to_string(size - srs_header_bytes));
    std::string stored(h.key_id, strnlen(h.key_id, sizeof h.key_id));
    if (stored != key_id) return bad("key_id", "'" + stored + "'", "'" + std::string(key_id) + "'");
    const std::uint64_t content = h.content_bytes;
    return srs_region(new impl{std::string(key_id), std::move(*map), content, false});
  } catch (...) {
    say(why, "out of memory");
    return unexpected(error::os_error);
  }
}

result<srs_region> srs_region::load(std::string_view pool, const std::filesystem::path& zkey,
                                    std::string* why) noexcept {
  try {
    int fd;
    do fd = ::open(zkey.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC);
    while (fd < 0 && errno == EINTR);
    if (fd < 0) {
      const int err = errno;
      if (err == ELOOP) {
        say(why, "key file " + zkey.string() + " is a symbolic link; key files are opened without following links");
        return unexpected(error::not_regular_file);
      }
      say(why, "cannot open " + zkey.string() + ": " + std::strerror(err));
      return unexpected(err == ENOENT ? error::not_found : err == EACCES ? error::access_denied : error::os_error);
    }
    fd_guard guard{fd};
    return load(pool, fd, zkey.string(), why);
  } catch (...) {
    say(why, "out of memory");
    return unexpected(error::os_error);
  }
}

result<srs_region> srs_region::load(std::string_view pool, int fd, std::string_view display_name, std::string* why,
                                    srs_origin origin) noexcept {
  return load(pool, fd, display_name, why, origin, {});
}

result<srs_region> srs_region::load(std::string_view pool, int fd, std::string_view display_name, std::string* why,
                                    srs_origin origin,
                                    std::span<const std::pair<std::uint64_t, std::uint64_t>> omit_ranges) noexcept {
  try {
    const std::string file = "key file " + std::string(display_name);
    struct stat st {};
    if (::fstat(fd, &st) != 0) {
      say(why, "cannot stat " + file + ": " + std::strerror(errno));
      return unexpected(error::os_error);
    }
    if (!S_ISREG(st.st_mode)) {
      const char* kind = S_ISDIR(st.st_mode)    ? "a directory"
                         : S_ISFIFO(st.st_mode) ? "a FIFO"
                         : S_ISLNK(st.st_mode)  ? "a symbolic link"
                         : S_ISSOCK(st.st_mode) ? "a socket"
                                                : "a device";
      say(why, file + " is " + kind + ", not a regular file");
      return unexpected(error::not_regular_file);
    }
    const auto n = static_cast<std::uint64_t>(st.st_size);
    if (n == 0) {
      say(why, file + " is empty");
      return unexpected(error::srs_mismatch);
    }
    auto shrank = [&](std::int64_t got, std::uint64_t at) {
      if (got < 0) {
        say(why, "cannot read " + file + ": " + std::strerror(errno));
        return unexpected(error::os_error);
      }
      say(why, file + " shrank while being read (it ended at byte " +
                   std::to_string(at + static_cast<std::uint64_t>(got)) + " of the " + std::to_string(n) + " it had)");
      return unexpected(error::srs_mismatch);
    };
    std::vector<std::pair<std::uint64_t, std::uint64_t>> omit;
    for (const auto& [off, len] : omit_ranges)
      if (len && off < n) omit.emplace_back(off, std::min(len, n - off));
    std::sort(omit.begin(), omit.end());
    for (std::size_t i = 1; i < omit.size(); ++i)
      if (omit[i].first < omit[i - 1].first + omit[i - 1].second) {
        say(why, "the ranges of " + file + " to leave out of its SRS region overlap");
        return unexpected(error::srs_mismatch);
      }
    if (omit.size() > max_released) {
      say(why, "an SRS region can leave out at most " + std::to_string(max_released) + " ranges");
      return unexpected(error::srs_mismatch);
    }
    /* Calls f(offset, bytes, omitted range index or -1) for the pieces of [off, off + len), in order. */
    auto pieces = [&](std::uint64_t off, std::uint64_t len, auto&& f) {
      const std::uint64_t end = off + len;
      for (std::size_t i = 0; i < omit.size() && off < end; ++i) {
        const auto [o, l] = omit[i];
        if (o + l <= off) continue;
        if (o >= end) break;
        if (o > off) f(off, o - off, -1), off = o;
        const std::uint64_t stop = std::min(end, o + l);
        f(off, stop - off, static_cast<int>(i));
        off = stop;
      }
      if (off < end) f(off, end - off, -1);
    };
    std::string key, resident;
    std::vector<released_range> left_out;
    {
      hasher hs, rest;
      std::vector<std::unique_ptr<hasher>> each;
      for (std::size_t i = 0; i < omit.size(); ++i) each.push_back(std::make_unique<hasher>());
      std::vector<std::uint8_t> buf(static_cast<std::size_t>(std::min<std::uint64_t>(n, copy_chunk)));
      for (std::uint64_t off = 0; off < n; off += buf.size()) {
        const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(buf.size(), n - off));
        std::int64_t got = read_at(fd, buf.data(), want, off);
        if (got != static_cast<std::int64_t>(want)) return shrank(got, off);
        hs.add(buf.data(), want);
        if (!omit.empty())
          pieces(off, want, [&](std::uint64_t at, std::uint64_t len, int i) {
            if (i < 0)
              rest.add(buf.data() + (at - off), static_cast<std::size_t>(len));
            else {
              each[static_cast<std::size_t>(i)]->add(buf.data() + (at - off), static_cast<std::size_t>(len));
              const auto& [o, l] = omit[static_cast<std::size_t>(i)];
              if (at == o) add_released(rest, o, l, rule_skip);
            }
          });
        if (!omit.empty())
          (void)::posix_fadvise(fd, static_cast<off_t>(off), static_cast<off_t>(want), POSIX_FADV_DONTNEED);
      }
      key = hs.digest();
      resident = rest.digest();
      for (std::size_t i = 0; i < omit.size(); ++i)
        left_out.push_back({omit[i].first, omit[i].second, each[i]->digest()});
    }
    const std::string name = object_name(pool, key), path = object_path(pool, key);
    auto ps = pool_stat(pool);
    const detail::file_access access = ps ? detail::access_of(*ps) : detail::file_access{};

    for (int attempt = 0;; ++attempt) {
      auto existing = open_as(pool, key, true, why);
      if (existing) {
        if (existing->bytes().size() != n) {
          say(why, "SRS region '" + name + "': field 'content_bytes' is " + std::to_string(existing->bytes().size()) +
                       ", the key file has " + std::to_string(n));
          return unexpected(error::srs_mismatch);
        }
        if (!existing->verify()) {
          say(why, "SRS region '" + name +
                       "' does not hash to its key id (its content was changed after it was "
                       "loaded); destroy it and load the key again");
          return unexpected(error::srs_mismatch);
        }
        if (origin == srs_origin::installed && existing->origin() == srs_origin::client_file)
          if (auto m = mark_installed(path, ps ? &*ps : nullptr, why); !m) return unexpected(m.error());
        record_file(path, ps ? &*ps : nullptr, st);
        return existing;
      }
      if (existing.error() == error::srs_abandoned && attempt < 300) continue;  // reclaimed: load it ourselves
      if (existing.error() == error::being_created && attempt < 300) {          // another loader: wait up to 30 s
        std::this_thread::sleep_for(std::chrono::milliseconds(100));
        continue;
      }
      if (existing.error() != error::not_found) return unexpected(existing.error());

      // An unnamed file, locked and sized before linkat gives it its name
      // (failing, like O_EXCL, when the name is taken): whoever sees the name
      // sees either the load lock held or the header published.
      const std::uint64_t total = total_for(n);
      fd_guard out;
      auto map = unnamed_region(out, total, access, true, "SRS region '" + name + "'", path, why, omit);
      if (!map) return unexpected(map.error());
      const std::string self = "/proc/self/fd/" + std::to_string(out.fd);
      if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, path.c_str(), AT_SYMLINK_FOLLOW) != 0) {
        if (errno == EEXIST) continue;  // lost a race: open the winner's
        say(why, "cannot name SRS region '" + name + "': " + std::strerror(errno));
        return unexpected(error::os_error);
      }
      auto* base = static_cast<std::uint8_t*>(map->data());
      hasher hs;
      std::optional<result<srs_region>> failed;
      pieces(0, n, [&](std::uint64_t from, std::uint64_t len, int omitted) {
        if (failed) return;
        if (omitted >= 0) {
          add_released(hs, from, len, rule_skip);
          return;
        }
        for (std::uint64_t off = from; off < from + len; off += copy_chunk) {
          const std::size_t want = static_cast<std::size_t>(std::min<std::uint64_t>(copy_chunk, from + len - off));
          std::int64_t got = read_at(fd, base + srs_header_bytes + off, want, off);
          if (got != static_cast<std::int64_t>(want)) {
            failed = shrank(got, off);
            return;
          }
          hs.add(base + srs_header_bytes + off, want);
          failpoint("srs.load.copy");
        }
      });
      if (failed) {
        ::unlink(path.c_str());  // ours: no one removes or replaces it while we hold its lock
        return std::move(*failed);
      }
      if (hs.digest() != (omit.empty() ? key : resident)) {
        ::unlink(path.c_str());
        say(why, file + " changed while being loaded (its bytes no longer hash to " + key + "); nothing was kept");
        return unexpected(error::srs_mismatch);
      }
      if (!omit.empty() && !write_ranges(out.fd, left_out, resident)) {
        ::unlink(path.c_str());
        say(why, "cannot write the header of SRS region '" + name + "': " + std::strerror(errno));
        return unexpected(error::os_error);
      }
      {
        const auto id = identity_of(st);
        std::memcpy(reinterpret_cast<srs_header*>(base)->file_identity, id.data(), sizeof id);
      }
      publish(base, total, n, key, origin);  // closing out.fd drops the lock
      return srs_region(new impl{key, std::move(*map), n, true});
    }
  } catch (...) {
    say(why, "out of memory");
    return unexpected(error::os_error);
  }
}

result<srs_region> srs_region::create(std::string_view pool, std::uint64_t n,
                                      const std::function<void(std::span<std::uint8_t>)>& fill, std::string* why) {
  if (n == 0) {
    say(why, "an SRS region needs content");
    return unexpected(error::srs_mismatch);
  }
  const std::uint64_t total = total_for(n);
  const std::string what = "the new SRS region of pool '" + std::string(pool) + "'";
  auto ps = pool_stat(pool);
  const detail::file_access access = ps ? detail::access_of(*ps) : detail::file_access{};
  fd_guard out;
  auto map = unnamed_region(out, total, access, false, what, shm_path(std::string(pool) + ".srs.new"), why);
  if (!map) return unexpected(map.error());
  auto* base = static_cast<std::uint8_t*>(map->data());
  // every page faulted in at once, from all cores: fill then writes at memory speed
  if (auto p = detail::prefault(base, total, 0, 4096); !p) {
    say(why, "cannot fault in " + what);
    return unexpected(p.error());
  }
  fill(std::span<std::uint8_t>(base + srs_header_bytes, n));
  const std::string key = content_hash(std::span<const std::uint8_t>(base + srs_header_bytes, n));
  publish(base, total, n, key);
  const std::string path = object_path(pool, key);
  const std::string self = "/proc/self/fd/" + std::to_string(out.fd);
  if (::linkat(AT_FDCWD, self.c_str(), AT_FDCWD, path.c_str(), AT_SYMLINK_FOLLOW) != 0) {
    if (errno != EEXIST) {
      say(why, "cannot name SRS region '" + object_name(pool, key) + "': " + std::strerror(errno));
      return unexpected(error::os_error);
    }
    auto existing = open_as(pool, key, false, why);  // the same key made before: keep that one
    if (!existing) return existing;
    if (existing->bytes().size() != n || !existing->verify()) {
      say(why, "SRS region '" + object_name(pool, key) + "' exists with other content; destroy it and run again");
      return unexpected(error::srs_mismatch);
    }
    if (existing->origin() == srs_origin::client_file)
      if (auto m = mark_installed(path, ps ? &*ps : nullptr, why); !m) return unexpected(m.error());
    return existing;
  }
  return srs_region(new impl{key, std::move(*map), n, true});
}

result<srs_region> srs_region::find_loaded(std::string_view pool, int fd, std::string* why) noexcept {
  try {
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) return unexpected(error::not_found);
    const auto id = identity_of(st);
    for (const auto& key : list_srs(pool)) {
      auto r = open(pool, key);
      if (!r) continue;
      const auto& h = *static_cast<const srs_header*>(r->header());
      if (std::memcmp(h.file_identity, id.data(), sizeof id) != 0 || r->bytes().size() != id[2]) continue;
      if (!r->verify()) {
        say(why, "SRS region '" + object_name(pool, key) + "' does not hash as its header says");
        return unexpected(error::srs_mismatch);
      }
      return r;
    }
    return unexpected(error::not_found);
  } catch (...) {
    say(why, "out of memory");
    return unexpected(error::os_error);
  }
}

result<void> srs_region::destroy(std::string_view pool, std::string_view key_id) noexcept {
  try {
    if (!is_key_id(key_id)) return unexpected(error::not_found);
    if (auto d = check_shm_dir(true); !d) return unexpected(d.error());
    if (::unlink(object_path(pool, key_id).c_str()) != 0)
      return unexpected(errno == ENOENT ? error::not_found : error::os_error);
    return {};
  } catch (...) {
    return unexpected(error::os_error);
  }
}

std::vector<std::string> list_srs(std::string_view pool) noexcept {
  std::vector<std::string> out;
  try {
    const std::string prefix = std::string(pool) + ".srs.";
    if (!check_shm_dir(false)) return out;
    if (DIR* d = ::opendir(shm_dir().c_str())) {
      while (dirent* e = ::readdir(d)) {
        std::string_view n(e->d_name);
        if (n.size() == prefix.size() + 32 && n.substr(0, prefix.size()) == prefix &&
            is_key_id(n.substr(prefix.size())))
          out.emplace_back(n.substr(prefix.size()));
      }
      ::closedir(d);
    }
  } catch (...) {
  }
  return out;
}

}  // namespace cuzk::shm
