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
  std::size_t n = 0;
  std::vector<shm::job_ref> refused;
  jobs_.for_each([&](shm::job_ref j, const shm::job_record& rec) {
    if (shm::job_word_state(rec) != shm::job_state::active) return;
    for (std::uint32_t p = 0; p < rec.n_partitions; ++p)
      if (queued(rec, p)) {
        if (fail_if_poison(jobs_, j, rec, p, max_synth_crashes_, died_unseen)) {
          refused.push_back(j);
          break;
        }
        queue_.push({rec.priority, rec.seq, j, p});
        ++n;
      }
  });
  for (auto j : refused) queue_.drop(j);
  for (auto j : refused) failed_(j);
  if (n && log) spdlog::info("{} partition(s) queued from the job table", n);
}

void local_job_queue::sync() {
  if (seen_.size() != slots_.size()) seen_.assign(slots_.size(), {});
  std::vector<shm::job_ref> changed;
  for (std::uint64_t s = 0; s < seen_.size(); ++s) {
    auto w = slots_.word(s);
    auto e = slots_.entry(s);
    if (!w || !e) continue;
    const seen_slot now{w->pack(), shm::job_of(**e)};
    if (now.word == seen_[s].word && now.job == seen_[s].job) continue;
    changed.push_back(seen_[s].job);
    changed.push_back(now.job);
    seen_[s] = now;
  }
  std::vector<shm::job_ref> refused;
  for (auto j : changed)
    if (look_again(j)) refused.push_back(j);
  for (auto j : refused) failed_(j);
}

bool local_job_queue::look_again(shm::job_ref j) {
  auto rec = jobs_.get(j);
  if (!rec || shm::job_word_state(**rec) != shm::job_state::active) {
    queue_.drop(j);
    return false;
  }
  for (std::uint32_t p = 0; p < (*rec)->n_partitions; ++p) {
    const queued_partition q{static_cast<shm::priority>((*rec)->priority), (*rec)->seq, j, p};
    if (!queued(**rec, p)) {
      queue_.erase(q);
    } else if (!queue_.contains(q)) {
      if (fail_if_poison(jobs_, j, **rec, p, max_synth_crashes_, died_unseen)) {
        queue_.drop(j);
        return true;
      }
      queue_.push(q);
    }
  }
  return false;
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
  return static_cast<bool>(jobs_.mark_slotted(q.job, q.partition, slot));
}

void local_job_queue::give_back(const queued_partition& q) {
  (void)jobs_.requeue(q.job, q.partition);
  queue_.push(q);
}

bool local_job_queue::refuse_poison(shm::job_ref j, std::uint32_t p, unsigned max, const std::string& last) {
  auto rec = jobs_.get(j);
  auto pw = jobs_.part(j, p);
  return rec && pw && pw->state == shm::part_state::queued && fail_if_poison(jobs_, j, **rec, p, max, last);
}

}  // namespace cuzk::server
