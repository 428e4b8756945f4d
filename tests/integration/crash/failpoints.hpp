// Every failpoint the crash suite kills at: its name (as passed to
// shm::failpoint), the kind of process armed with it, and the workload that
// makes that process hit it. A name hit by several kinds of process appears
// once per kind.
#pragma once

#include <ostream>
#include <string_view>

namespace cuzk::test::crash {

enum class kind { server, worker };

enum class workload {
  flow,                  // jobs submitted, assigned, synthesized, filled, proven
  start,                 // the process starting (taking its lease)
  worker_died,           // a worker died holding an ASSIGNED slot: the server's reaper or the next worker reclaims it
  server_died_proving,   // a server starts after one died with a PROVING slot
  server_died_stored,    // ... after one died between storing a proof and releasing its slot
  server_died_reserved,  // ... after one died between reserving a job record and publishing it
  bad_witness,           // jobs the worker cannot synthesize: it fails them and abandons the slot
  bad_proof,             // jobs whose proof does not verify: the server fails them and abandons the slot
};

struct crash_point {
  std::string_view name;
  kind who;
  workload load;
};

inline constexpr crash_point crash_points[] = {
    // server: Submit, key load, job records
    {"server.key.loaded", kind::server, workload::flow},
    {"job.submit.reserve", kind::server, workload::flow},
    {"job.submit.fields", kind::server, workload::flow},
    {"job.submit.publish", kind::server, workload::flow},
    {"server.submit.accepted", kind::server, workload::flow},
    // server: Assign
    {"job.mark_slotted.cas", kind::server, workload::flow},
    {"slot.assign.binding", kind::server, workload::flow},
    {"slot.assign.cas", kind::server, workload::flow},
    {"server.assign.sent", kind::server, workload::flow},
    // worker: Assign, synthesis, Filled
    {"worker.assign.received", kind::worker, workload::flow},
    {"job.count_synthesis", kind::worker, workload::flow},
    {"worker.synthesizing", kind::worker, workload::flow},
    {"worker.synthesized", kind::worker, workload::flow},
    {"slot.fill.sizes", kind::worker, workload::flow},
    {"slot.fill.cas", kind::worker, workload::flow},
    {"worker.filled.sent", kind::worker, workload::flow},
    // server: Filled, proof, storage, release
    {"server.filled", kind::server, workload::flow},
    {"slot.prove.cas", kind::server, workload::flow},
    {"server.proved", kind::server, workload::flow},
    {"job.store_result.bytes", kind::server, workload::flow},
    {"job.store_result.part", kind::server, workload::flow},
    {"job.complete.cas", kind::server, workload::flow},
    {"server.proof.stored", kind::server, workload::flow},
    {"slot.release.cas", kind::server, workload::flow},
    // leases: every process start
    {"lease.take.lock", kind::server, workload::start},
    {"lease.take.fields", kind::server, workload::start},
    {"lease.take.publish", kind::server, workload::start},
    {"lease.take.lock", kind::worker, workload::start},
    {"lease.take.fields", kind::worker, workload::start},
    {"lease.take.publish", kind::worker, workload::start},
    // reclamation of a dead worker: by the server's reaper, by the next worker's lease
    {"reclaim.lease.cas", kind::server, workload::worker_died},
    {"slot.reclaim_assigned.cas", kind::server, workload::worker_died},
    {"job.requeue.cas", kind::server, workload::worker_died},
    {"reclaim.lease.cas", kind::worker, workload::worker_died},
    {"slot.reclaim_assigned.cas", kind::worker, workload::worker_died},
    {"job.requeue.cas", kind::worker, workload::worker_died},
    // reclamation and reconciliation of a dead server, by the next one
    {"slot.reclaim_proving.cas", kind::server, workload::server_died_proving},
    {"slot.discard.cas", kind::server, workload::server_died_stored},
    {"job.release_reserved.cas", kind::server, workload::server_died_reserved},
    // failed jobs: by the worker (synthesis), by the server (proof)
    {"job.fail.text", kind::worker, workload::bad_witness},
    {"job.fail.part", kind::worker, workload::bad_witness},
    {"job.fail.job", kind::worker, workload::bad_witness},
    {"slot.abandon.cas", kind::worker, workload::bad_witness},
    {"job.fail.text", kind::server, workload::bad_proof},
    {"job.fail.part", kind::server, workload::bad_proof},
    {"job.fail.job", kind::server, workload::bad_proof},
    {"slot.abandon.cas", kind::server, workload::bad_proof},
};

inline void PrintTo(const crash_point& p, std::ostream* os) {
  *os << p.name << (p.who == kind::server ? " in the server" : " in a worker");
}

}  // namespace cuzk::test::crash
