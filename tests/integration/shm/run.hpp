// Running the real binaries from the shm security tests, as this user or as
// another (setpriv), with stdout and stderr captured.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

namespace cuzk::test {

struct run_result {
  int rc = -1;
  std::string out, err;
};

/* Runs a shell command line; rc is its exit status (-1 when killed). */
run_result run(const std::string& cmd);

/* "setpriv --reuid=nobody --regid=nogroup --clear-groups CMD": a second,
   unprivileged user in no group but nogroup. */
std::string as_nobody(const std::string& cmd);
/* "setpriv --regid=GROUP --clear-groups CMD": this (root) user whose only
   group is GROUP, like an operator whose primary group is the clients'. */
std::string in_group(const std::string& group, const std::string& cmd);
/* Why the setpriv tests cannot run here, or empty when they can. */
std::string second_uid_unavailable();

/* The exit code of child `pid` (-1 when it was killed, or did not exit within `limit` and was then killed). */
int wait_child(pid_t pid, std::chrono::milliseconds limit);

/* A file of the given bytes in a fresh temporary directory, removed with it. */
struct temp_dir {
  std::filesystem::path path;
  temp_dir();
  ~temp_dir();
  std::filesystem::path write(const std::string& name, const std::vector<std::uint8_t>& bytes) const;
};

}  // namespace cuzk::test
