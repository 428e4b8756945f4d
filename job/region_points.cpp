#include "job/region_points.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <stdexcept>

#include "util/read_at.hpp"

namespace cuzk::job {

namespace {

class file_reader final : public groth16::points_reader {
 public:
  file_reader(std::shared_ptr<const int> fd, std::string file, shm::released_range range)
      : fd_(std::move(fd)), file_(std::move(file)), range_(std::move(range)) {}

  std::size_t next(std::span<std::uint8_t> out) override {
    const std::uint64_t left = range_.bytes - done_;
    const auto n = static_cast<std::size_t>(std::min<std::uint64_t>(left, out.size()));
    if (const auto got = util::read_at(*fd_, out.data(), n, range_.offset + done_); got != static_cast<std::int64_t>(n))
      throw std::runtime_error(
          "cannot read the key file " + file_ + " at byte " +
          std::to_string(range_.offset + done_ + static_cast<std::uint64_t>(std::max<std::int64_t>(got, 0))) + ": " +
          (got < 0 ? std::strerror(errno) : "it ended early"));
    hash_.add(out.data(), n);
    // read once: the page cache need not keep what the GPU now holds
    (void)::posix_fadvise(*fd_, static_cast<off_t>(range_.offset + done_), static_cast<off_t>(n), POSIX_FADV_DONTNEED);
    done_ += n;
    return n;
  }

  void finish() override {
    if (done_ != range_.bytes)
      throw std::runtime_error("the key file " + file_ + ": " + std::to_string(done_) + " of a section's " +
                               std::to_string(range_.bytes) + " bytes read");
    if (const auto got = hash_.digest(); got != range_.hash)
      throw std::runtime_error("the key file " + file_ + " changed since its key was loaded: bytes " +
                               std::to_string(range_.offset) + ".." + std::to_string(range_.offset + range_.bytes) +
                               " hash to " + got + ", its SRS region recorded " + range_.hash);
  }

 private:
  std::shared_ptr<const int> fd_;
  std::string file_;
  shm::released_range range_;
  std::uint64_t done_ = 0;
  shm::content_hasher hash_;
};

std::uint64_t offset_in(const shm::srs_region& r, std::span<const std::uint8_t> section) {
  return static_cast<std::uint64_t>(section.data() - r.bytes().data());
}

}  // namespace

region_points::~region_points() = default;

void region_points::attach_file(int fd, std::string display_name) const {
  const int own = ::fcntl(fd, F_DUPFD_CLOEXEC, 0);
  if (own < 0) throw std::runtime_error("cannot keep the key file " + display_name + " open: " + std::strerror(errno));
  std::lock_guard lk(mu_);
  fd_ = std::shared_ptr<const int>(new int(own), [](const int* p) {
    ::close(*p);
    delete p;
  });
  file_ = std::move(display_name);
}

bool region_points::has_file() const {
  std::lock_guard lk(mu_);
  return fd_ != nullptr;
}

bool region_points::released(std::span<const std::uint8_t> section) const {
  if (section.empty()) return false;
  const std::uint64_t off = offset_in(*region_, section), end = off + section.size();
  for (const auto& r : region_->released())
    if (off < r.offset + r.bytes && r.offset < end) return true;
  return false;
}

std::unique_ptr<groth16::points_reader> region_points::open(std::span<const std::uint8_t> section) const {
  const std::uint64_t off = offset_in(*region_, section);
  const auto ranges = region_->released();
  auto it = std::find_if(ranges.begin(), ranges.end(),
                         [&](const shm::released_range& r) { return r.offset == off && r.bytes == section.size(); });
  std::lock_guard lk(mu_);
  if (!fd_)
    throw std::runtime_error("key " + region_->key_id() +
                             ": its points were released from its SRS region "
                             "(host_copy = drop) and no file of the key is known to read them from; give the server "
                             "the key's .zkey with --key");
  if (it == ranges.end() || it->hash.empty())
    throw std::runtime_error("key " + region_->key_id() + ": its SRS region released bytes " + std::to_string(off) +
                             ".." + std::to_string(off + section.size()) + " without recording what they held");
  return std::make_unique<file_reader>(fd_, file_, *it);
}

}  // namespace cuzk::job
