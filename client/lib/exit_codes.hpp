// The exit statuses of the cuzk CLI's service commands (submit, wait,
// status), and how a request's outcome maps onto them:
//   0  ok
//   1  the job failed (its error is printed), or the server failed (internal),
//      or (submit --wait) the proof received does not verify under the key named
//      or proves other public signals than the client's inputs or witness give
//   2  usage or bad input: refused by the CLI, or by the server as malformed,
//      bad_request, unknown_circuit, unknown_job, conflict, ...
//   3  the server cannot be reached or cannot take the job now (no reply in
//      time, unavailable, busy), or the wait's --timeout passed first
#pragma once

#include <cstdio>

#include "client/lib/errors.hpp"
#include "proto/message.hpp"
#include "util/utf8.hpp"

namespace cuzk::client {

inline constexpr int exit_ok = 0;
inline constexpr int exit_job_failed = 1;
inline constexpr int exit_bad_input = 2;
inline constexpr int exit_unreachable = 3;

constexpr int exit_code(proto::error_code c) noexcept {
  switch (c) {
    case proto::error_code::internal:
      return exit_job_failed;
    case proto::error_code::unavailable:
    case proto::error_code::busy:
    case proto::error_code::table_full:
      return exit_unreachable;
    default:
      return exit_bad_input;
  }
}

}  // namespace cuzk::client

namespace cuzk::client {

/* Runs f (which returns an exit status), turning the library's exceptions
   into the statuses above with a "cuzk: ..." line on stderr. */
template <class F>
int with_exit_codes(F&& f) {
  try {
    return f();
  } catch (const server_error& e) {
    std::fprintf(stderr, "cuzk: the server refused: %s\n", util::escape_for_terminal(e.what(), true).c_str());
    return exit_code(e.code());
  } catch (const unreachable& e) {
    std::fprintf(stderr, "cuzk: %s\n", e.what());
    return exit_unreachable;
  } catch (const protocol_error& e) {
    std::fprintf(stderr, "cuzk: %s\n", e.what());
    return exit_job_failed;
  }
}

}  // namespace cuzk::client
