// Which file a job named: the server opens a client's file once, checks it,
// and records its identity; the worker that reads it later opens the same
// path without following symlinks and refuses it if it is no longer that file.
#pragma once

#include <string>
#include <sys/stat.h>

namespace cuzk::job {

/* "dev:ino:size:mtime_ns" */
std::string file_identity(const struct stat& st);

/* Opens path (O_NOFOLLOW, O_NONBLOCK), requires a regular file and, when
   identity is not empty, the same file; job_error otherwise. The caller
   closes the descriptor. */
int open_identified(const std::string& path, const std::string& identity, const char* what);

}  // namespace cuzk::job
