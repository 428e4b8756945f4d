// SRS regions: a proving key's .zkey bytes in their own shm object
// ("POOL.srs.HASH"), loaded once and kept across server restarts. The header
// carries magic, version, size and the XXH3-128 content hash (hex), which
// is also the key id jobs name.
#pragma once

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "shm/error.hpp"

namespace cuzk::shm {

inline constexpr std::uint64_t srs_magic = 0x3153525350555a43ULL;  // "CZUPSRS1"

class srs_region {
 public:
  /* Hashes the file; opens POOL.srs.HASH when it exists and validates,
     otherwise creates it (posix_fallocate, copy, header last). */
  static result<srs_region> load(std::string_view pool, const std::filesystem::path& zkey,
                                 std::string* why = nullptr) noexcept;
  static result<srs_region> open(std::string_view pool, std::string_view key_id, std::string* why = nullptr) noexcept;
  static result<void> destroy(std::string_view pool, std::string_view key_id) noexcept;

  srs_region(srs_region&&) noexcept;
  srs_region& operator=(srs_region&&) noexcept;
  ~srs_region();

  const std::string& key_id() const noexcept;        // 32 hex digits
  std::span<const std::uint8_t> bytes() const noexcept;  // the .zkey file
  /* Rehashes the content (srs_mismatch when it no longer matches the key id);
     open validates only the header, this reads every byte. */
  result<void> verify() const noexcept;

 private:
  struct impl;
  explicit srs_region(impl*) noexcept;
  impl* p_ = nullptr;
};

/* Key ids of the pool's SRS regions (/dev/shm/POOL.srs.*). */
std::vector<std::string> list_srs(std::string_view pool) noexcept;

/* XXH3-128 of bytes as 32 lowercase hex digits. */
std::string content_hash(std::span<const std::uint8_t> bytes) noexcept;

}  // namespace cuzk::shm
