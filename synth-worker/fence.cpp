#include "fence.hpp"

#include <signal.h>
#include <sys/mman.h>
#include <unistd.h>

#include <atomic>

namespace cuzk::worker {
namespace {

std::atomic<std::uintptr_t> fenced_lo{0}, fenced_hi{0};

void on_segv(int, siginfo_t* info, void*) {
  const auto at = reinterpret_cast<std::uintptr_t>(info->si_addr);
  if (at >= fenced_lo.load() && at < fenced_hi.load())
    for (;;) ::pause();  // a fenced slot: this thread stops here
  struct sigaction dfl {};
  dfl.sa_handler = SIG_DFL;
  ::sigaction(SIGSEGV, &dfl, nullptr);  // anything else: the fault repeats and kills the process
}

}  // namespace

bool fence(std::span<std::uint8_t> bytes, std::size_t page) noexcept {
  const auto lo = reinterpret_cast<std::uintptr_t>(bytes.data()), hi = lo + bytes.size();
  if (bytes.empty() || page == 0 || lo % page != 0 || hi % page != 0) return false;
  fenced_lo.store(lo);
  fenced_hi.store(hi);
  struct sigaction sa {};
  sa.sa_sigaction = on_segv;
  sa.sa_flags = SA_SIGINFO;
  sigemptyset(&sa.sa_mask);
  if (::sigaction(SIGSEGV, &sa, nullptr) != 0) return false;
  return ::mprotect(reinterpret_cast<void*>(lo), hi - lo, PROT_NONE) == 0;
}

}  // namespace cuzk::worker
