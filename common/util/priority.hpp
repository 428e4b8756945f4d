// A job's priority: the one type the protocol's structs, the job table, the queues and the cluster share.
// The wire's enum (cuzk.proto Priority, whose zero is NORMAL) is mapped to it in common/proto/encode.cpp and
// decode.cpp; the job table's byte and the cluster's smallint column store its value (stored()/priority_of).
#pragma once

#include <array>
#include <cstdint>
#include <optional>
#include <string_view>

namespace cuzk {

/* The values are what the job table and the cluster store: critical took the next free number when it came. */
enum class priority : std::uint8_t { high = 0, normal = 1, low = 2, critical = 3 };

inline constexpr std::array<std::string_view, 4> priority_names{"high", "normal", "low", "critical"};
/* The order classes are served in. */
inline constexpr std::array<priority, 4> priorities_by_rank{priority::critical, priority::high, priority::normal,
                                                            priority::low};

/* Smaller is served first: critical −1, then high, normal, low. */
constexpr int rank(priority p) noexcept { return p == priority::critical ? -1 : static_cast<int>(p); }

constexpr std::string_view name(priority p) noexcept {
  return static_cast<std::size_t>(p) < priority_names.size() ? priority_names[static_cast<std::size_t>(p)]
                                                             : std::string_view("invalid");
}
/* "high" | "normal" | "low" | "critical". */
constexpr std::optional<priority> priority_from_name(std::string_view s) noexcept {
  for (std::size_t i = 0; i < priority_names.size(); ++i)
    if (priority_names[i] == s) return static_cast<priority>(i);
  return std::nullopt;
}

/* The stored value (the job table's byte, the cluster's column) and back; nullopt for a value no priority has. */
constexpr int stored(priority p) noexcept { return static_cast<int>(p); }
constexpr std::optional<priority> priority_of(int stored) noexcept {
  if (stored < 0 || stored >= static_cast<int>(priority_names.size())) return std::nullopt;
  return static_cast<priority>(stored);
}

}  // namespace cuzk
