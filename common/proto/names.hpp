// Lower-case names of the protocol's enums and messages, as the CLI prints
// them and as --json status writes them.
#pragma once

#include <optional>
#include <string_view>

#include "proto/message.hpp"

namespace cuzk::proto {

using cuzk::name;  // a priority's (util/priority.hpp), like priority_from_name
using cuzk::priority_from_name;
std::string_view name(job_state s) noexcept;
std::string_view name(partition_state s) noexcept;
std::string_view name(slot_state s) noexcept;
std::string_view name(worker_state s) noexcept;
std::string_view name(error_code c) noexcept;
std::string_view name(upload_kind k) noexcept;  // "wtns", "r1cs"
/* "submit", "job_status", ... : the body's alternative. */
std::string_view name(const body& b) noexcept;

}  // namespace cuzk::proto
