// SRS regions: a proving key's .zkey bytes in their own shm object
// (POOL.srs.HASH in the service's directory, shm_dir.hpp), loaded once and kept across server restarts.
// The header carries magic, version, size and the XXH3-128 content hash
// (hex), which is also the key id jobs name. A region has the pool's mode and
// group (its lock file's), and is opened only after the checks of
// shm_file.hpp. Its loader holds flock(LOCK_EX) on it until the header is
// published; a region with no header whose lock is free was left by a loader
// that died, and the next load removes it and loads again.
#pragma once

#include <cstdint>
#include <filesystem>
#include <functional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "shm/error.hpp"

namespace cuzk::shm {

inline constexpr std::uint64_t srs_magic = 0x3153525350555a43ULL;  // "CZUPSRS1"

/* Content bytes [offset, offset + bytes) of a region that were released from memory, and the content hash
   of what they held (empty: not recorded). */
struct released_range {
  std::uint64_t offset = 0, bytes = 0;
  std::string hash;
  friend bool operator==(const released_range&, const released_range&) = default;
};

/* Who put a key into the pool: the operator (load-srs, --key, setup --pool),
   or the server from a file a client named by path. Clients may name the
   latter by id only when they can read its file (DESIGN §9). */
enum class srs_origin { installed, client_file };

class srs_region {
 public:
  /* Opens zkey with O_RDONLY|O_NONBLOCK|O_NOFOLLOW|O_CLOEXEC and loads it
     as below: not_found when absent, not_regular_file for a link. */
  static result<srs_region> load(std::string_view pool, const std::filesystem::path& zkey,
                                 std::string* why = nullptr) noexcept;
  /* An already opened key file: fstat must show a regular file
     (not_regular_file for a FIFO, directory or device, before anything is
     read). Hashes it with pread; opens POOL.srs.HASH when it exists,
     validates it and checks its content hash (srs_mismatch), otherwise
     creates it (posix_fallocate, copy with pread, header last) and checks the
     copied bytes' hash. A file that shrinks or changes while read is an
     error, never a SIGBUS. Waits up to 30 s for another live loader
     (being_created). `why` names the file by display_name, never its bytes.
     origin is recorded in a new region's header; loading as installed marks
     an existing client_file region installed. */
  static result<srs_region> load(std::string_view pool, int fd, std::string_view display_name,
                                 std::string* why = nullptr, srs_origin origin = srs_origin::installed) noexcept;
  /* The same, but a region created now never holds the content ranges `omit` (offset, bytes): the file's
     bytes there are hashed (the key id, and each range's own hash, which the header records) and not copied,
     so they take no memory (a key whose points go to the GPUs from the file: host_copy = drop). An existing
     region is returned as it is. */
  static result<srs_region> load(std::string_view pool, int fd, std::string_view display_name, std::string* why,
                                 srs_origin origin,
                                 std::span<const std::pair<std::uint64_t, std::uint64_t>> omit) noexcept;
  /* A region written in place rather than copied from a file: fill gets the
     content_bytes zeroed bytes to write, then the content is hashed and the
     region published under that key id (an existing region with the same id
     is returned instead, as load does). The object has no name until it is
     complete, so no reader ever sees it half-written and a crash leaves
     nothing behind. What fill throws propagates. */
  static result<srs_region> create(std::string_view pool, std::uint64_t content_bytes,
                                   const std::function<void(std::span<std::uint8_t>)>& fill,
                                   std::string* why = nullptr);
  /* The region last loaded from the file open at fd (the same device, inode, size, mtime and ctime), found
     without reading the file; verified (what it holds hashes as its header says: the whole to the key id,
     or what remains around its released ranges, whose own bytes are checked when they are read back from
     the file). not_found when none is. */
  static result<srs_region> find_loaded(std::string_view pool, int fd, std::string* why = nullptr) noexcept;
  /* Validates the header only (see verify). access_denied when the region
     fails the owner checks; being_created while a live loader holds it;
     srs_abandoned when its loader died (the next load reclaims it). */
  static result<srs_region> open(std::string_view pool, std::string_view key_id, std::string* why = nullptr) noexcept;
  static result<void> destroy(std::string_view pool, std::string_view key_id) noexcept;

  srs_region(srs_region&&) noexcept;
  srs_region& operator=(srs_region&&) noexcept;
  ~srs_region();

  const std::string& key_id() const noexcept;            // 32 hex digits
  std::span<const std::uint8_t> bytes() const noexcept;  // the .zkey file
  /* Rehashes the content (srs_mismatch when it no longer matches the key id);
     open validates only the header, this reads every byte. */
  result<void> verify() const noexcept;
  /* The content is known to hash to the key id: load checked it, or verify
     succeeded. */
  bool verified() const noexcept;
  /* As recorded in the header (regions of older versions: installed). */
  srs_origin origin() const noexcept;
  /* Releases content bytes [offset, offset + length) from memory: their whole pages are punched out of the
     object (tmpfs frees them; they read as zeros), the partial pages at the ends zeroed. For what no job of
     the key reads (a native circuit's key's A/B coefficients). The content must hash to the key id first;
     the header then records the range and the hash of what remains, which verify checks from then on (the
     key id stays the file's, so loading the file again finds this region). Idempotent for the same range;
     returns the bytes released. content_verified: the caller has just verified the region (srs_region::verify),
     so its content is not hashed against the key id a second time. */
  static result<std::uint64_t> release(std::string_view pool, std::string_view key_id, std::uint64_t offset,
                                       std::uint64_t length, std::string* why = nullptr,
                                       bool content_verified = false) noexcept;
  /* Several ranges at once (offset, bytes), each hashed before it goes (its hash recorded, so restore can
     check what it reads back); ranges released before stay, one already released is skipped, one that
     overlaps another is refused. At most 8 ranges in all. Returns the bytes released in all. */
  static result<std::uint64_t> release(std::string_view pool, std::string_view key_id,
                                       std::span<const std::pair<std::uint64_t, std::uint64_t>> ranges,
                                       std::string* why = nullptr, bool content_verified = false) noexcept;
  /* Brings the released ranges whose hash was recorded back from the key's file (fd, read with pread): each
     range's bytes must hash to what was recorded (srs_mismatch, and the range stays released, otherwise).
     Returns the bytes restored. */
  static result<std::uint64_t> restore(std::string_view pool, std::string_view key_id, int fd,
                                       std::string_view display_name, std::string* why = nullptr) noexcept;
  /* Only the released ranges that overlap `only` (offset, bytes). */
  static result<std::uint64_t> restore(std::string_view pool, std::string_view key_id, int fd,
                                       std::string_view display_name, std::string* why,
                                       std::span<const std::pair<std::uint64_t, std::uint64_t>> only) noexcept;
  /* Content bytes released (0: none). */
  std::uint64_t released_bytes() const noexcept;
  /* The released ranges, by offset, as the header says now (a release by another process shows). */
  std::vector<released_range> released() const;

 private:
  struct impl;
  explicit srs_region(impl*) noexcept;
  const void* header() const noexcept;  // the mapping's first byte (shm/srs_header.hpp)
  static result<srs_region> open_as(std::string_view pool, std::string_view key_id, bool reclaim,
                                    std::string* why) noexcept;
  impl* p_ = nullptr;
};

/* The bytes of the shm object an SRS region holding content_bytes (a .zkey) takes: its header and the content, in whole
 * pages. */
std::uint64_t srs_region_bytes(std::uint64_t content_bytes) noexcept;

/* Key ids of the pool's SRS regions (POOL.srs.* in shm_dir()). */
std::vector<std::string> list_srs(std::string_view pool) noexcept;

/* A key id: 32 lowercase hex digits (what content_hash gives). */
bool is_key_id(std::string_view s) noexcept;

/* XXH3-128 of bytes as 32 lowercase hex digits. */
std::string content_hash(std::span<const std::uint8_t> bytes) noexcept;

/* The same hash, fed in pieces. */
class content_hasher {
 public:
  content_hasher();
  ~content_hasher();
  content_hasher(const content_hasher&) = delete;
  content_hasher& operator=(const content_hasher&) = delete;
  void add(const void* p, std::size_t n);
  void add_zeros(std::uint64_t n);
  std::string digest() const;

 private:
  void* s_;
};

}  // namespace cuzk::shm
