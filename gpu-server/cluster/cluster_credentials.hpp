// Where a node's database credential may come from (issue 37): a libpq
// connection string holding a password is refused on the command line
// (every local user reads /proc/PID/cmdline) and in a configuration file
// others may read; it comes from --cluster-database-file, a file only the
// service's user reads (no group or other permission, as libpq requires of a
// passfile), or from a libpq passfile (PGPASSFILE or passfile=).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

namespace cuzk::server {

/* The connection string names a password (password=…, or postgresql://USER:PASSWORD@…). */
bool holds_password(const std::string& conninfo);

/* Why a file may not hold a credential (others may read it, or another user owns it), or nullopt. */
std::optional<std::string> credential_file_refusal(const std::filesystem::path& p);

/* The connection string in a --cluster-database-file (its first line), or why not. */
std::optional<std::string> read_credential_file(const std::filesystem::path& p, std::string& conninfo);

/* Why the node may not use this connection string: from_command_line (--cluster-database in argv), or
   from `config`, a configuration file others may read; nullopt when it holds no password or comes from
   where only the service reads. */
std::optional<std::string> database_refusal(const std::string& conninfo, bool from_command_line,
                                            const std::string& config);

}  // namespace cuzk::server
