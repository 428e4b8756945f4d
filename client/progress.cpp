#include <chrono>
#include <cstdio>

#include "commands.hpp"

namespace cuzk::cli {

void progress(const std::string& what) {
  static const auto start = std::chrono::steady_clock::now();
  double t = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  std::fprintf(stderr, "[cuzk %7.2fs] %s\n", t, what.c_str());
}

}  // namespace cuzk::cli
