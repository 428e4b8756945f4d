#include "job/generator_sandbox.hpp"

#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <sched.h>
#include <seccomp.h>
#include <signal.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <stdexcept>

#include "util/fd_guard.hpp"

namespace cuzk::job {

namespace {

using clock = std::chrono::steady_clock;

/* The filter as BPF, made in the parent: between fork and exec a child of a threaded process may only make
   async-signal-safe calls, and libseccomp allocates. */
std::vector<sock_filter> confinement_filter() {
  scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
  if (!ctx) throw std::runtime_error("seccomp_init failed");
  int rc = 0;
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 0);  // no network, no local sockets
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(fork), 0);
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(vfork), 0);
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(clone), 1,
                         SCMP_A0(SCMP_CMP_MASKED_EQ, CLONE_THREAD, 0));      // threads only
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);  // its flags are out of reach: libc
                                                                             // falls back to clone
  rc |= seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ptrace), 0);
  util::fd_guard mem{::memfd_create("cuzk-seccomp", MFD_CLOEXEC)};
  if (rc == 0 && mem.fd >= 0) rc = seccomp_export_bpf(ctx, mem.fd);
  seccomp_release(ctx);
  if (rc != 0 || mem.fd < 0) throw std::runtime_error("cannot build the generator's seccomp filter");
  const off_t n = ::lseek(mem.fd, 0, SEEK_END);
  std::vector<sock_filter> prog(static_cast<std::size_t>(n) / sizeof(sock_filter));
  if (::pread(mem.fd, prog.data(), static_cast<std::size_t>(n), 0) != n)
    throw std::runtime_error("cannot read the generator's seccomp filter");
  return prog;
}

void limit(int resource, rlim_t soft, rlim_t hard) {
  const rlimit r{soft, hard};
  (void)::setrlimit(resource, &r);
}

[[noreturn]] void child(char* const* argv, char* const* envp, const char* dir, const sandbox_limits& lim,
                        const sock_fprog& filter, int out, pid_t parent) {
  (void)::prctl(PR_SET_PDEATHSIG, SIGKILL);
  if (::getppid() != parent) ::_exit(126);
  const int in = ::open("/dev/null", O_RDONLY);
  if (in < 0 || ::dup2(in, 0) < 0 || ::dup2(out, 1) < 0 || ::dup2(out, 2) < 0) ::_exit(126);
  (void)::close_range(3, ~0U, 0);
  if (::chdir(dir) != 0) ::_exit(126);
  limit(RLIMIT_CPU, lim.cpu_seconds, lim.cpu_seconds + 1);  // SIGXCPU, then SIGKILL a second later
  limit(RLIMIT_DATA, lim.memory_bytes, lim.memory_bytes);
  limit(RLIMIT_FSIZE, lim.output_bytes, lim.output_bytes);  // SIGXFSZ
  limit(RLIMIT_CORE, 0, 0);
  limit(RLIMIT_NOFILE, 64, 64);
  (void)::unshare(CLONE_NEWNET);  // where allowed (root): no interface but a loopback that is down
  if (::prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0) ::_exit(126);
  if (::prctl(PR_SET_SECCOMP, SECCOMP_MODE_FILTER, &filter) != 0) ::_exit(126);
  ::execve(argv[0], argv, envp);
  ::_exit(127);
}

std::string seconds_text(std::chrono::milliseconds d) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3g s", std::chrono::duration<double>(d).count());
  return buf;
}

double seconds_of(const timeval& t) { return static_cast<double>(t.tv_sec) + static_cast<double>(t.tv_usec) / 1e6; }

}  // namespace

sandbox_outcome run_confined(const std::vector<std::string>& argv, const std::filesystem::path& dir,
                             const sandbox_limits& lim) {
  if (argv.empty() || !std::filesystem::path(argv[0]).is_absolute())
    throw std::invalid_argument("run_confined: argv[0] must be an absolute path");
  auto prog = confinement_filter();
  const sock_fprog filter{static_cast<unsigned short>(prog.size()), prog.data()};
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  std::string path = "PATH=/usr/bin:/bin";
  char* envp[] = {path.data(), nullptr};
  const std::string where = dir.string();

  int fds[2];
  if (::pipe2(fds, O_CLOEXEC) != 0) throw std::runtime_error(std::string("pipe: ") + std::strerror(errno));
  util::fd_guard rd{fds[0]}, wr{fds[1]};
  const pid_t parent = ::getpid();
  const auto t0 = clock::now();
  const pid_t pid = ::fork();
  if (pid < 0) throw std::runtime_error(std::string("fork: ") + std::strerror(errno));
  if (pid == 0) child(args.data(), envp, where.c_str(), lim, filter, wr.fd, parent);
  ::close(wr.fd);
  wr.fd = -1;

  sandbox_outcome o;
  bool open = true, killed = false;
  int status = 0;
  rusage ru{};
  for (;;) {
    const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(lim.deadline - (clock::now() - t0));
    if (left.count() <= 0 && !killed) {
      ::kill(pid, SIGKILL);
      killed = true;
    }
    if (open) {
      pollfd p{rd.fd, POLLIN, 0};
      if (::poll(&p, 1, static_cast<int>(std::clamp<long long>(left.count(), 1, 50))) > 0) {
        char buf[4096];
        const ssize_t n = ::read(rd.fd, buf, sizeof buf);
        if (n <= 0) open = false;
        if (n > 0 && o.message.size() < lim.message_bytes)
          o.message.append(buf,
                           std::min<std::size_t>(static_cast<std::size_t>(n), lim.message_bytes - o.message.size()));
      }
    } else {
      ::usleep(10000);
    }
    const pid_t r = ::wait4(pid, &status, WNOHANG, &ru);
    if (r == pid) break;
    if (r < 0 && errno != EINTR) throw std::runtime_error(std::string("wait4: ") + std::strerror(errno));
  }
  o.seconds = std::chrono::duration<double>(clock::now() - t0).count();
  o.cpu_seconds = seconds_of(ru.ru_utime) + seconds_of(ru.ru_stime);
  o.peak_bytes = static_cast<std::uint64_t>(ru.ru_maxrss) * 1024;
  if (WIFEXITED(status)) {
    o.code = WEXITSTATUS(status);
    const bool setup_failed = (o.code == 126 || o.code == 127) && o.message.empty();  // before or at its exec
    o.how = setup_failed ? sandbox_outcome::ending::not_started : sandbox_outcome::ending::exited;
  } else {
    o.code = WTERMSIG(status);
    o.how = sandbox_outcome::ending::signalled;
    if (o.code == SIGXFSZ) o.how = sandbox_outcome::ending::output_limit;
    if (o.code == SIGXCPU || (o.code == SIGKILL && o.cpu_seconds >= static_cast<double>(lim.cpu_seconds)))
      o.how = sandbox_outcome::ending::cpu_limit;
    if (killed) o.how = sandbox_outcome::ending::deadline;
  }
  return o;
}

std::string limit_met(const sandbox_outcome& o, const sandbox_limits& lim) {
  using e = sandbox_outcome::ending;
  switch (o.how) {
    case e::cpu_limit:
      return "the CPU time limit (" + std::to_string(lim.cpu_seconds) + " s)";
    case e::output_limit:
      return "the output size limit (" + std::to_string(lim.output_bytes) + " bytes)";
    case e::deadline:
      return "the deadline (" + seconds_text(lim.deadline) + ")";
    default:
      return "";
  }
}

}  // namespace cuzk::job
