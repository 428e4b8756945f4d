// A service directory of the test's own (CUZK_SHM_DIR, inherited by the
// processes the test starts), so that what the test does to it (who made it,
// its mode and group) is not what other tests left there. Absent until the
// test or the code under test makes it; removed with what is in it, and the
// variable restored, when the scope ends.
#pragma once

#include <sys/stat.h>
#include <unistd.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <string>

namespace cuzk::test {

struct shm_dir_scope {
  std::string path;
  std::optional<std::string> old;

  explicit shm_dir_scope(const std::string& tag) {
    static std::atomic<unsigned> n{0};
    path = "/dev/shm/cuzk-test-dir-" + tag + "-" + std::to_string(::getpid()) + "-" + std::to_string(n++);
    remove();
    if (const char* v = std::getenv("CUZK_SHM_DIR")) old = v;
    ::setenv("CUZK_SHM_DIR", path.c_str(), 1);
  }
  ~shm_dir_scope() {
    remove();
    if (old)
      ::setenv("CUZK_SHM_DIR", old->c_str(), 1);
    else
      ::unsetenv("CUZK_SHM_DIR");
  }
  shm_dir_scope(const shm_dir_scope&) = delete;
  shm_dir_scope& operator=(const shm_dir_scope&) = delete;

  /* The directory as tmpfiles makes it: this mode, owner and group. */
  bool make(mode_t mode, uid_t uid = 0, gid_t gid = 0) const {
    return ::mkdir(path.c_str(), 0700) == 0 && ::chown(path.c_str(), uid, gid) == 0 && ::chmod(path.c_str(), mode) == 0;
  }
  void remove() const {
    std::error_code ec;
    std::filesystem::remove_all(path, ec);
  }
};

}  // namespace cuzk::test
