#include "r1cs/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>

#include "r1cs/error.hpp"
#include "util/read_at.hpp"

namespace cuzk::r1cs {

std::span<const std::uint8_t> memory_source::view(std::uint64_t offset, std::size_t n,
                                                  std::vector<std::uint8_t>&) const {
  if (offset > bytes_.size() || n > bytes_.size() - offset)
    throw format_error(kind_ + ": read past the end of the " + std::to_string(bytes_.size()) + "-byte file");
  return bytes_.subspan(static_cast<std::size_t>(offset), n);
}

input_file::input_file(const std::filesystem::path& path, std::string_view kind)
    : what_(std::string(kind) + ": cannot read " + path.string() + ": ") {
  // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer
  fd_ = ::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY);
  if (fd_ < 0) throw format_error(what_ + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    throw format_error(what_ + "not a regular file");
  }
  size_ = static_cast<std::uint64_t>(st.st_size);
}

input_file::input_file(int fd, std::string_view display_name, std::string_view kind)
    : fd_(fd), what_(std::string(kind) + ": cannot read " + std::string(display_name) + ": ") {
  struct stat st {};
  if (::fstat(fd_, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd_);
    throw format_error(what_ + "not a regular file");
  }
  size_ = static_cast<std::uint64_t>(st.st_size);
}

input_file::~input_file() { ::close(fd_); }

void input_file::read(std::uint64_t offset, std::span<std::uint8_t> out) const {
  const std::int64_t done = util::read_at(fd_, out.data(), out.size(), offset);
  if (done < 0) throw format_error(what_ + std::strerror(errno));
  if (static_cast<std::size_t>(done) < out.size())
    throw format_error(what_ + "the file ended at byte " + std::to_string(offset + static_cast<std::uint64_t>(done)) +
                       " while being read (it had " + std::to_string(size_) +
                       " bytes when opened: truncated by another process?)");
}

std::span<const std::uint8_t> input_file::view(std::uint64_t offset, std::size_t n,
                                               std::vector<std::uint8_t>& scratch) const {
  if (scratch.size() < n) scratch.resize(n);
  read(offset, {scratch.data(), n});
  return {scratch.data(), n};
}

std::vector<std::uint8_t> input_file::read_all() const {
  if (!fits_in_memory(size_))
    throw format_error(what_ + "the file is " + std::to_string(size_) + " bytes, too large to read into memory");
  std::vector<std::uint8_t> data(static_cast<std::size_t>(size_));
  // a chunk at a time, so that a truncation during the read is seen, not
  // hidden inside one long pread
  constexpr std::size_t chunk = std::size_t{1} << 20;
  for (std::size_t at = 0; at < data.size(); at += chunk)
    read(at, {data.data() + at, std::min(chunk, data.size() - at)});
  return data;
}

bool fits_in_memory(std::uint64_t bytes) {
  static const std::uint64_t limit =
      std::uint64_t(::sysconf(_SC_PHYS_PAGES)) * std::uint64_t(::sysconf(_SC_PAGESIZE)) / 2;
  return bytes <= limit;
}

std::vector<std::uint8_t> read_whole_file(const std::filesystem::path& path, std::string_view kind) {
  return input_file(path, kind).read_all();
}

mapped_file::mapped_file(const std::filesystem::path& path, std::string_view kind, bool) {
  const input_file f(path, kind);
  if (!fits_in_memory(f.size()))
    throw format_error(std::string(kind) + ": cannot read " + path.string() + ": the file is " +
                       std::to_string(f.size()) + " bytes, too large to read into memory");
  size_ = static_cast<std::size_t>(f.size());
  data_ = std::make_unique_for_overwrite<std::uint8_t[]>(size_);
  constexpr std::size_t chunk = std::size_t{1} << 20;
  for (std::size_t at = 0; at < size_; at += chunk) f.read(at, {data_.get() + at, std::min(chunk, size_ - at)});
}

}  // namespace cuzk::r1cs
