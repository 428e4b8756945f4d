#include "r1cs/binfile.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>
#include <fstream>

#include "r1cs/error.hpp"

namespace cuzk::r1cs {

namespace {

std::string printable(std::span<const std::uint8_t> b) {
  std::string s;
  for (auto c : b) {
    if (c >= 0x20 && c < 0x7f) {
      s += static_cast<char>(c);
    } else {
      static const char* hex = "0123456789abcdef";
      s += "\\x";
      s += hex[c >> 4];
      s += hex[c & 15];
    }
  }
  return s;
}

}  // namespace

void byte_reader::fail(std::string_view message) const {
  throw format_error(context_ + ": " + std::string(message));
}

std::span<const std::uint8_t> byte_reader::take(std::size_t n, std::string_view what) {
  if (n > remaining())
    fail(std::string(what) + " needs " + std::to_string(n) + " bytes at offset " + std::to_string(pos_) +
         " but only " + std::to_string(remaining()) + " remain");
  auto r = bytes_.subspan(pos_, n);
  pos_ += n;
  return r;
}

std::uint32_t byte_reader::u32(std::string_view what) {
  return le32(take(4, what).data());
}

std::uint64_t byte_reader::u64(std::string_view what) {
  return le64(take(8, what).data());
}

ff::fr_t byte_reader::fr(std::string_view what) {
  auto v = ff::fr_t::from_bytes_le(take(ff::fr_t::n_bytes, what));
  if (!v) fail(std::string(what) + " is not below the field modulus r");
  return *v;
}

std::array<std::uint8_t, 32> fr_modulus_le() {
  std::array<std::uint8_t, 32> b{};
  for (std::size_t i = 0; i < b.size(); ++i)
    b[i] = static_cast<std::uint8_t>(ff::fr_params::modulus[i / 8] >> (8 * (i % 8)));
  return b;
}

std::string hex_le(std::span<const std::uint8_t> le) {
  static const char* digits = "0123456789abcdef";
  std::string s = "0x";
  for (std::size_t i = le.size(); i-- > 0;) {
    s += digits[le[i] >> 4];
    s += digits[le[i] & 15];
  }
  return s;
}

std::string section_context(std::string_view kind, std::uint32_t type, std::string_view name) {
  return std::string(kind) + ": section " + std::to_string(type) + " (" + std::string(name) + ")";
}

std::optional<binfile_section> binfile::unique(std::uint32_t type, std::string_view kind,
                                                std::string_view name) const {
  std::optional<binfile_section> found;
  for (const auto& s : sections) {
    if (s.type != type) continue;
    if (found) throw format_error(section_context(kind, type, name) + ": appears more than once");
    found = s;
  }
  return found;
}

binfile parse_binfile(std::span<const std::uint8_t> bytes, std::string_view kind, std::uint32_t expected_version,
                      section_namer name) {
  byte_reader r(bytes, std::string(kind));
  if (bytes.size() < 12)
    r.fail("file is " + std::to_string(bytes.size()) + " bytes, too short for magic, version and section count");
  auto magic = r.take(4, "magic");
  if (std::memcmp(magic.data(), kind.data(), 4) != 0)
    r.fail("wrong magic \"" + printable(magic) + "\" (expected \"" + std::string(kind) + "\")");
  binfile f;
  f.version = r.u32("version");
  if (f.version != expected_version)
    r.fail("version " + std::to_string(f.version) + " is not supported (expected " +
           std::to_string(expected_version) + ")");
  const std::uint32_t n = r.u32("section count");
  for (std::uint32_t i = 0; i < n; ++i) {
    const std::string entry = "section table entry " + std::to_string(i + 1) + " of " + std::to_string(n);
    const std::uint32_t type = r.u32(entry);
    const std::uint64_t size = r.u64(entry);
    if (size > r.remaining())
      throw format_error(section_context(kind, type, name(type)) + ": declares " + std::to_string(size) +
                         " bytes at offset " + std::to_string(r.position()) + " but only " +
                         std::to_string(r.remaining()) + " remain in the file");
    f.sections.push_back({type, r.take(static_cast<std::size_t>(size), entry)});
  }
  if (r.remaining() != 0) r.fail(std::to_string(r.remaining()) + " trailing bytes after the last section");
  return f;
}

std::vector<std::uint8_t> read_whole_file(const std::filesystem::path& path, std::string_view kind) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw format_error(std::string(kind) + ": cannot read " + path.string() + ": " + std::strerror(errno));
  std::vector<std::uint8_t> data;
  in.seekg(0, std::ios::end);
  const auto size = in.tellg();
  if (size < 0) throw format_error(std::string(kind) + ": cannot read " + path.string() + ": not a regular file");
  in.seekg(0);
  data.resize(static_cast<std::size_t>(size));
  if (!in.read(reinterpret_cast<char*>(data.data()), size))
    throw format_error(std::string(kind) + ": cannot read " + path.string() + ": short read");
  return data;
}

mapped_file::mapped_file(const std::filesystem::path& path, std::string_view kind, bool populate) {
  const std::string what = std::string(kind) + ": cannot read " + path.string() + ": ";
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) throw format_error(what + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw format_error(what + "not a regular file");
  }
  size_ = static_cast<std::size_t>(st.st_size);
  void* map = size_ ? ::mmap(nullptr, size_, PROT_READ, MAP_PRIVATE | (populate ? MAP_POPULATE : 0), fd, 0) : nullptr;
  ::close(fd);
  if (map == MAP_FAILED)
    throw format_error(std::string(kind) + ": cannot map " + path.string() + ": " + std::strerror(errno));
  data_ = static_cast<const std::uint8_t*>(map);
}

mapped_file::~mapped_file() {
  if (data_) ::munmap(const_cast<std::uint8_t*>(data_), size_);
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

void binfile_writer::fr(const ff::fr_t& v) {
  const auto b = v.to_bytes_le();
  raw(b);
}

void binfile_writer::raw(std::span<const std::uint8_t> b) {
  const std::size_t at = out_.size();
  out_.resize(at + b.size());
  if (!b.empty()) std::memcpy(out_.data() + at, b.data(), b.size());
}

std::vector<std::uint8_t> binfile_writer::take() && { return std::move(out_); }

}  // namespace cuzk::r1cs
