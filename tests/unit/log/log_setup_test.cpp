#include <gtest/gtest.h>
#include <fcntl.h>
#include <spdlog/sinks/stdout_sinks.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "log/log_setup.hpp"

namespace cuzk::log {
namespace {

/* Logs two lines with stderr on a file, JOURNAL_STREAM naming that file or not; the file's text. */
std::string logged(bool journal) {
  const auto path = std::filesystem::temp_directory_path() / ("cuzk-log-test-" + std::to_string(::getpid()));
  const int fd = ::open(path.c_str(), O_CREAT | O_TRUNC | O_WRONLY, 0600);
  const int saved = ::dup(2);
  ::dup2(fd, 2);
  struct stat st {};
  ::fstat(fd, &st);
  if (journal)
    ::setenv("JOURNAL_STREAM", (std::to_string(st.st_dev) + ":" + std::to_string(st.st_ino)).c_str(), 1);
  else
    ::unsetenv("JOURNAL_STREAM");
  spdlog::set_default_logger(spdlog::stderr_logger_mt("log_test_" + std::to_string(journal)));
  setup("worker@3");
  spdlog::info("proven job=1");
  spdlog::warn("slow");
  spdlog::default_logger()->flush();
  ::dup2(saved, 2);
  ::close(saved);
  ::close(fd);
  ::unsetenv("JOURNAL_STREAM");
  std::ifstream f(path);
  std::string text{std::istreambuf_iterator<char>(f), std::istreambuf_iterator<char>()};
  std::filesystem::remove(path);
  return text;
}

TEST(LogSetup, InTheJournalLinesCarryTheirPriorityAndNoTimestamp) {
  EXPECT_EQ(logged(true), "<6>[worker@3] proven job=1\n<4>[worker@3] slow\n");
}

TEST(LogSetup, OnATerminalLinesCarryATimestampAndTheLevel) {
  const auto t = logged(false);
  EXPECT_NE(t.find("] [worker@3] [info] proven job=1\n"), std::string::npos) << t;
  EXPECT_EQ(t.rfind("[20", 0), 0u) << t;
  EXPECT_EQ(t.find("<6>"), std::string::npos) << t;
}

}  // namespace
}  // namespace cuzk::log
