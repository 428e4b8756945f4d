#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <regex>

#include "config/config_file.hpp"

namespace cuzk::config {
namespace {

namespace fs = std::filesystem;

fs::path write(const std::string& text) {
  static int n = 0;
  auto p = fs::temp_directory_path() /
           ("cuzk-config-test-" + std::to_string(::getpid()) + "-" + std::to_string(n++) + ".toml");
  std::ofstream(p) << text;
  return p;
}

const std::vector<section> server_like = {
    {"pool", {{"name", {"--pool"}}}},
    {"server",
     {{"endpoint", {"--endpoint"}},
      {"threads", {"--threads"}},
      {"gpus", {"--gpus"}},
      {"no_register", {"--no-register", true}},
      {"device_reserve_gib", {"--device-reserve"}}}},
};

std::string message_of(const fs::path& f) {
  try {
    (void)read(f, server_like);
  } catch (const error& e) {
    return e.what();
  }
  return "";
}

TEST(ConfigFile, KeysBecomeTheProcessesOptionsInTheirOrder) {
  const auto f = write(R"([pool]
name = "cuzk"
slots = ["4x65536"]   # read by cuzk-shm, not by this process

[server]
endpoint = "ipc:///run/cuzk/cuzk.sock"
threads = 8
gpus = [0, 1]
no_register = true
device_reserve_gib = 2.5
)");
  const auto a = read(f, server_like);
  const std::vector<std::string> want = {
      "--pool", "cuzk", "--device-reserve", "2.5",       "--endpoint", "ipc:///run/cuzk/cuzk.sock", "--gpus", "0",
      "--gpus", "1",    "--no-register",    "--threads", "8"};
  EXPECT_EQ(a.args, want);
  EXPECT_NE(a.origin.at("--threads").find(":7: key server.threads"), std::string::npos) << a.origin.at("--threads");
  fs::remove(f);
}

TEST(ConfigFile, AFalseSwitchAddsNothing) {
  const auto f = write("[server]\nno_register = false\n");
  EXPECT_TRUE(read(f, server_like).args.empty());
  fs::remove(f);
}

TEST(ConfigFile, UnknownSectionsKeysAndWrongTypesNameTheKeyAndLine) {
  auto f = write("[pool]\nname = \"x\"\n\n[serevr]\nendpoint = \"e\"\n");
  EXPECT_NE(message_of(f).find(":4: unknown section [serevr]"), std::string::npos) << message_of(f);
  fs::remove(f);
  f = write("[server]\nendpoint = \"e\"\nthreds = 4\n");
  EXPECT_NE(message_of(f).find(":3: unknown key server.threds"), std::string::npos) << message_of(f);
  fs::remove(f);
  f = write("[server]\nno_register = \"yes\"\n");
  EXPECT_NE(message_of(f).find(":2: key server.no_register must be true or false"), std::string::npos) << message_of(f);
  fs::remove(f);
  f = write("[server]\ngpus = [[0], [1]]\n");
  EXPECT_NE(message_of(f).find(":2: key server.gpus: an array"), std::string::npos) << message_of(f);
  fs::remove(f);
  f = write("[server]\nthreads = { n = 1 }\n");
  EXPECT_NE(message_of(f).find(":2: key server.threads: a string, number or boolean expected"), std::string::npos)
      << message_of(f);
  fs::remove(f);
  f = write("[server\nthreads = 1\n");
  EXPECT_NE(message_of(f).find(":1: "), std::string::npos) << message_of(f);
  fs::remove(f);
  EXPECT_THROW((void)read("/nonexistent/cuzk.toml", server_like), error);
}

TEST(ConfigFile, ParseErrorsOfOptionsFromTheFileGetItsPosition) {
  arguments a;
  a.origin["--threads"] = "cuzk.toml:7: key server.threads";
  EXPECT_EQ(explain("Could not convert: --threads = many", a),
            "cuzk.toml:7: key server.threads: Could not convert: --threads = many");
  EXPECT_EQ(explain("--threads-per-gpu: bad", a), "--threads-per-gpu: bad");
  EXPECT_EQ(explain("--pool is required", a), "--pool is required");
}

TEST(ConfigFile, TheCommandLineComesAfterTheFileSoItsValuesWin) {
  const char* argv[] = {"cuzk-gpu-server", "--config=/etc/cuzk/cuzk.toml", "--threads", "2"};
  EXPECT_EQ(config_path(4, argv), "/etc/cuzk/cuzk.toml");
  const char* argv2[] = {"cuzk-gpu-server", "--config", "a.toml"};
  EXPECT_EQ(config_path(3, argv2), "a.toml");
  EXPECT_EQ(config_path(1, argv), std::nullopt);
  arguments a;
  a.args = {"--threads", "8"};
  const auto m = merged(4, argv, a);
  const std::vector<std::string> want = {"cuzk-gpu-server", "--threads", "8", "--config=/etc/cuzk/cuzk.toml",
                                         "--threads",       "2"};
  EXPECT_EQ(m, want);
  CLI::App app{"t"};
  app.option_defaults()->multi_option_policy(CLI::MultiOptionPolicy::TakeLast);
  int threads = 0;
  std::string config;
  app.add_option("--threads", threads);
  app.add_option("--config", config);
  std::vector<const char*> av;
  for (const auto& x : m) av.push_back(x.c_str());
  app.parse(int(av.size()), av.data());
  EXPECT_EQ(threads, 2);
}

/* The example configuration shipped in systemd/ is valid for the server and the worker. */
TEST(ConfigFile, TheShippedExampleIsValid) {
  const std::vector<section> all = {
      {"pool", {{"name", {"--pool"}}, {"hugepages", {"--hugepages"}}}},
      {"server", {{"endpoint", {"--endpoint"}}, {"keys_dirs", {"--keys-dir"}}, {"workers_per_gpu", {"--w"}}}},
      {"worker", {{"checksum", {"--checksum", true}}, {"stop_timeout", {"--stop-timeout"}}}},
  };
  const auto a = read(CUZK_EXAMPLE_CONFIG, all);
  EXPECT_FALSE(a.args.empty());
  EXPECT_EQ(a.args.front(), "--pool");
}

/* every key the example file names, set or commented out ("# msm_copies = -1"), is one a process accepts */
TEST(ConfigFile, EveryKeyTheExampleNamesIsKnown) {
  std::ifstream in(CUZK_EXAMPLE_CONFIG);
  ASSERT_TRUE(in) << CUZK_EXAMPLE_CONFIG;
  const std::regex section(R"(^\[([a-z]+)\])"), key(R"(^#?\s*([a-z_]+)\s*=)");
  std::string line, sec;
  int named = 0;
  for (std::smatch m; std::getline(in, line);) {
    if (std::regex_search(line, m, section))
      sec = m[1];
    else if (!sec.empty() && std::regex_search(line, m, key)) {
      ++named;
      ASSERT_TRUE(known_keys().count(sec)) << sec;
      EXPECT_TRUE(known_keys().at(sec).count(m[1])) << "[" << sec << "] " << m[1] << " is named in the example";
    }
  }
  EXPECT_GT(named, 20);
}

}  // namespace
}  // namespace cuzk::config
