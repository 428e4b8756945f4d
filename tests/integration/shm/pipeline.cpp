#include "pipeline.hpp"

#include <cstring>

#include "shm/job_table.hpp"
#include "shm/lease.hpp"
#include "shm/slot_table.hpp"

namespace cuzk::test::crash {
namespace {

using namespace cuzk::shm;

std::uint64_t seed_of(const std::string& job, std::uint32_t part) {
  std::uint64_t h = 0xcbf29ce484222325ULL;
  for (char ch : job) h = (h ^ static_cast<std::uint8_t>(ch)) * 0x100000001b3ULL;
  return h ^ (0x9e3779b97f4a7c15ULL * (part + 1));
}

/* splitmix64 (Steele, Lea, Flood 2014) */
std::uint64_t mix(std::uint64_t& s) {
  std::uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

void fill_bytes(std::uint64_t seed, std::span<std::uint8_t> out) {
  for (std::size_t i = 0; i < out.size(); i += 8) {
    std::uint64_t v = mix(seed);
    std::memcpy(out.data() + i, &v, std::min<std::size_t>(8, out.size() - i));
  }
}

bool same_bytes(std::uint64_t seed, std::span<const std::uint8_t> in) {
  std::uint8_t buf[8];
  for (std::size_t i = 0; i < in.size(); i += 8) {
    std::uint64_t v = mix(seed);
    std::memcpy(buf, &v, 8);
    if (std::memcmp(in.data() + i, buf, std::min<std::size_t>(8, in.size() - i)) != 0) return false;
  }
  return true;
}

}  // namespace

std::uint64_t rows(const std::string& job, std::uint32_t part) { return 64 + seed_of(job, part) % 128; }

void write_payload(const std::string& job, std::uint32_t part, std::span<std::uint8_t> a, std::span<std::uint8_t> b,
                   std::span<std::uint8_t> c, std::span<std::uint8_t> z) {
  std::uint64_t s = seed_of(job, part), n = rows(job, part) * 32;
  fill_bytes(s ^ 1, a.first(n));
  fill_bytes(s ^ 2, b.first(n));
  fill_bytes(s ^ 3, c.first(n));
  fill_bytes(s ^ 4, z.first(witness * 32));
}

bool payload_matches(const std::string& job, std::uint32_t part, std::span<const std::uint8_t> a,
                     std::span<const std::uint8_t> b, std::span<const std::uint8_t> c,
                     std::span<const std::uint8_t> z) {
  std::uint64_t s = seed_of(job, part), n = rows(job, part) * 32;
  return same_bytes(s ^ 1, a.first(n)) && same_bytes(s ^ 2, b.first(n)) && same_bytes(s ^ 3, c.first(n)) &&
         same_bytes(s ^ 4, z.first(witness * 32));
}

std::vector<std::uint8_t> proof(const std::string& job, std::uint32_t part) {
  std::vector<std::uint8_t> p(proof_bytes);
  fill_bytes(seed_of(job, part) ^ 0x5555, p);
  return p;
}

bool is_bad(const std::string& job) { return job.size() > 4 && job.compare(job.size() - 4, 4, "-bad") == 0; }

int run_pool(const region_location& where, const std::vector<std::string>& submit) {
  auto r = region::open(where);
  if (!r) return open_failed;
  auto server = lease::take(*r, role::server, "crash-server");
  if (!server) return lease_failed;
  auto worker = lease::take(*r, role::worker, "crash-worker");
  if (!worker) return lease_failed;
  slot_table slots(*r);
  job_table jobs(*r);
  for (const std::string& id : submit) {
    job_request req{id, "crash-test", "key", "", priority::normal, partitions};
    req.retention_ns = 0;  // finished jobs make room at once, as the table's eviction is exercised here
    auto s = jobs.submit(req);
    if (!s && s.error() != error::job_table_full) return unexpected_error;
  }
  for (int round = 0; round < 64; ++round) {
    bool moved = false;
    // server: queued partitions into free slots (job table first, then the slot)
    std::vector<std::pair<job_ref, std::uint32_t>> queued;
    jobs.for_each([&](job_ref j, const job_record& rec) {
      if (job_word_state(rec) != job_state::active) return;
      for (std::uint32_t p = 0; p < rec.n_partitions; ++p)
        if (part_word::unpack(rec.parts[p].word.load()).state == part_state::queued) queued.emplace_back(j, p);
    });
    for (auto [j, p] : queued) {
      auto s = slots.find_free(0);
      if (!s) break;
      std::uint64_t gen = slots.word(*s)->generation;
      if (!jobs.mark_slotted(j, p, static_cast<std::uint32_t>(*s))) return unexpected_error;
      if (!slots.assign(*s, gen, worker->index(), j.index, j.generation, p)) return unexpected_error;
      moved = true;
    }
    // worker: synthesize into its assigned slots
    for (std::uint64_t s = 0; s < slots.size(); ++s) {
      slot_word w = *slots.word(s);
      if (w.state != slot_state::assigned || w.owner != worker->index()) continue;
      const slot_entry& e = **slots.entry(s);
      job_ref j{e.job, e.job_generation};
      std::uint32_t p = e.partition;
      auto rec = jobs.get(j);
      if (!rec) return unexpected_error;
      std::string id((*rec)->job_id);
      jobs.count_synthesis(j, p);
      if (is_bad(id) && p == 1) {
        if (!jobs.fail(j, p, "constraint 1 is not satisfied")) return unexpected_error;
        if (!slots.abandon(s, w.generation, worker->index())) return unexpected_error;
        moved = true;
        continue;
      }
      auto pl = *slots.payload(s);
      write_payload(id, p, pl.a, pl.b, pl.c, pl.z);
      if (!slots.fill(s, w.generation, worker->index(), {rows(id, p), 256, witness, 1, true})) return unexpected_error;
      moved = true;
    }
    // server: prove filled slots, store, release
    for (std::uint64_t s = 0; s < slots.size(); ++s) {
      slot_word w = *slots.word(s);
      if (w.state != slot_state::filled) continue;
      if (!slots.start_proving(s, w.generation, server->index())) return unexpected_error;
      if (!slots.verify_checksum(s)) return checksum_failed;
      const slot_entry& e = **slots.entry(s);
      job_ref j{e.job, e.job_generation};
      std::uint32_t p = e.partition;
      auto rec = jobs.get(j);
      if (rec) {
        std::string id((*rec)->job_id);
        auto pl = *slots.payload(s);
        if (!payload_matches(id, p, pl.a, pl.b, pl.c, pl.z)) return payload_differs;
        auto pr = proof(id, p);
        (void)jobs.store_result(j, p, w.generation, pr);  // refused for a finished job: the slot is freed anyway
      }
      if (!slots.release(s, w.generation, server->index())) return unexpected_error;
      moved = true;
    }
    if (!moved) break;
  }
  return ok;
}

}  // namespace cuzk::test::crash
