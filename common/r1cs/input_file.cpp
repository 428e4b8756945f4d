#include "r1cs/input_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "r1cs/error.hpp"

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

input_file::~input_file() { ::close(fd_); }

void input_file::read(std::uint64_t offset, std::span<std::uint8_t> out) const {
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t r = ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
    if (r < 0 && errno == EINTR) continue;
    if (r < 0) throw format_error(what_ + std::strerror(errno));
    if (r == 0)
      throw format_error(what_ + "the file ended at byte " + std::to_string(offset + done) + " while being read (it had " +
                         std::to_string(size_) + " bytes when opened: truncated by another process?)");
    done += static_cast<std::size_t>(r);
  }
}

std::span<const std::uint8_t> input_file::view(std::uint64_t offset, std::size_t n,
                                               std::vector<std::uint8_t>& scratch) const {
  if (scratch.size() < n) scratch.resize(n);
  read(offset, {scratch.data(), n});
  return {scratch.data(), n};
}

std::vector<std::uint8_t> read_whole_file(const std::filesystem::path& path, std::string_view kind) {
  const input_file f(path, kind);
  std::vector<std::uint8_t> data(static_cast<std::size_t>(f.size()));
  f.read(0, data);
  return data;
}

mapped_file::mapped_file(const std::filesystem::path& path, std::string_view kind, bool) {
  const input_file f(path, kind);
  size_ = static_cast<std::size_t>(f.size());
  data_ = std::make_unique_for_overwrite<std::uint8_t[]>(size_);
  f.read(0, {data_.get(), size_});
}

}  // namespace cuzk::r1cs
