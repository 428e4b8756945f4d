#include "r1cs/binfile.hpp"

#include "curves/primes.hpp"

#include <cstring>

#include "r1cs/error.hpp"

namespace cuzk::r1cs {

void byte_reader::fail(std::string_view message) const { throw format_error(context_ + ": " + std::string(message)); }

std::span<const std::uint8_t> byte_reader::take(std::size_t n, std::string_view what) {
  if (n > remaining())
    fail(std::string(what) + " needs " + std::to_string(n) + " bytes at offset " + std::to_string(pos_) + " but only " +
         std::to_string(remaining()) + " remain");
  auto r = bytes_.subspan(pos_, n);
  pos_ += n;
  return r;
}

std::uint32_t byte_reader::u32(std::string_view what) { return le32(take(4, what).data()); }

std::uint64_t byte_reader::u64(std::string_view what) { return le64(take(8, what).data()); }

curves::curve_id scalar_curve(std::span<const std::uint8_t> prime, const byte_reader& r) {
  if (auto c = curves::curve_of_scalar_prime(prime)) return *c;
  r.fail("prime is neither BLS12-381's nor BN254's scalar field r (" + std::to_string(prime.size()) + " bytes)");
}

std::string curve_mismatch(std::string_view what, curves::curve_id got, curves::curve_id expected) {
  return std::string(what) + " is over " + std::string(curves::display_name(got)) +
         "'s scalar field r (snarkjs and circom: " + std::string(curves::snarkjs_name(got)) + "), the key " +
         std::string(curves::display_name(expected)) + "'s (" + std::string(curves::snarkjs_name(expected)) + ")";
}

std::string section_context(std::string_view kind, std::uint32_t type, std::string_view name) {
  return std::string(kind) + ": section " + std::to_string(type) + " (" + std::string(name) + ")";
}

std::optional<binfile_section> binfile::unique(std::uint32_t type, std::string_view kind, std::string_view name) const {
  std::optional<binfile_section> found;
  for (const auto& s : sections) {
    if (s.type != type) continue;
    if (found) throw format_error(section_context(kind, type, name) + ": appears more than once");
    found = s;
  }
  return found;
}

binfile parse_binfile(const byte_source& src, std::string_view kind, std::uint32_t expected_version,
                      section_namer name) {
  const std::uint64_t size = src.size();
  auto fail = [&](const std::string& message) -> void { throw format_error(std::string(kind) + ": " + message); };
  if (size < 12) fail("file is " + std::to_string(size) + " bytes, too short for magic, version and section count");
  std::vector<std::uint8_t> scratch;
  const auto preamble = src.view(0, 12, scratch);
  if (std::memcmp(preamble.data(), kind.data(), 4) != 0) fail("not a ." + std::string(kind) + " file (bad magic)");
  binfile f;
  f.version = le32(preamble.data() + 4);
  if (f.version != expected_version)
    fail("version " + std::to_string(f.version) + " is not supported (expected " + std::to_string(expected_version) +
         ")");
  const std::uint32_t n = le32(preamble.data() + 8);
  if (n > max_sections)
    fail("declares " + std::to_string(n) + " sections, more than the " + std::to_string(max_sections) + " allowed");
  std::uint64_t pos = 12;
  for (std::uint32_t i = 0; i < n; ++i) {
    if (size - pos < 12)
      fail("section table entry " + std::to_string(i + 1) + " of " + std::to_string(n) + " needs 12 bytes at offset " +
           std::to_string(pos) + " but only " + std::to_string(size - pos) + " remain");
    const auto entry = src.view(pos, 12, scratch);
    const std::uint32_t type = le32(entry.data());
    const std::uint64_t bytes = le64(entry.data() + 4);
    pos += 12;
    if (bytes > size - pos)
      throw format_error(section_context(kind, type, name(type)) + ": declares " + std::to_string(bytes) +
                         " bytes at offset " + std::to_string(pos) + " but only " + std::to_string(size - pos) +
                         " remain in the file");
    f.sections.push_back({type, pos, bytes});
    pos += bytes;
  }
  if (pos != size) fail(std::to_string(size - pos) + " trailing bytes after the last section");
  return f;
}

binfile_writer::binfile_writer(std::string_view magic, std::uint32_t version, std::uint32_t n_sections) {
  for (std::size_t i = 0; i < 4; ++i) out_.push_back(static_cast<std::uint8_t>(magic[i]));
  u32(version);
  u32(n_sections);
}

void binfile_writer::begin_section(std::uint32_t type) {
  u32(type);
  u64(0);  // size, patched by end_section
  section_start_ = out_.size();
}

void binfile_writer::end_section() {
  std::uint64_t size = out_.size() - section_start_;
  for (int i = 0; i < 8; ++i) out_[section_start_ - 8 + i] = static_cast<std::uint8_t>(size >> (8 * i));
}

void binfile_writer::u32(std::uint32_t v) {
  for (int i = 0; i < 4; ++i) out_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

void binfile_writer::u64(std::uint64_t v) {
  for (int i = 0; i < 8; ++i) out_.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

void binfile_writer::raw(std::span<const std::uint8_t> b) {
  const std::size_t at = out_.size();
  out_.resize(at + b.size());
  if (!b.empty()) std::memcpy(out_.data() + at, b.data(), b.size());
}

std::vector<std::uint8_t> binfile_writer::take() && { return std::move(out_); }

}  // namespace cuzk::r1cs
