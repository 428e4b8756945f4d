// The SRS region's header and the helpers its loader and its releases share
// (shm/srs_region.cpp, shm/srs_release.cpp); not part of the library's API.
#pragma once

#include <sys/stat.h>

#include <atomic>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "shm/srs_region.hpp"
#include "util/read_at.hpp"

namespace cuzk::shm::srs_detail {

inline constexpr std::uint32_t srs_version = 1;
inline constexpr std::uint64_t srs_header_bytes = 4096;
inline constexpr std::size_t copy_chunk = 1 << 20;
inline constexpr std::size_t max_released = 8;

/* resident_hash rules: a released range hashed as its bytes of zeros (regions written before the rule was
   recorded), or in its place as its offset and length (8 bytes each, little-endian), so that what remains is
   hashed without reading tens of gigabytes of zeros. Writers use skip. */
inline constexpr std::uint32_t rule_zeros = 0, rule_skip = 1;

/* A released range of the content and the hash of the bytes it held (32 hex digits, or empty: unknown). */
struct released_entry {
  std::uint64_t offset, bytes;
  char hash[40];
};

struct srs_header {
  std::atomic<std::uint64_t> magic;  // stored last (release)
  std::uint32_t version;
  std::uint32_t header_bytes;
  std::uint64_t total_bytes;    // the object's size
  std::uint64_t content_bytes;  // the .zkey's size
  std::uint64_t created_unix_ns;
  char key_id[40];                         // 32 hex digits, NUL-padded
  std::atomic<std::uint32_t> client_file;  // 1: srs_origin::client_file (older regions: 0, installed)
  /* the first released range (regions of the first release's version: the only one, its hash unknown) */
  std::atomic<std::uint64_t> released_offset, released_bytes;
  /* the hash of the content with every released range read as zeros: what verify checks once
     anything was released (the key id stays the file's) */
  char resident_hash[40];
  std::uint32_t n_released;  // entries of released[], by offset (0: the range above, if any)
  released_entry released[max_released];
  /* the key file it was last loaded from (fstat: st_dev, st_ino, st_size, mtime and ctime in ns; 0: none),
     so that loading the same file again finds it without hashing the file (srs_region::find_loaded) */
  std::uint64_t file_identity[5];
  /* how resident_hash takes the released ranges (regions written before this field: as zeros) */
  std::uint32_t resident_rule;
};
static_assert(sizeof(srs_header) <= srs_header_bytes);

inline void say(std::string* why, const std::string& s) {
  if (why) *why = s;
}

std::string object_name(std::string_view pool, std::string_view key_id);
std::string object_path(std::string_view pool, std::string_view key_id);

using hasher = content_hasher;

/* The header's released ranges, by offset. */
std::vector<released_range> ranges_of(const srs_header& h);
/* The ranges (by offset) lie within content_bytes and do not overlap: otherwise the header is corrupt. */
bool ranges_fit(const std::vector<released_range>& ranges, std::uint64_t content_bytes) noexcept;
/* Adds released content [offset, offset + bytes) to h by rule. */
void add_released(hasher& h, std::uint64_t offset, std::uint64_t bytes, std::uint32_t rule);
/* The hash of what remains of content around its released ranges, by rule, hashed without reading the mapping
   there (a read of a hole in a shared tmpfs mapping would allocate its pages again). */
std::string hash_around(std::span<const std::uint8_t> content, const std::vector<released_range>& ranges,
                        std::uint32_t rule = rule_skip);
/* Writes the ranges and the hash of what remains (rule_skip) into the header of the object open at fd. */
bool write_ranges(int fd, const std::vector<released_range>& ranges, const std::string& resident);

using util::read_at;

/* The pool's lock file's status when it exists and passes the checks: SRS
   regions take its mode and group, and its owner and group are trusted for them. */
std::optional<struct stat> pool_stat(std::string_view pool);

}  // namespace cuzk::shm::srs_detail
