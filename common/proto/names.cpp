#include "proto/names.hpp"

#include <array>

namespace cuzk::proto {

namespace {

template <std::size_t N>
std::string_view pick(const std::array<std::string_view, N>& names, unsigned i) noexcept {
  return i < N ? names[i] : std::string_view("invalid");
}

}  // namespace

std::string_view name(job_state s) noexcept {
  static constexpr std::array<std::string_view, 5> n{"invalid", "queued", "running", "done", "failed"};
  return pick(n, static_cast<unsigned>(s));
}
std::string_view name(partition_state s) noexcept {
  static constexpr std::array<std::string_view, 7> n{"invalid", "queued", "synthesizing", "synthesized",
                                                     "proving", "done",   "failed"};
  return pick(n, static_cast<unsigned>(s));
}
std::string_view name(slot_state s) noexcept {
  static constexpr std::array<std::string_view, 5> n{"invalid", "free", "assigned", "filled", "proving"};
  return pick(n, static_cast<unsigned>(s));
}
std::string_view name(worker_state s) noexcept {
  static constexpr std::array<std::string_view, 4> n{"invalid", "idle", "busy", "hung"};
  return pick(n, static_cast<unsigned>(s));
}
std::string_view name(error_code c) noexcept {
  static constexpr std::array<std::string_view, 13> n{
      "invalid",   "malformed",   "unsupported_version", "unknown_message",
      "too_large", "unknown_job", "bad_request",         "unknown_circuit",
      "internal",  "conflict",    "table_full",          "unavailable",
      "busy"};
  return pick(n, static_cast<unsigned>(c));
}
std::string_view name(upload_kind k) noexcept {
  static constexpr std::array<std::string_view, 3> n{"invalid", "wtns", "r1cs"};
  return pick(n, static_cast<unsigned>(k));
}
std::string_view name(const body& b) noexcept {
  static constexpr std::array<std::string_view, std::variant_size_v<body>> n{
      "submit",       "status_request", "fetch", "wait",       "upload",  "accepted", "job_status",
      "proof_reply",  "status_reply",   "error", "upload_ack", "ready",   "assign",   "filled",
      "synth_failed", "heartbeat",      "bye",   "abort",      "aborted", "cancel"};
  return pick(n, static_cast<unsigned>(b.index()));
}

}  // namespace cuzk::proto
