// iden3's binary container, shared by .r1cs, .wtns and .zkey:
//   magic[4] | version u32 | n_sections u32 | n x (type u32 | size u64 | bytes)
// all little-endian (github.com/iden3/binfileutils). Every read is bounds
// checked and every declared size checked against the file's before anything
// is read or allocated; failures throw format_error naming the file kind and
// section. Messages never quote the file's bytes (the server passes them to
// clients, who may have named a file they cannot read): no magic, text, hex,
// primes, field elements or points; after the magic matched they may quote
// the counts and sizes the file declares, which describe its shape.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "curves/curve_id.hpp"
#include "ff/fr.hpp"
#include "r1cs/input_file.hpp"

namespace cuzk::r1cs {

inline std::uint32_t le32(const std::uint8_t* b) {
  return std::uint32_t(b[0]) | std::uint32_t(b[1]) << 8 | std::uint32_t(b[2]) << 16 | std::uint32_t(b[3]) << 24;
}
inline std::uint64_t le64(const std::uint8_t* b) { return le32(b) | std::uint64_t(le32(b + 4)) << 32; }

class byte_reader {
 public:
  /* context prefixes every message, e.g. "r1cs: section 2 (constraints)" */
  byte_reader(std::span<const std::uint8_t> bytes, std::string context) : bytes_(bytes), context_(std::move(context)) {}

  std::uint32_t u32(std::string_view what);
  std::uint64_t u64(std::string_view what);
  std::span<const std::uint8_t> take(std::size_t n, std::string_view what);
  /* A 32-byte little-endian element of C's Fr, rejected unless < r. */
  template <class C = curves::bls12_381>
  ff::fr<C> fr(std::string_view what) {
    auto v = ff::fr<C>::from_bytes_le(take(ff::fr<C>::n_bytes, what));
    if (!v) fail(std::string(what) + " is not below the field modulus r");
    return *v;
  }

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
  std::uint64_t offset, size;  // within the file; checked to lie inside it
};

struct binfile {
  std::uint32_t version;
  std::vector<binfile_section> sections;

  /* The one section of this type; nullopt when absent, format_error when repeated. */
  std::optional<binfile_section> unique(std::uint32_t type, std::string_view kind, std::string_view name) const;
};

/* Names a section type for messages ("constraints"). */
using section_namer = std::string_view (*)(std::uint32_t type);

/* More sections than any of the three formats has, by far. */
inline constexpr std::uint32_t max_sections = 64;

/* Checks magic, version (== expected_version), the section table, and that
   the sections cover the file exactly, reading only the 12-byte preamble and
   the 12-byte entries. kind is "r1cs", "wtns", "zkey". */
binfile parse_binfile(const byte_source& src, std::string_view kind, std::uint32_t expected_version,
                      section_namer name);

/* A whole section's bytes (a view of memory sources; read into scratch for files). */
inline std::span<const std::uint8_t> section_bytes(const byte_source& src, const binfile_section& s,
                                                   std::vector<std::uint8_t>& scratch) {
  return src.view(s.offset, static_cast<std::size_t>(s.size), scratch);
}

/* f(first, bytes) for runs of whole records of `record` bytes covering
   [offset, offset + count * record), at most about 4 MiB at a time. */
template <class F>
void for_each_chunk(const byte_source& src, std::uint64_t offset, std::uint64_t count, std::size_t record, F&& f) {
  const std::uint64_t per = std::max<std::uint64_t>(1, (std::uint64_t{4} << 20) / record);
  std::vector<std::uint8_t> scratch;
  for (std::uint64_t first = 0; first < count; first += per) {
    const std::uint64_t n = std::min(per, count - first);
    f(first, src.view(offset + first * record, static_cast<std::size_t>(n * record), scratch));
  }
}

/* C's r as 32 little-endian bytes, the way the headers store the prime */
template <class C = curves::bls12_381>
std::array<std::uint8_t, 32> fr_modulus_le() {
  std::array<std::uint8_t, 32> b{};
  for (std::size_t i = 0; i < b.size(); ++i)
    b[i] = static_cast<std::uint8_t>(C::fr_params::modulus[i / 8] >> (8 * (i % 8)));
  return b;
}
/* The curve whose r a header's prime is; format_error through `r` naming
   the prime otherwise ("a prime of no curve cuzk knows"). */
curves::curve_id scalar_curve(std::span<const std::uint8_t> prime, const byte_reader& r);
/* "the witness is over BN254's scalar field r (snarkjs and circom: bn128),
   the key BLS12-381's": a file whose curve is not the one asked for */
std::string curve_mismatch(std::string_view what, curves::curve_id got, curves::curve_id expected);
/* "r1cs: section 2 (constraints)" */
std::string section_context(std::string_view kind, std::uint32_t type, std::string_view name);

/* Little-endian writers for the same container. */
class binfile_writer {
 public:
  binfile_writer(std::string_view magic, std::uint32_t version, std::uint32_t n_sections);
  void reserve(std::size_t bytes) { out_.reserve(bytes); }
  void begin_section(std::uint32_t type);
  void end_section();
  void u32(std::uint32_t v);
  void u64(std::uint64_t v);
  template <class P>
  void fr(const ff::mont_field<P>& v) {
    const auto b = v.to_bytes_le();
    raw(b);
  }
  void raw(std::span<const std::uint8_t> b);
  std::vector<std::uint8_t> take() &&;

 private:
  std::vector<std::uint8_t> out_;
  std::size_t section_start_ = 0;
};

}  // namespace cuzk::r1cs
