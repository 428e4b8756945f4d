#include "queue/local_job_queue.hpp"

#include <spdlog/spdlog.h>

#include <string_view>
#include <vector>

namespace cuzk::server {

namespace {

constexpr const char* died_unseen = "its worker died while synthesizing it: killed, out of memory?";

/* A QUEUED partition whose synthesis has started `max` times (a synthesis
   that ends without a filled slot or an error ended its worker: killed,
   for memory most likely, hung, or past its deadline) is failed rather than
   requeued: its input is poison, and other jobs must get the workers. */
bool fail_if_poison(shm::job_table& jobs, shm::job_ref j, const shm::job_record& rec, std::uint32_t p, unsigned max,
                    std::string_view last) {
  const std::uint32_t n = rec.parts[p].syntheses.load(std::memory_order_relaxed);
  if (n < max) return false;
  const std::string why = "synthesis of partition " + std::to_string(p) + " ended its worker " + std::to_string(n) +
                          " times (last: " + std::string(last) + "); the job's input is refused";
  if (!jobs.fail(j, p, why)) return false;
  spdlog::warn("job {} ({}): {}", j.index, shm::field_text(rec.job_id), why);
  return true;
}

bool queued(const shm::job_record& rec, std::uint32_t p) {
  return shm::part_word::unpack(rec.parts[p].word.load(std::memory_order_acquire)).state == shm::part_state::queued;
}

}  // namespace

shm::result<shm::submit_outcome> local_job_queue::submit(const shm::job_request& req) {
  auto out = jobs_.submit(req);
  if (!out || !out->created || out->conflict) return out;
  if (auto rec = jobs_.get(out->job))
    for (std::uint32_t i = 0; i < req.partitions; ++i) queue_.push({req.prio, (*rec)->seq, out->job, i});
  return out;
}

void local_job_queue::refresh(bool log) {
  queue_.clear();
  out_.clear();
  std::size_t n = 0;
  std::vector<shm::job_ref> refused;
  jobs_.for_each([&](shm::job_ref j, const shm::job_record& rec) {
    if (shm::job_word_state(rec) != shm::job_state::active) return;
    for (std::uint32_t p = 0; p < rec.n_partitions; ++p) {
      const queued_partition q{rec.priority, rec.seq, j, p};
      const auto pw = shm::part_word::unpack(rec.parts[p].word.load(std::memory_order_acquire));
      if (pw.state == shm::part_state::slotted) out_.insert(q);
      if (pw.state != shm::part_state::queued) continue;
      if (fail_if_poison(jobs_, j, rec, p, max_synth_crashes_, died_unseen)) {
        refused.push_back(j);
        break;
      }
      queue_.push(q);
      ++n;
    }
  });
  for (auto j : refused) queue_.drop(j);
  for (auto j : refused) failed_(j);
  if (n && log) spdlog::info("{} partition(s) queued from the job table", n);
}

void local_job_queue::sync() {
  std::vector<shm::job_ref> refused;
  std::erase_if(out_, [&](const queued_partition& q) { return !still_out(q, refused); });
  for (auto j : refused) failed_(j);
}

bool local_job_queue::still_out(const queued_partition& q, std::vector<shm::job_ref>& refused) {
  auto rec = jobs_.get(q.job);
  if (!rec || shm::job_word_state(**rec) != shm::job_state::active) {
    queue_.drop(q.job);
    return false;
  }
  if (queued(**rec, q.partition)) {
    if (fail_if_poison(jobs_, q.job, **rec, q.partition, max_synth_crashes_, died_unseen)) {
      queue_.drop(q.job);
      refused.push_back(q.job);
    } else {
      queue_.push(q);
    }
    return false;
  }
  return shm::part_word::unpack((*rec)->parts[q.partition].word.load(std::memory_order_acquire)).state ==
         shm::part_state::slotted;
}

std::optional<queued_partition> local_job_queue::take(
    const std::function<bool(const queued_partition&, const shm::job_record&)>& fits) {
  std::vector<shm::job_ref> gone;
  auto q = queue_.pop_first([&](const queued_partition& q) {
    auto rec = jobs_.get(q.job);
    if (!rec || shm::job_word_state(**rec) != shm::job_state::active) {
      gone.push_back(q.job);
      return false;
    }
    return fits(q, **rec);
  });
  for (auto j : gone) queue_.drop(j);
  return q;
}

bool local_job_queue::claim(const queued_partition& q, std::uint32_t slot) {
  if (!jobs_.mark_slotted(q.job, q.partition, slot)) return false;
  out_.insert(q);
  return true;
}

void local_job_queue::give_back(const queued_partition& q) {
  (void)jobs_.requeue(q.job, q.partition);
  out_.erase(q);
  queue_.push(q);
}

bool local_job_queue::refuse_poison(shm::job_ref j, std::uint32_t p, unsigned max, const std::string& last) {
  auto rec = jobs_.get(j);
  auto pw = jobs_.part(j, p);
  return rec && pw && pw->state == shm::part_state::queued && fail_if_poison(jobs_, j, **rec, p, max, last);
}

}  // namespace cuzk::server
