// How a cluster job is named on the node that proves it: its local job id is
// "cluster:ID" (ID: its row in the database), owned by the uid its owner name
// maps to ("uid:N" → N, "net:NAME" → network_uid(NAME)).
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "network_identity.hpp"

namespace cuzk::server {

inline constexpr std::string_view cluster_job_prefix = "cluster:";

inline std::string local_job_id(std::int64_t cluster_id) {
  return std::string(cluster_job_prefix) + std::to_string(cluster_id);
}

inline std::optional<std::int64_t> cluster_id_of(std::string_view local_job_id) {
  if (!local_job_id.starts_with(cluster_job_prefix)) return std::nullopt;
  local_job_id.remove_prefix(cluster_job_prefix.size());
  std::int64_t id = 0;
  auto [end, ec] = std::from_chars(local_job_id.data(), local_job_id.data() + local_job_id.size(), id);
  if (ec != std::errc() || end != local_job_id.data() + local_job_id.size()) return std::nullopt;
  return id;
}

inline std::optional<uid_t> local_uid_of(std::string_view owner) {
  if (owner.starts_with("net:")) return network_uid(owner.substr(4));
  if (!owner.starts_with("uid:")) return std::nullopt;
  owner.remove_prefix(4);
  std::uint32_t uid = 0;
  auto [end, ec] = std::from_chars(owner.data(), owner.data() + owner.size(), uid);
  if (ec != std::errc() || end != owner.data() + owner.size()) return std::nullopt;
  return uid;
}

}  // namespace cuzk::server
