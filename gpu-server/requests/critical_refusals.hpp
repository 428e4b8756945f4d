// The sentences a client gets when its critical work is over a bound: the
// same on a node (client_requests) and in a cluster (cluster_job_directory).
#pragma once

#include <cstdint>
#include <string>
#include <string_view>

namespace cuzk::server {

inline std::string critical_refusal_text(const std::string& why) {
  return why + "; critical is for deadline work, submit the rest as high";
}

/* where: "" on a node, " in the cluster" across a cluster's nodes. */
inline std::string too_many_critical_jobs(std::uint64_t held, std::uint64_t limit, std::string_view where = "") {
  return "you have " + std::to_string(held) + " unfinished critical jobs" + std::string(where) +
         ", the limit per client is " + std::to_string(limit);
}

inline std::string too_many_critical_partitions(std::uint64_t partitions, std::uint64_t held, std::uint64_t limit) {
  return "this job's " + std::to_string(partitions) + " critical partition(s) and your " + std::to_string(held) +
         " unfinished ones exceed the limit per client of " + std::to_string(limit) + " critical partitions";
}

}  // namespace cuzk::server
