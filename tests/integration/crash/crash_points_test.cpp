// Every failpoint in failpoints.hpp, on the real binaries: killed at a random
// hit of the H its workload makes in a round, CUZK_CRASH_KILLS_PER_HIT times
// per hit (default 20; H is 1 to 6), or CUZK_CRASH_ITERATIONS times in all
// when set (a long soak: CUZK_CRASH_ITERATIONS=2000), the invariants checked
// after every kill (crash_loop.hpp). One ctest test per point (label crash).
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>

#include "crash_loop.hpp"
#include "seed.hpp"

namespace cuzk::test::crash {
namespace {

int from_env(const char* name, int otherwise) {
  const char* v = std::getenv(name);
  return v && *v ? std::max(1, std::atoi(v)) : otherwise;
}

class CrashPoint : public ::testing::TestWithParam<crash_point> {};

TEST_P(CrashPoint, KilledAtARandomHitLosesNoJobProvesNoneTwiceLeaksNoSlot) {
  const crash_point& p = GetParam();
  // CUZK_CRASH_ITERATIONS kills per failpoint, shared by the kinds of process that hit it; else so many per hit.
  const auto kinds = std::count_if(std::begin(crash_points), std::end(crash_points),
                                   [&](const crash_point& q) { return q.name == p.name; });
  const int total = from_env("CUZK_CRASH_ITERATIONS", 0), per_hit = from_env("CUZK_CRASH_KILLS_PER_HIT", 20);
  const auto kills = [&](std::uint64_t hits) {
    return total ? static_cast<int>((total + kinds - 1) / kinds) : per_hit * static_cast<int>(hits);
  };
  const std::uint64_t salt = std::hash<std::string_view>{}(p.name) ^ static_cast<std::uint64_t>(p.who);
  crash_loop loop(seed() ^ salt);
  const loop_stats st = loop.run(p, kills);
  std::printf(
      "%s (%s): H = %llu hits per round; %d kills (%d wanted), %d rounds without one, %d helper kills; at most %d "
      "kill(s) per check; %d batches, %d jobs "
      "checked; %.1f s, %.0f ms per kill (%.0f ms CPU)\n",
      std::string(p.name).c_str(), p.who == kind::server ? "server" : "worker",
      static_cast<unsigned long long>(st.hits), st.kills, st.wanted, st.misses, st.other_deaths,
      st.most_kills_per_check, st.batches, st.jobs, st.seconds, st.kills ? 1000 * st.seconds / st.kills : 0.0,
      st.kills ? 1000 * st.cpu_seconds / st.kills : 0.0);
  EXPECT_GE(st.kills, st.wanted);
  EXPECT_GT(st.wanted, 0);
}

std::string name_of(const ::testing::TestParamInfo<crash_point>& info) {
  std::string s = std::string(info.param.who == kind::server ? "server_" : "worker_") + std::string(info.param.name);
  for (auto& c : s)
    if (!std::isalnum(static_cast<unsigned char>(c))) c = '_';
  return s;
}

INSTANTIATE_TEST_SUITE_P(Points, CrashPoint, ::testing::ValuesIn(crash_points), name_of);

// A failpoint added to the sources without an entry above would never be killed at.
TEST(CrashPointList, NamesEveryFailpointOfTheSources) {
  namespace fs = std::filesystem;
  const std::regex call(R"re(failpoint\("([^"]+)"\))re");
  std::set<std::string> listed, found;
  for (const auto& p : crash_points) listed.emplace(p.name);
  for (const char* dir : {"shm", "job", "gpu-server", "synth-worker"})
    for (const auto& f : fs::recursive_directory_iterator(fs::path(CUZK_SOURCE_DIR) / dir)) {
      if (f.path().extension() != ".cpp") continue;
      std::ifstream in(f.path());
      const std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
      for (std::sregex_iterator m(text.begin(), text.end(), call), end; m != end; ++m) found.insert((*m)[1]);
    }
  ASSERT_FALSE(found.empty());
  // Killed or stalled by their own tests: a key load mid-copy (tests/unit/shm srs_region_test,
  // cuzk_shm_cli_test); the server's timer, stalled for the systemd watchdog (tests/deploy).
  for (const char* elsewhere : {"srs.load.copy", "server.tick"}) listed.insert(elsewhere);
  for (const auto& name : found) EXPECT_TRUE(listed.count(name)) << name << " is missing from failpoints.hpp";
  for (const auto& name : listed) EXPECT_TRUE(found.count(name)) << name << " is in no source file";
}

}  // namespace
}  // namespace cuzk::test::crash
