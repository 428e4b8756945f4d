// A mapped key's point sections as its SRS region holds them, or, once the
// region released them (host_copy = drop), as its .zkey file does: read with
// pread a buffer at a time, out of the page cache behind it, and checked
// against the hash the region recorded for each section.
#pragma once

#include <memory>
#include <mutex>
#include <string>

#include "groth16/keys.hpp"
#include "shm/srs_region.hpp"

namespace cuzk::job {

class region_points final : public groth16::points_source {
 public:
  explicit region_points(std::shared_ptr<const shm::srs_region> region) : region_(std::move(region)) {}
  ~region_points() override;

  /* The key's file, opened by the caller (fd is duplicated); display_name names it in errors. A later call replaces it.
   */
  void attach_file(int fd, std::string display_name) const;
  bool has_file() const;

  bool released(std::span<const std::uint8_t> section) const override;
  std::unique_ptr<groth16::points_reader> open(std::span<const std::uint8_t> section) const override;

 private:
  std::shared_ptr<const shm::srs_region> region_;
  mutable std::mutex mu_;
  mutable std::shared_ptr<const int> fd_;  // closed with its last reader
  mutable std::string file_;
};

}  // namespace cuzk::job
