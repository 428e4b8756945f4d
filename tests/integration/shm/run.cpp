#include "run.hpp"

#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <cstdio>
#include <fstream>
#include <thread>

namespace cuzk::test {

run_result run(const std::string& cmd) {
  static std::atomic<unsigned> n{0};
  const auto err_path = std::filesystem::temp_directory_path() /
                        ("cuzk-shm-sec-" + std::to_string(::getpid()) + "-" + std::to_string(n++) + ".err");
  run_result r;
  FILE* p = ::popen((cmd + " 2>" + err_path.string()).c_str(), "r");
  if (!p) return r;
  char buf[4096];
  std::size_t got;
  while ((got = std::fread(buf, 1, sizeof buf, p)) > 0) r.out.append(buf, got);
  int st = ::pclose(p);
  r.rc = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
  std::ifstream e(err_path);
  r.err.assign(std::istreambuf_iterator<char>(e), {});
  std::filesystem::remove(err_path);
  return r;
}

int wait_child(pid_t pid, std::chrono::milliseconds limit) {
  const auto end = std::chrono::steady_clock::now() + limit;
  int st = 0;
  while (::waitpid(pid, &st, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > end) {
      ::kill(pid, SIGKILL);
      ::waitpid(pid, &st, 0);
      return -1;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
}

std::string as_nobody(const std::string& cmd) { return "setpriv --reuid=nobody --regid=nogroup --clear-groups " + cmd; }

std::string in_group(const std::string& group, const std::string& cmd) {
  return "setpriv --regid=" + group + " --clear-groups " + cmd;
}

std::string second_uid_unavailable() {
  if (::geteuid() != 0) return "needs root to run processes as nobody with setpriv";
  if (!::getpwnam("nobody") || !::getgrnam("nogroup")) return "no user nobody or group nogroup";
  if (run("setpriv --version").rc != 0) return "no setpriv";
  return {};
}

temp_dir::temp_dir() {
  static std::atomic<unsigned> n{0};
  path = std::filesystem::temp_directory_path() /
         ("cuzk-shm-sec-" + std::to_string(::getpid()) + "-" + std::to_string(n++));
  std::filesystem::create_directories(path);
}

temp_dir::~temp_dir() {
  std::error_code ec;
  std::filesystem::remove_all(path, ec);
}

std::filesystem::path temp_dir::write(const std::string& name, const std::vector<std::uint8_t>& bytes) const {
  auto p = path / name;
  std::ofstream(p, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return p;
}

}  // namespace cuzk::test
