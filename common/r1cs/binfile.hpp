// iden3's binary container, shared by .r1cs, .wtns and .zkey:
//   magic[4] | version u32 | n_sections u32 | n x (type u32 | size u64 | bytes)
// all little-endian (github.com/iden3/binfileutils). Every read is bounds
// checked; failures throw format_error naming the file kind and section.
#pragma once

#include <array>
#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "ff/fr.hpp"

namespace cuzk::r1cs {

inline std::uint32_t le32(const std::uint8_t* b) {
  return std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16 | std::uint32_t(b[3]) << 24;
}
inline std::uint64_t le64(const std::uint8_t* b) { return le32(b) | std::uint64_t(le32(b + 4)) << 32; }

class byte_reader {
 public:
  /* context prefixes every message, e.g. "r1cs: section 2 (constraints)" */
  byte_reader(std::span<const std::uint8_t> bytes, std::string context)
      : bytes_(bytes), context_(std::move(context)) {}

  std::uint32_t u32(std::string_view what);
  std::uint64_t u64(std::string_view what);
  std::span<const std::uint8_t> take(std::size_t n, std::string_view what);
  /* A 32-byte little-endian field element, rejected unless < r. */
  ff::fr_t fr(std::string_view what);

  std::size_t remaining() const { return bytes_.size() - pos_; }
  std::size_t position() const { return pos_; }
  [[noreturn]] void fail(std::string_view message) const;

 private:
  std::span<const std::uint8_t> bytes_;
  std::size_t pos_ = 0;
  std::string context_;
};

struct binfile_section {
  std::uint32_t type;
  std::span<const std::uint8_t> bytes;
};

struct binfile {
  std::uint32_t version;
  std::vector<binfile_section> sections;

  /* The one section of this type; nullopt when absent, format_error when repeated. */
  std::optional<binfile_section> unique(std::uint32_t type, std::string_view kind, std::string_view name) const;
};

/* Names a section type for messages ("constraints"). */
using section_namer = std::string_view (*)(std::uint32_t type);

/* Checks magic, version (== expected_version), the section table, and that
   the sections cover the file exactly. kind is "r1cs", "wtns", "zkey". */
binfile parse_binfile(std::span<const std::uint8_t> bytes, std::string_view kind, std::uint32_t expected_version,
                      section_namer name);

/* r as 32 little-endian bytes, the way the headers store the prime */
std::array<std::uint8_t, 32> fr_modulus_le();
/* "0x..." of a little-endian number */
std::string hex_le(std::span<const std::uint8_t> le);

/* "r1cs: section 2 (constraints)" */
std::string section_context(std::string_view kind, std::uint32_t type, std::string_view name);

/* A whole file in memory; format_error "<kind>: cannot read <path>: <reason>". */
std::vector<std::uint8_t> read_whole_file(const std::filesystem::path& path, std::string_view kind);

/* A file mapped read-only, for files of gigabytes parsed once (keys,
   witnesses): only the pages a parse touches are read; populate reads them
   all up front. format_error "<kind>: cannot read|map <path>: <reason>". */
class mapped_file {
 public:
  mapped_file(const std::filesystem::path& path, std::string_view kind, bool populate = false);
  ~mapped_file();
  mapped_file(const mapped_file&) = delete;
  mapped_file& operator=(const mapped_file&) = delete;
  std::span<const std::uint8_t> bytes() const { return {data_, size_}; }

 private:
  const std::uint8_t* data_ = nullptr;
  std::size_t size_ = 0;
};

/* Little-endian writers for the same container. */
class binfile_writer {
 public:
  binfile_writer(std::string_view magic, std::uint32_t version, std::uint32_t n_sections);
  void reserve(std::size_t bytes) { out_.reserve(bytes); }
  void begin_section(std::uint32_t type);
  void end_section();
  void u32(std::uint32_t v);
  void u64(std::uint64_t v);
  void fr(const ff::fr_t& v);
  void raw(std::span<const std::uint8_t> b);
  std::vector<std::uint8_t> take() &&;

 private:
  std::vector<std::uint8_t> out_;
  std::size_t section_start_ = 0;
};

}  // namespace cuzk::r1cs
