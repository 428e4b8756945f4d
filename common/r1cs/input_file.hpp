// Where the readers of .r1cs, .wtns and .zkey files get their bytes: memory
// (a buffer, a slot, a shared-memory region) or a file read with pread.
//
// Files are read, never mapped. A mapping of a file that another process
// truncates raises SIGBUS at the next access to a lost page, in the middle of
// a parse loop that cannot recover from a signal (a handler could only paper
// over the hole with zeros and let a wrong witness through). pread instead
// returns short, which becomes a format_error. Large sections (witness
// values, key points) are read a bounded chunk at a time, so memory stays
// small whatever the file's size.
#pragma once

#include <cstdint>
#include <filesystem>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

namespace cuzk::r1cs {

class byte_source {
 public:
  virtual ~byte_source() = default;
  virtual std::uint64_t size() const = 0;
  /* Bytes [offset, offset + n): a view of memory, or a copy into scratch for
     files. format_error when they are not there (a file that shrank). */
  virtual std::span<const std::uint8_t> view(std::uint64_t offset, std::size_t n,
                                             std::vector<std::uint8_t>& scratch) const = 0;
};

class memory_source final : public byte_source {
 public:
  memory_source(std::span<const std::uint8_t> bytes, std::string_view kind) : bytes_(bytes), kind_(kind) {}
  std::uint64_t size() const override { return bytes_.size(); }
  std::span<const std::uint8_t> view(std::uint64_t offset, std::size_t n,
                                     std::vector<std::uint8_t>& scratch) const override;

 private:
  std::span<const std::uint8_t> bytes_;
  std::string kind_;
};

/* A regular file opened for reading. The open does not block (a FIFO or a
   device is refused, not waited on); format_error
   "<kind>: cannot read <path>: <reason>". */
class input_file final : public byte_source {
 public:
  input_file(const std::filesystem::path& path, std::string_view kind);
  /* Takes a descriptor someone else opened and checked (it is closed here). */
  input_file(int fd, std::string_view display_name, std::string_view kind);
  ~input_file();
  input_file(const input_file&) = delete;
  input_file& operator=(const input_file&) = delete;

  /* The size when opened. */
  std::uint64_t size() const override { return size_; }
  std::span<const std::uint8_t> view(std::uint64_t offset, std::size_t n,
                                     std::vector<std::uint8_t>& scratch) const override;
  /* Exactly out.size() bytes at offset, or format_error. */
  void read(std::uint64_t offset, std::span<std::uint8_t> out) const;
  /* The whole file; format_error when it would take more than fits_in_memory allows. */
  std::vector<std::uint8_t> read_all() const;

 private:
  int fd_ = -1;
  std::uint64_t size_ = 0;
  std::string what_;  // "<kind>: cannot read <path>: "
};

/* Whether a buffer of this many bytes is reasonable here: at most half the
   machine's memory. A sparse file of a terabyte, or counts that claim one,
   must not make a reader try. */
bool fits_in_memory(std::uint64_t bytes);

/* A whole file in memory. */
std::vector<std::uint8_t> read_whole_file(const std::filesystem::path& path, std::string_view kind);

/* A whole file read into memory when constructed (the name is from when it was
   an mmap, see the top of this file): later truncation cannot affect it. For
   files of gigabytes, prefer input_file with the readers' byte_source
   overloads, which read only what they need, a chunk at a time. */
class mapped_file {
 public:
  mapped_file(const std::filesystem::path& path, std::string_view kind, bool populate = false);
  std::span<const std::uint8_t> bytes() const { return {data_.get(), size_}; }

 private:
  std::unique_ptr<std::uint8_t[]> data_;
  std::size_t size_ = 0;
};

}  // namespace cuzk::r1cs
