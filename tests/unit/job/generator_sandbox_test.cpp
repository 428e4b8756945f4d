// Hostile witness generators against their confinement: each is stopped or
// refused with an error that says which limit or rule it met.
#include "job/generator_sandbox.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <chrono>
#include <fstream>
#include <string>

#include "job/spec.hpp"
#include "job/witness_generator.hpp"

namespace cuzk::job {
namespace {

namespace fs = std::filesystem;

/* A "C++ generator" that is a bash script (its NAME.dat beside it, as circom's binary wants). */
class Sandbox : public ::testing::Test {
 protected:
  fs::path dir = fs::temp_directory_path() / ("cuzk-sandbox-test-" + std::to_string(::getpid()));
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }

  witness_generator script(const std::string& name, const std::string& body) {
    const auto p = dir / name;
    std::ofstream(p) << "#!/bin/bash\n" << body << "\n";
    std::ofstream(p.string() + ".dat") << "";
    fs::permissions(p, fs::perms::owner_all);
    return witness_generator::at(p);
  }
  /* The job_error a run ends with, or "" when it gave a witness. */
  std::string error_of(const witness_generator& g, const sandbox_limits& lim, std::string* out = nullptr) {
    try {
      auto w = generate_witness(g, "{}", lim);
      if (out) out->assign(w.wtns.begin(), w.wtns.end());
      return "";
    } catch (const job_error& e) {
      return e.what();
    }
  }
};

TEST_F(Sandbox, AGeneratorSeesOnlyItsInputsInAnEmptyDirectoryAndAnEnvironmentOfPath) {
  std::string out;
  ASSERT_EQ(error_of(script("look", "echo * > witness.wtns; declare -x >> witness.wtns"), {}, &out), "");
  EXPECT_EQ(out.substr(0, out.find('\n')), "input.json");
  EXPECT_NE(out.find("PATH=\"/usr/bin:/bin\""), std::string::npos) << out;
  EXPECT_EQ(out.find("HOME="), std::string::npos) << out;
}

TEST_F(Sandbox, AGeneratorThatForksIsRefusedTheFork) {
  const auto e = error_of(script("forker", "/bin/true; echo made > witness.wtns"), {});
  EXPECT_NE(e.find("fork: Operation not permitted"), std::string::npos) << e;
}

TEST_F(Sandbox, AGeneratorThatOpensASocketIsRefusedIt) {
  const auto e = error_of(script("socket", "exec 3<>/dev/tcp/127.0.0.1/5432 && echo connected > witness.wtns"), {});
  EXPECT_NE(e.find("socket: Permission denied"), std::string::npos) << e;
}

TEST_F(Sandbox, AGeneratorThatSleepsIsKilledAtTheDeadline) {
  sandbox_limits lim;
  lim.deadline = std::chrono::milliseconds(300);
  const auto t0 = std::chrono::steady_clock::now();
  const auto e = error_of(script("sleeper", "exec sleep 60"), lim);
  EXPECT_NE(e.find("stopped at the deadline (0.3 s)"), std::string::npos) << e;
  EXPECT_LT(std::chrono::steady_clock::now() - t0, std::chrono::seconds(5));
}

TEST_F(Sandbox, AGeneratorThatWritesWithoutEndStopsAtTheOutputLimit) {
  sandbox_limits lim;
  lim.output_bytes = 1 << 20;
  const auto e = error_of(script("writer", "exec dd if=/dev/zero of=witness.wtns bs=1M count=10240 status=none"), lim);
  EXPECT_NE(e.find("stopped at the output size limit (1048576 bytes)"), std::string::npos) << e;
}

TEST_F(Sandbox, AGeneratorThatLoopsStopsAtTheCpuLimit) {
  sandbox_limits lim;
  lim.cpu_seconds = 1;
  const auto e = error_of(script("looper", "while :; do :; done"), lim);
  EXPECT_NE(e.find("stopped at the CPU time limit (1 s)"), std::string::npos) << e;
}

TEST_F(Sandbox, AGeneratorThatAllocatesWithoutEndRunsOutOfItsMemory) {
  sandbox_limits lim;
  lim.memory_bytes = 256ULL << 20;
  const auto e = error_of(script("eater", "exec python3 -c 'x = bytearray(2 << 30)'"), lim);
  EXPECT_NE(e.find("ran out of memory (its limit: 256 MiB)"), std::string::npos) << e;
}

TEST_F(Sandbox, AGeneratorThatWritesNoWitnessOrFailsSilentlySaysSo) {
  EXPECT_NE(error_of(script("idle", "exit 0"), {}).find("wrote no witness"), std::string::npos);
  EXPECT_NE(error_of(script("mute", "exit 3"), {}).find("failed (exit status 3) and said nothing"), std::string::npos);
  EXPECT_NE(error_of(script("link", "exec ln -s /etc/passwd witness.wtns"), {}).find("wrote no witness"),
            std::string::npos);
}

TEST_F(Sandbox, AGeneratorWithoutItsFilesIsNamedBeforeAnythingRuns) {
  std::ofstream(dir / "lonely") << "#!/bin/bash\n";
  fs::permissions(dir / "lonely", fs::perms::owner_all);
  try {
    (void)witness_generator::at(dir / "lonely");
    FAIL() << "accepted a C++ generator without its .dat";
  } catch (const job_error& e) {
    EXPECT_NE(std::string(e.what()).find("lonely.dat beside it"), std::string::npos) << e.what();
  }
  std::ofstream(dir / "c.wasm") << "";
  EXPECT_THROW((void)witness_generator::at(dir / "c.wasm"), job_error) << "no witness_calculator.js beside it";
}

}  // namespace
}  // namespace cuzk::job
