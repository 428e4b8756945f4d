// The jobs of a whole-service status reply, newest first, bounded by bytes
// rather than records: a job's status is at most its id, client, error text
// and partitions, so the reply stays far below the frame limit; the jobs left
// out are counted as omitted. Both the node's table (node_job_directory) and a
// cluster's database (cluster_job_directory) list their jobs through it.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <utility>

#include "proto/limits.hpp"
#include "proto/message.hpp"

namespace cuzk::server {

/* The jobs of a status reply stop at this many bytes. */
inline constexpr std::size_t status_job_bytes = proto::max_frame_bytes / 2;

/* status_at(i): the status of the i-th of n jobs, newest first, or nullopt when it is gone. */
template <class F>
void add_jobs(proto::status_reply& st, std::size_t n, F&& status_at) {
  std::size_t bytes = 0, i = 0;
  for (; i < n; ++i) {
    std::optional<proto::job_status> js = status_at(i);
    if (!js) continue;
    const std::size_t cost =
        64 + js->job_id.size() + js->client.size() + js->error.size() + 160 * js->partitions.size();
    if (bytes + cost > status_job_bytes) break;
    bytes += cost;
    st.jobs.push_back(std::move(*js));
  }
  st.jobs_omitted = static_cast<std::uint32_t>(n - i);
}

}  // namespace cuzk::server
