// Releasing an SRS region's content from memory and bringing it back from the key's file (srs_region.hpp).
#include <fcntl.h>
#include <linux/falloc.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstddef>
#include <cstring>
#include <vector>

#include "shm/shm_file.hpp"
#include "shm/srs_header.hpp"
#include "util/fd_guard.hpp"

namespace cuzk::shm {

using namespace srs_detail;

namespace srs_detail {

std::vector<released_range> ranges_of(const srs_header& h) {
  std::vector<released_range> v;
  const std::uint32_t n = std::min<std::uint32_t>(h.n_released, max_released);
  for (std::uint32_t i = 0; i < n; ++i)
    v.push_back({h.released[i].offset, h.released[i].bytes,
                 std::string(h.released[i].hash, strnlen(h.released[i].hash, sizeof h.released[i].hash))});
  if (v.empty())
    if (const auto len = h.released_bytes.load(std::memory_order_acquire))
      v.push_back({h.released_offset.load(std::memory_order_acquire), len, {}});
  std::sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.offset < b.offset; });
  return v;
}

bool ranges_fit(const std::vector<released_range>& ranges, std::uint64_t content_bytes) noexcept {
  std::uint64_t end = 0;
  for (const auto& r : ranges) {
    if (r.offset < end || r.offset > content_bytes || r.bytes > content_bytes - r.offset) return false;
    end = r.offset + r.bytes;
  }
  return true;
}

void add_released(hasher& h, std::uint64_t offset, std::uint64_t bytes, std::uint32_t rule) {
  if (rule == rule_zeros) return h.add_zeros(bytes);
  std::uint8_t le[16];
  for (int i = 0; i < 8; ++i) {
    le[i] = static_cast<std::uint8_t>(offset >> (8 * i));
    le[8 + i] = static_cast<std::uint8_t>(bytes >> (8 * i));
  }
  h.add(le, sizeof le);
}

std::string hash_around(std::span<const std::uint8_t> content, const std::vector<released_range>& ranges,
                        std::uint32_t rule) {
  hasher h;
  std::uint64_t at = 0;
  for (const auto& r : ranges) {  // by offset, disjoint, within the content (the callers check)
    h.add(content.data() + at, static_cast<std::size_t>(r.offset - at));
    add_released(h, r.offset, r.bytes, rule);
    at = r.offset + r.bytes;
  }
  h.add(content.data() + at, static_cast<std::size_t>(content.size() - at));
  return h.digest();
}

bool write_ranges(int fd, const std::vector<released_range>& ranges, const std::string& resident) {
  srs_header w{};
  std::memcpy(w.resident_hash, resident.data(), std::min(resident.size(), sizeof w.resident_hash - 1));
  w.n_released = static_cast<std::uint32_t>(ranges.size());
  w.resident_rule = rule_skip;
  for (std::size_t i = 0; i < ranges.size(); ++i) {
    w.released[i].offset = ranges[i].offset;
    w.released[i].bytes = ranges[i].bytes;
    std::memcpy(w.released[i].hash, ranges[i].hash.data(),
                std::min(ranges[i].hash.size(), sizeof w.released[i].hash - 1));
  }
  const std::uint64_t first[2] = {ranges.empty() ? 0 : ranges[0].offset, ranges.empty() ? 0 : ranges[0].bytes};
  auto put = [&](const void* p, std::size_t n, std::size_t at) {
    return ::pwrite(fd, p, n, static_cast<off_t>(at)) == static_cast<ssize_t>(n);
  };
  return put(w.resident_hash, sizeof w.resident_hash, offsetof(srs_header, resident_hash)) &&
         put(w.released, sizeof w.released, offsetof(srs_header, released)) &&
         put(&w.n_released, sizeof w.n_released, offsetof(srs_header, n_released)) &&
         put(&w.resident_rule, sizeof w.resident_rule, offsetof(srs_header, resident_rule)) &&
         put(first, sizeof first, offsetof(srs_header, released_offset));
}

}  // namespace srs_detail

namespace {

using util::fd_guard;

/* The region's object opened for writing, after the owner checks. */
result<int> open_writable(std::string_view pool, std::string_view key_id, std::string* why) {
  auto ps = pool_stat(pool);
  return detail::open_checked(object_path(pool, key_id), O_RDWR, "SRS region", why, ps ? &*ps : nullptr);
}

/* Content [begin, end): whole pages punched out of the object (tmpfs frees them; they read as zeros),
   the partial ones at the ends zeroed. */
bool punch(int fd, std::uint64_t offset, std::uint64_t length) {
  const std::uint64_t page = static_cast<std::uint64_t>(::sysconf(_SC_PAGESIZE));
  const std::uint64_t begin = srs_header_bytes + offset, end = begin + length;
  const std::uint64_t first = (begin + page - 1) / page * page, last = end / page * page;
  const std::vector<std::uint8_t> zeros(static_cast<std::size_t>(page), 0);
  auto zero = [&](std::uint64_t from, std::uint64_t to) {
    for (std::uint64_t at = from; at < to;) {
      const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(to - at, page));
      if (::pwrite(fd, zeros.data(), n, static_cast<off_t>(at)) != static_cast<ssize_t>(n)) return false;
      at += n;
    }
    return true;
  };
  if (first >= last) return zero(begin, end);
  return zero(begin, first) && zero(last, end) &&
         ::fallocate(fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, static_cast<off_t>(first),
                     static_cast<off_t>(last - first)) == 0;
}

}  // namespace

std::vector<released_range> srs_region::released() const {
  return ranges_of(*static_cast<const srs_header*>(header()));
}

std::uint64_t srs_region::released_bytes() const noexcept {
  try {
    std::uint64_t n = 0;
    for (const auto& r : released()) n += r.bytes;
    return n;
  } catch (...) {
    return 0;
  }
}

result<std::uint64_t> srs_region::release(std::string_view pool, std::string_view key_id, std::uint64_t offset,
                                          std::uint64_t length, std::string* why, bool content_verified) noexcept {
  const std::pair<std::uint64_t, std::uint64_t> r{offset, length};
  return release(pool, key_id, std::span(&r, 1), why, content_verified);
}

result<std::uint64_t> srs_region::release(std::string_view pool, std::string_view key_id,
                                          std::span<const std::pair<std::uint64_t, std::uint64_t>> ranges,
                                          std::string* why, bool content_verified) noexcept {
  try {
    auto r = open(pool, key_id, why);
    if (!r) return unexpected(r.error());
    const std::string name = object_name(pool, key_id);
    const std::uint64_t content = r->bytes().size();
    auto all = r->released();
    if (!ranges_fit(all, content)) {
      say(why, "SRS region '" + name +
                   "': its header's released ranges overlap or lie beyond its content; nothing released");
      return unexpected(error::srs_mismatch);
    }
    std::vector<std::pair<std::uint64_t, std::uint64_t>> todo;
    std::uint64_t done = 0;
    for (const auto& [off, len] : ranges) {
      if (off > content || len > content - off) {
        say(why, "the range to release lies beyond SRS region '" + name + "'");
        return unexpected(error::srs_mismatch);
      }
      if (!len) continue;
      bool same = false;
      for (const auto& x : all) {
        if (x.offset == off && x.bytes == len)
          same = true;
        else if (off < x.offset + x.bytes && x.offset < off + len) {
          say(why, "SRS region '" + name + "' already released another range over these bytes");
          return unexpected(error::srs_mismatch);
        }
      }
      for (const auto& [o2, l2] : todo)
        if (off < o2 + l2 && o2 < off + len) {
          say(why, "the ranges to release from SRS region '" + name + "' overlap");
          return unexpected(error::srs_mismatch);
        }
      if (same)
        done += len;
      else
        todo.emplace_back(off, len);
    }
    if (todo.empty()) return done;
    if (all.size() + todo.size() > max_released) {
      say(why, "SRS region '" + name + "' can record at most " + std::to_string(max_released) + " released ranges");
      return unexpected(error::srs_mismatch);
    }
    const auto& hd = *static_cast<const srs_header*>(r->header());
    const std::string expected =
        all.empty() ? r->key_id() : std::string(hd.resident_hash, strnlen(hd.resident_hash, sizeof hd.resident_hash));
    std::vector<released_range> after = all;
    for (const auto& [off, len] : todo) after.push_back({off, len, {}});
    std::sort(after.begin(), after.end(), [](const auto& a, const auto& b) { return a.offset < b.offset; });
    /* One pass over the content: what it holds checked against its header (unless the caller just did), each
       range to release hashed (restore checks what it reads back by it), and the hash of what will remain. */
    const bool check = !content_verified;
    hasher before, remains;
    const auto held = r->bytes();
    auto feed = [&](std::uint64_t from, std::uint64_t to, hasher* own) {
      for (std::uint64_t at = from; at < to; at += copy_chunk) {
        const auto piece = held.subspan(static_cast<std::size_t>(at),
                                        static_cast<std::size_t>(std::min<std::uint64_t>(copy_chunk, to - at)));
        if (check) before.add(piece.data(), piece.size());
        (own ? *own : remains).add(piece.data(), piece.size());
      }
    };
    std::uint64_t at = 0;
    for (auto& x : after) {
      feed(at, x.offset, nullptr);
      if (std::any_of(all.begin(), all.end(), [&](const auto& y) { return y.offset == x.offset; })) {
        if (check) add_released(before, x.offset, x.bytes, hd.resident_rule);
      } else {
        hasher own;
        feed(x.offset, x.offset + x.bytes, &own);
        x.hash = own.digest();
      }
      add_released(remains, x.offset, x.bytes, rule_skip);
      at = x.offset + x.bytes;
    }
    feed(at, held.size(), nullptr);
    if (check && before.digest() != expected) {
      say(why, "SRS region '" + name + "' does not hash to its key id; nothing released");
      return unexpected(error::srs_mismatch);
    }
    auto fd = open_writable(pool, key_id, why);
    if (!fd) return unexpected(fd.error());
    fd_guard guard{*fd};
    // No lock: its loader's (LOCK_EX) lives as long as the loader's mapping does; two releases of the same
    // ranges write the same bytes.
    for (const auto& [off, len] : todo) {
      if (!punch(*fd, off, len)) {
        say(why,
            "cannot release " + std::to_string(len) + " bytes of SRS region '" + name + "': " + std::strerror(errno));
        return unexpected(error::os_error);
      }
      done += len;
    }
    if (!write_ranges(*fd, after, remains.digest())) {
      say(why, "cannot record the release in SRS region '" + name + "': " + std::strerror(errno));
      return unexpected(error::os_error);
    }
    return done;
  } catch (...) {
    say(why, "out of memory");
    return unexpected(error::os_error);
  }
}

result<std::uint64_t> srs_region::restore(std::string_view pool, std::string_view key_id, int file,
                                          std::string_view display_name, std::string* why) noexcept {
  const std::pair<std::uint64_t, std::uint64_t> all{0, ~std::uint64_t(0)};
  return restore(pool, key_id, file, display_name, why, std::span(&all, 1));
}

result<std::uint64_t> srs_region::restore(std::string_view pool, std::string_view key_id, int file,
                                          std::string_view display_name, std::string* why,
                                          std::span<const std::pair<std::uint64_t, std::uint64_t>> only) noexcept {
  try {
    auto r = open(pool, key_id, why);
    if (!r) return unexpected(r.error());
    const std::string name = object_name(pool, key_id);
    auto ranges = r->released();
    if (ranges.empty()) return std::uint64_t(0);
    if (!ranges_fit(ranges, r->bytes().size())) {
      say(why, "SRS region '" + name +
                   "': its header's released ranges overlap or lie beyond its content; nothing restored");
      return unexpected(error::srs_mismatch);
    }
    auto fd = open_writable(pool, key_id, why);
    if (!fd) return unexpected(fd.error());
    fd_guard guard{*fd};
    std::vector<released_range> left;
    std::uint64_t restored = 0;
    /* the header says what is still released: on a failure, the range that failed and those after it */
    auto record = [&](std::size_t failed) {
      auto still = left;
      still.insert(still.end(), ranges.begin() + static_cast<std::ptrdiff_t>(failed), ranges.end());
      return write_ranges(*fd, still, still.empty() ? std::string() : hash_around(r->bytes(), still));
    };
    std::vector<std::uint8_t> buf(copy_chunk);
    for (std::size_t i = 0; i < ranges.size(); ++i) {
      const auto& x = ranges[i];
      const bool wanted = std::any_of(only.begin(), only.end(), [&](const auto& o) {
        return x.offset < o.first + std::min(o.second, ~std::uint64_t(0) - o.first) && o.first < x.offset + x.bytes;
      });
      if (!wanted || x.hash.empty()) {  // not asked for, or its bytes were never hashed: nothing to check them by
        left.push_back(x);
        continue;
      }
      auto fail = [&](error e, const std::string& s) {
        (void)punch(*fd, x.offset, x.bytes);
        (void)record(i);
        say(why, s);
        return unexpected(e);
      };
      hasher h;
      for (std::uint64_t at = 0; at < x.bytes;) {
        const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(buf.size(), x.bytes - at));
        if (read_at(file, buf.data(), n, x.offset + at) != static_cast<std::int64_t>(n))
          return fail(error::srs_mismatch, "cannot read bytes " + std::to_string(x.offset + at) + ".." +
                                               std::to_string(x.offset + at + n) + " of the key file " +
                                               std::string(display_name) + " back into SRS region '" + name + "'");
        h.add(buf.data(), n);
        if (::pwrite(*fd, buf.data(), n, static_cast<off_t>(srs_header_bytes + x.offset + at)) !=
            static_cast<ssize_t>(n)) {
          const int err = errno;
          return fail(err == ENOSPC ? error::no_space : error::os_error,
                      "cannot write SRS region '" + name + "': " + std::strerror(err));
        }
        at += n;
      }
      if (const auto got = h.digest(); got != x.hash)
        return fail(error::srs_mismatch, "the key file " + std::string(display_name) +
                                             " no longer holds what SRS region '" + name + "' released (bytes " +
                                             std::to_string(x.offset) + ".." + std::to_string(x.offset + x.bytes) +
                                             " hash to " + got + ", not " + x.hash + "); that range stays released");
      restored += x.bytes;
    }
    if (!record(ranges.size())) {
      say(why, "cannot record the restore in SRS region '" + name + "': " + std::strerror(errno));
      return unexpected(error::os_error);
    }
    return restored;
  } catch (...) {
    say(why, "out of memory");
    return unexpected(error::os_error);
  }
}

}  // namespace cuzk::shm
