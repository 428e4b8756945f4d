#include "log/log_setup.hpp"

#include <spdlog/pattern_formatter.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>

#include <cstdio>
#include <cstdlib>
#include <memory>

namespace cuzk::log {

namespace {

/* %* : "<N>", the syslog priority of the line's level */
class priority_flag final : public spdlog::custom_flag_formatter {
 public:
  void format(const spdlog::details::log_msg& msg, const std::tm&, spdlog::memory_buf_t& dest) override {
    int p = 6;
    switch (msg.level) {
      case spdlog::level::trace:
      case spdlog::level::debug:
        p = 7;
        break;
      case spdlog::level::info:
        p = 6;
        break;
      case spdlog::level::warn:
        p = 4;
        break;
      case spdlog::level::err:
        p = 3;
        break;
      case spdlog::level::critical:
        p = 2;
        break;
      default:
        p = 6;
    }
    const char text[] = {'<', static_cast<char>('0' + p), '>'};
    dest.append(text, text + 3);
  }
  std::unique_ptr<custom_flag_formatter> clone() const override { return std::make_unique<priority_flag>(); }
};

}  // namespace

bool to_journal() {
  const char* js = std::getenv("JOURNAL_STREAM");
  if (!js) return false;
  unsigned long long dev = 0, ino = 0;
  if (std::sscanf(js, "%llu:%llu", &dev, &ino) != 2) return false;
  struct stat st {};
  return ::fstat(2, &st) == 0 && st.st_dev == dev && st.st_ino == ino;
}

void setup(const std::string& tag) {
  auto f = std::make_unique<spdlog::pattern_formatter>();
  if (to_journal())
    f->add_flag<priority_flag>('*').set_pattern("%*[" + tag + "] %v");
  else
    f->set_pattern("[%Y-%m-%d %H:%M:%S.%e] [" + tag + "] [%l] %v");
  spdlog::set_formatter(std::move(f));
  if (const char* lvl = std::getenv("CUZK_LOG_LEVEL")) spdlog::set_level(spdlog::level::from_str(lvl));
}

}  // namespace cuzk::log
