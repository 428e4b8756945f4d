// Whose job a Status, Fetch or Wait names (DESIGN §9): job ids are per uid,
// so an operator who sees every job must never get one user's job when it
// asked about another's with the same id. And the ids no client may name:
// a cluster node's claims are "cluster:…" (cluster/cluster_names.hpp).
#pragma once

#include <sys/types.h>

#include <algorithm>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cuzk::server {

inline constexpr std::string_view cluster_job_prefix = "cluster:";

/* Why a client may not name a job so: the cluster's claims are named "cluster:…". */
inline std::optional<std::string> reserved_job_id(std::string_view job_id) {
  if (!job_id.starts_with(cluster_job_prefix)) return std::nullopt;
  return "job ids beginning with \"" + std::string(cluster_job_prefix) +
         "\" are reserved for the jobs a cluster node claims; choose another job id";
}

struct job_owner {
  std::optional<uid_t> uid;      // the owner whose job is meant; none: unknown_job, or ambiguous
  std::vector<uid_t> ambiguous;  // several owners and none named: their uids, ascending
};

/* owners: the uids that have a job with the id. A client names only its own
   jobs (an owner other than itself is unknown); an operator's own job wins,
   then the one owner there is, else it must name the owner. */
inline job_owner owner_of_job(uid_t caller, bool is_operator, std::optional<uid_t> named, std::vector<uid_t> owners) {
  const auto has = [&](uid_t u) { return std::find(owners.begin(), owners.end(), u) != owners.end(); };
  if (named) return {(*named == caller || is_operator) && has(*named) ? named : std::nullopt, {}};
  if (has(caller)) return {caller, {}};
  if (!is_operator) return {};
  std::sort(owners.begin(), owners.end());
  owners.erase(std::unique(owners.begin(), owners.end()), owners.end());
  if (owners.size() == 1) return {owners.front(), {}};
  if (owners.empty()) return {};
  return {std::nullopt, std::move(owners)};
}

/* "job X exists for uids 1000, 1001; name the owner with --uid". */
inline std::string ambiguous_job(const std::string& job_id, const std::vector<uid_t>& uids) {
  std::string list;
  for (auto u : uids) list += (list.empty() ? "" : ", ") + std::to_string(u);
  return "job " + job_id + " exists for uids " + list + "; name the owner with --uid";
}

}  // namespace cuzk::server
