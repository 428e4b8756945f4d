#include "job/file_identity.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "job/spec.hpp"

namespace cuzk::job {

std::string file_identity(const struct stat& st) {
  const long long mtime = static_cast<long long>(st.st_mtim.tv_sec) * 1000000000LL + st.st_mtim.tv_nsec;
  return std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino) + ":" + std::to_string(st.st_size) + ":" +
         std::to_string(mtime);
}

int open_identified(const std::string& path, const std::string& identity, const char* what) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_NOFOLLOW | O_CLOEXEC | O_NOCTTY);
  if (fd < 0 && errno == ELOOP)
    throw job_error(std::string("the ") + what + " " + path +
                    " is a symbolic link; files are opened without following links");
  if (fd < 0) throw job_error(std::string("cannot open the ") + what + " " + path + ": " + std::strerror(errno));
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    throw job_error(std::string("the ") + what + " " + path + " is not a regular file");
  }
  if (!identity.empty() && file_identity(st) != identity) {
    ::close(fd);
    throw job_error(std::string("the ") + what + " " + path + " changed after the job was submitted");
  }
  return fd;
}

}  // namespace cuzk::job
