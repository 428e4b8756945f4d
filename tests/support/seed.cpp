#include "seed.hpp"

#include <cstdio>
#include <cstdlib>
#include <string>

namespace cuzk::test {

std::uint64_t seed() {
  static const std::uint64_t s = [] {
    std::uint64_t v;
    if (const char* env = std::getenv("CUZK_TEST_SEED")) {
      v = std::stoull(env);
    } else {
      std::random_device rd;
      v = (std::uint64_t(rd()) << 32) ^ rd();
    }
    std::fprintf(stderr, "[cuzk] test seed %llu (replay with CUZK_TEST_SEED=%llu)\n", (unsigned long long)v,
                 (unsigned long long)v);
    return v;
  }();
  return s;
}

std::mt19937_64 rng(std::uint64_t salt) { return std::mt19937_64(seed() ^ (salt * 0x9e3779b97f4a7c15ull)); }

}  // namespace cuzk::test
