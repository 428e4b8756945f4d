// spdlog for cuzk's daemons: to stderr, with its own timestamps on a
// terminal; under systemd (JOURNAL_STREAM set: stderr is the journal) no
// timestamps of its own and each line prefixed with its syslog priority
// (<3> error ... <7> debug, sd-daemon(3)), so journald files it right.
#pragma once

#include <string>

namespace cuzk::log {

/* tag: "gpu-server", "worker@3"; CUZK_LOG_LEVEL (trace..off) sets the level. */
void setup(const std::string& tag);

/* true when stderr is the journal (JOURNAL_STREAM matches stderr's device and inode). */
bool to_journal();

}  // namespace cuzk::log
