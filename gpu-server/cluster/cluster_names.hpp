// How a cluster job is named on the node that proves it: its local job id is
// "cluster:ID:CLAIM" (ID: its row in the database, CLAIM: which claim of it,
// so a job this node lost and claims again later is a new local job), owned
// by the uid its owner name maps to ("uid:N" → N, "net:NAME" → network_uid(NAME)).
// The name alone proves nothing: a node's claims are the records it marked
// job_origin::cluster, which no client request sets, and clients may not
// use the prefix (reserved_job_id).
#pragma once

#include <charconv>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "listeners/authorized_clients.hpp"
#include "requests/job_lookup.hpp"
#include "shm/layout.hpp"

namespace cuzk::server {

inline std::string local_job_id(std::int64_t cluster_id, std::uint32_t claim) {
  return std::string(cluster_job_prefix) + std::to_string(cluster_id) + ":" + std::to_string(claim);
}

/* ID of "cluster:ID:CLAIM". */
inline std::optional<std::int64_t> cluster_id_of(std::string_view local_job_id) {
  if (!local_job_id.starts_with(cluster_job_prefix)) return std::nullopt;
  local_job_id.remove_prefix(cluster_job_prefix.size());
  const char* const last = local_job_id.data() + local_job_id.size();
  std::int64_t id = 0;
  std::uint32_t claim = 0;
  auto [end, ec] = std::from_chars(local_job_id.data(), last, id);
  if (ec != std::errc() || end == last || *end != ':') return std::nullopt;
  auto [end2, ec2] = std::from_chars(end + 1, last, claim);
  if (ec2 != std::errc() || end2 != last) return std::nullopt;
  return id;
}

/* ID of a record this node made for a cluster claim; nullopt for every other record, whatever its name. */
inline std::optional<std::int64_t> cluster_id_of(const shm::job_record& rec) {
  if (rec.origin != static_cast<std::uint8_t>(shm::job_origin::cluster)) return std::nullopt;
  return cluster_id_of(shm::field_text(rec.job_id));
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
