// The HTTP endpoint's answers, on the loop: /metrics from the region, the
// queue and the counters; /healthz while the loop runs; /readyz while serving;
// /trace.json and /timeline from the timeline (server_timeline.cpp).
#include <spdlog/spdlog.h>

#include <algorithm>
#include <map>

#include "server.hpp"

#include <unistd.h>

#include "job/spec.hpp"
#include "proto/names.hpp"
#include "util/utf8.hpp"

namespace cuzk::server {

namespace {

double seconds_between(std::uint64_t from_ns, std::uint64_t to_ns) {
  return to_ns > from_ns ? double(to_ns - from_ns) / 1e9 : 0.0;
}

constexpr std::string_view job_state_name(shm::job_state s) {
  switch (s) {
    case shm::job_state::free:
      return "free";
    case shm::job_state::reserved:
      return "reserved";
    case shm::job_state::active:
      return "active";
    case shm::job_state::done:
      return "done";
    case shm::job_state::failed:
      return "failed";
  }
  return "unknown";
}

constexpr std::string_view slot_state_name(shm::slot_state s) {
  switch (s) {
    case shm::slot_state::free:
      return "free";
    case shm::slot_state::assigned:
      return "assigned";
    case shm::slot_state::filled:
      return "filled";
    case shm::slot_state::proving:
      return "proving";
  }
  return "unknown";
}

}  // namespace

void server::observe_proof(const proof_done& d, std::uint64_t synth_start, std::uint64_t synth_end) {
  auto rec = jobs_->get(d.what.job);
  const std::uint64_t submitted = rec ? (*rec)->submitted_ns : 0;
  auto& cs = series_.of(d.what.pk ? d.what.pk->curve : curves::curve_id::bls12_381);
  ++cs.completed;
  if (submitted) cs.duration.observe(seconds_between(submitted, d.end_ns));
  const auto& t = d.timings;
  /* each phase into its histogram, and one structured log line per phase */
  auto phase = [&](std::string_view name, double v) {
    const auto i = std::find(metrics::phases.begin(), metrics::phases.end(), name) - metrics::phases.begin();
    cs.phase[static_cast<std::size_t>(i)].observe(v);
    spdlog::info("job={} partition={} phase={} ms={:.3f}", d.what.job.index, d.what.partition, name, v * 1e3);
  };
  if (submitted && synth_start) phase("queue", seconds_between(submitted, synth_start));
  if (synth_start) phase("synth", seconds_between(synth_start, synth_end));
  if (auto e = slots_->entry(d.what.slot); e && (*e)->witness_ns && rec) {
    const double s = double((*e)->witness_ns) / 1e9;
    phase("witness", s);
    try {
      const auto sp = job::spec::from_json({(*rec)->spec, std::min<std::size_t>((*rec)->spec_len, shm::spec_bytes)});
      if (sp.is_installed()) series_.witness_of(sp.installed).observe(s);
    } catch (const std::exception&) {
    }
  }
  if (d.gpu >= 0) phase("h2d", t.h2d);
  phase("ntt", t.ntt);
  phase("msm", t.msm);
  phase("prove", t.total);
  phase("verify", d.verify);
  throughput_.proven();
  note_proof_spans(d);
  if (d.gpu >= 0 && d.what.pk)
    series_.h2d_bytes += 32 * (3 * std::uint64_t(d.what.pk->domain_size) + std::uint64_t(d.what.pk->n_vars));
}

http_reply server::on_http(std::string_view path, std::string_view query, std::optional<std::uint32_t> peer_uid) const {
  if (path == "/trace.json" || path == "/timeline") {
    if (!peer_uid || !opt_.is_operator(static_cast<uid_t>(*peer_uid)))
      return {403, "text/plain; charset=utf-8",
              std::string(path) +
                  " shows every client's jobs: it is served only to an operator (root, the server's uid "
                  "or an --operator uid) connecting from this host; " +
                  (peer_uid ? "this connection is uid " + std::to_string(*peer_uid) : "this peer is not on this host") +
                  "\n"};
    return timeline_reply(path, query);
  }
  if (path == "/metrics") return {200, std::string(metrics::content_type), metrics_text()};
  if (path == "/healthz") return {200, "text/plain; charset=utf-8", "ok\n"};
  if (path == "/readyz") {
    // A cluster node whose database does not answer takes no job: not ready, and why.
    if (state_.serving && !state_.stopping && claims_ && !claims_->database_up())
      return {503, "text/plain; charset=utf-8",
              "cluster database unavailable: " + util::printable(claims_->database_error(), 1024) + "\n"};
    if (state_.serving && !state_.stopping) return {200, "text/plain; charset=utf-8", "ready\n"};
    return {503, "text/plain; charset=utf-8", state_.stopping ? "stopping\n" : "starting\n"};
  }
  return {404, "text/plain; charset=utf-8",
          "not found: /metrics, /healthz, /readyz, /trace.json and /timeline are served\n"};
}

std::string server::metrics_text() const {
  metrics::writer w;
  w.family("cuzk_proofs_completed_total", "counter",
           "Partitions proven and stored since the server started, by the curve of their key.");
  for (const auto c : {curves::curve_id::bls12_381, curves::curve_id::bn254})
    w.sample("cuzk_proofs_completed_total", {{"curve", std::string(curves::name(c))}}, double(series_.of(c).completed));
  w.family("cuzk_proofs_failed_total", "counter",
           "Partitions whose synthesis or proof failed since the server started.");
  w.sample("cuzk_proofs_failed_total", double(counters_.failed));

  w.family("cuzk_queue_depth", "gauge", "Partitions waiting for a synthesis worker, by priority.");
  for (auto p : priorities_by_rank)
    w.sample("cuzk_queue_depth", {{"priority", std::string(cuzk::name(p))}}, double(queue_->count(p)));
  w.family("cuzk_preemptions_total", "counter",
           "Work stopped for critical jobs since the server started: proofs stopped at a phase boundary (their "
           "slots FILLED again) and syntheses aborted (their partitions queued again).");
  w.sample("cuzk_preemptions_total", {{"kind", "proof"}}, double(counters_.preempted));
  w.sample("cuzk_preemptions_total", {{"kind", "synthesis"}}, double(counters_.aborted));
  w.family("cuzk_preemptions_per_job_max", "gauge",
           "The most times one unfinished job lost its synthesis or its proof to critical jobs (at most "
           "critical max_preemptions).");
  w.sample("cuzk_preemptions_per_job_max", double(counters_.preemptions.most()));
  w.family("cuzk_critical_refused_total", "counter",
           "Critical Submits refused over a per-client critical bound (jobs, partitions, partitions per minute).");
  w.sample("cuzk_critical_refused_total", double(counters_.critical_refused));

  std::map<std::string_view, std::uint64_t> jobs{{"reserved", 0}, {"active", 0}, {"done", 0}, {"failed", 0}};
  jobs_->for_each([&](shm::job_ref, const shm::job_record& rec) {
    if (auto s = shm::job_word_state(rec); s != shm::job_state::free) ++jobs[job_state_name(s)];
  });
  w.family("cuzk_jobs", "gauge", "Jobs in the job table, by state.");
  for (const auto& [state, n] : jobs) w.sample("cuzk_jobs", {{"state", std::string(state)}}, double(n));

  std::map<std::pair<std::uint32_t, std::string_view>, std::uint64_t> slots;
  const auto& hdr = region_->header();
  for (std::uint32_t c = 0; c < std::min<std::uint32_t>(hdr.n_classes, shm::max_slot_classes); ++c)
    for (auto st :
         {shm::slot_state::free, shm::slot_state::assigned, shm::slot_state::filled, shm::slot_state::proving})
      slots[{c, slot_state_name(st)}] = 0;
  for (std::uint64_t s = 0; s < slots_->size(); ++s)
    if (auto word = slots_->word(s)) ++slots[{slots_->class_of(s), slot_state_name(word->state)}];
  w.family("cuzk_slots", "gauge", "Slots of the pool, by state and slot class (index into the pool's classes).");
  for (const auto& [k, n] : slots)
    w.sample("cuzk_slots", {{"state", std::string(k.second)}, {"class", std::to_string(k.first)}}, double(n));

  const auto keys = node_->key_memory();
  w.family("cuzk_key_host_bytes", "gauge",
           "Bytes of host memory each --key's SRS region holds, by its host_copy ([keys]: keep, or drop once every "
           "GPU holds its points).");
  for (const auto& k : keys)
    w.sample("cuzk_key_host_bytes", {{"key", k.key_id}, {"host_copy", k.host_copy}}, double(k.host_bytes));
  w.family("cuzk_key_device_bytes", "gauge",
           "Bytes each --key takes on the GPUs, summed over them: bases, shifted copies and MSM temporaries.");
  for (const auto& k : keys)
    w.sample("cuzk_key_device_bytes", {{"key", k.key_id}, {"host_copy", k.host_copy}}, double(k.device_bytes));
  w.family("cuzk_workers", "gauge", "Synthesis workers connected to the server.");
  w.sample("cuzk_workers", double(workers_->size()));
  w.family("cuzk_gpu_busy_ratio", "gauge", "Share of the last minute each GPU ran a kernel (0..1).");
  const auto gpus = backend_->gpus();
  for (std::size_t i = 0; i < gpus.size(); ++i)
    w.sample("cuzk_gpu_busy_ratio", {{"gpu", std::to_string(i)}}, std::clamp(gpus[i].busy_ratio, 0.0, 1.0));
  w.family("cuzk_gpu_busy_seconds_total", "counter",
           "Seconds each GPU ran a proof's kernels since the server started (busy share over any window: its rate).");
  for (std::size_t i = 0; i < gpus.size(); ++i)
    w.sample("cuzk_gpu_busy_seconds_total", {{"gpu", std::to_string(i)}}, std::max(0.0, gpus[i].busy_seconds));
  w.family("cuzk_h2d_bytes_total", "counter", "Bytes of proof inputs (a, b, c, z) copied to GPUs.");
  w.sample("cuzk_h2d_bytes_total", double(series_.h2d_bytes));
  w.family("cuzk_recovered_slots_total", "counter",
           "Slots found FILLED or PROVING when the server started, proven without a new synthesis.");
  w.sample("cuzk_recovered_slots_total", double(series_.recovered_slots));
  w.family("cuzk_protocol_errors_total", "counter", "Frames rejected, by kind.");
  w.sample("cuzk_protocol_errors_total", {{"kind", "malformed"}}, double(counters_.malformed));
  w.sample("cuzk_protocol_errors_total", {{"kind", "stale"}}, double(counters_.stale));
  w.sample("cuzk_protocol_errors_total", {{"kind", "refused"}}, double(counters_.refused));
  if (clients_) {
    const auto& cc = clients_->counters();
    w.family("cuzk_client_connections", "gauge", "Client connections open.");
    w.sample("cuzk_client_connections", double(clients_->connections()));
    w.family("cuzk_client_refused_total", "counter", "Client connections closed at accept, by the bound they passed.");
    w.sample("cuzk_client_refused_total", {{"reason", "per_client"}}, double(cc.refused_per_uid));
    w.sample("cuzk_client_refused_total", {{"reason", "total"}}, double(cc.refused_total));
    w.family("cuzk_client_closed_total", "counter", "Client connections the server closed, by reason.");
    w.sample("cuzk_client_closed_total", {{"reason", "handshake"}}, double(cc.handshake_timeouts));
    w.sample("cuzk_client_closed_total", {{"reason", "slow_reader"}}, double(cc.slow_readers));
    w.sample("cuzk_client_closed_total", {{"reason", "protocol"}}, double(cc.protocol_errors));
    w.family("cuzk_client_accept_errors_total", "counter",
             "Failed accepts of client connections (out of descriptors).");
    w.sample("cuzk_client_accept_errors_total", double(cc.accept_errors));
  }
  // What a scheduler reads from the capacity reply (operator view: every key).
  const auto cap =
      requests_->capacity_for(peer{"", net::peer_credentials{::geteuid(), ::getegid(), 0}, channel::clients, {}});
  w.family("cuzk_key_partitions", "gauge",
           "Partitions of unfinished jobs, by key, priority and state (queued, running).");
  for (const auto& k : cap.keys)
    for (const auto& [state, n] : {std::pair("queued", k.queued), std::pair("running", k.running)})
      w.sample("cuzk_key_partitions",
               {{"key", k.key_id}, {"priority", std::string(cuzk::name(k.priority))}, {"state", state}}, double(n));
  w.family("cuzk_partitions_per_minute", "gauge", "Partitions proven per minute over the last five minutes.");
  w.sample("cuzk_partitions_per_minute", cap.partitions_per_minute);
  w.family("cuzk_estimated_wait_seconds", "gauge", "The partitions queued now over the recent rate (0: none queued).");
  w.sample("cuzk_estimated_wait_seconds", cap.estimated_wait_s);
  if (claims_) {
    w.family("cuzk_cluster_database_up", "gauge", "1 while this node's last call to the cluster database succeeded.");
    w.sample("cuzk_cluster_database_up", claims_->database_up() ? 1.0 : 0.0);
    w.family("cuzk_cluster_listening", "gauge", "1 while this node LISTENs for the cluster database's notifications.");
    w.sample("cuzk_cluster_listening", cluster_link_->listening() ? 1.0 : 0.0);
    w.family("cuzk_cluster_claims_preparing", "gauge", "Jobs this node claimed that are being prepared into its pool.");
    w.sample("cuzk_cluster_claims_preparing", double(claims_->taking()));
    const auto& cr = cluster_counts_;
    w.family("cuzk_cluster_submits_refused_total", "counter",
             "Submits this node refused at a cluster-wide per-client limit: unfinished jobs, critical jobs or their "
             "partitions, or bytes of "
             "files the client's unfinished jobs keep in the database (--max-spool-per-client).");
    w.sample("cuzk_cluster_submits_refused_total", {{"reason", "jobs"}}, double(cr.refused_jobs));
    w.sample("cuzk_cluster_submits_refused_total", {{"reason", "critical"}}, double(cr.refused_critical));
    w.sample("cuzk_cluster_submits_refused_total", {{"reason", "files"}}, double(cr.refused_files));
    w.family("cuzk_cluster_proofs_refused_total", "counter",
             "Stored proofs this node read from the database and did not answer: they did not verify under their key.");
    w.sample("cuzk_cluster_proofs_refused_total", double(cr.proofs_refused));
  }
  if (uploads_->enabled()) {
    w.family("cuzk_spool_bytes", "gauge",
             "Bytes of streamed files in the spool: uploads in progress, complete, or a job's.");
    w.sample("cuzk_spool_bytes", double(uploads_->bytes()));
    w.family("cuzk_spool_files", "gauge", "Streamed files in the spool: uploads in progress, complete, or a job's.");
    w.sample("cuzk_spool_files", double(uploads_->files()));
  }
  if (network_) {
    const auto& nc = network_->counters();
    w.family("cuzk_network_handshakes_total", "counter",
             "CURVE handshakes of network clients, by result: admitted (a key in the clients directory) or refused.");
    w.sample("cuzk_network_handshakes_total", {{"result", "admitted"}}, double(nc.admitted));
    w.sample("cuzk_network_handshakes_total", {{"result", "refused"}}, double(nc.refused));
    w.family("cuzk_network_connections", "gauge", "Network connections open, handshaking or not.");
    w.sample("cuzk_network_connections", double(network_->connections()));
    w.family("cuzk_network_accepted_total", "counter", "Network connections admitted at accept (within both bounds).");
    w.sample("cuzk_network_accepted_total", double(nc.accepted));
    w.family("cuzk_network_refused_total", "counter",
             "Network connections closed at accept, by the bound they passed.");
    w.sample("cuzk_network_refused_total", {{"reason", "per_address"}}, double(nc.refused_per_address));
    w.sample("cuzk_network_refused_total", {{"reason", "total"}}, double(nc.refused_total));
    w.family("cuzk_network_closed_total", "counter",
             "Network connections the server closed, by reason: no key proven in time (handshake), replies not read "
             "(slow_reader), a protocol or CURVE error (protocol), a key no longer authorized (revoked), 60 s of "
             "silence once handshaken (idle).");
    w.sample("cuzk_network_closed_total", {{"reason", "handshake"}}, double(nc.handshake_timeouts));
    w.sample("cuzk_network_closed_total", {{"reason", "slow_reader"}}, double(nc.slow_readers));
    w.sample("cuzk_network_closed_total", {{"reason", "protocol"}}, double(nc.protocol_errors));
    w.sample("cuzk_network_closed_total", {{"reason", "revoked"}}, double(nc.revoked));
    w.sample("cuzk_network_closed_total", {{"reason", "idle"}}, double(nc.idle_timeouts));
    w.family("cuzk_network_accept_errors_total", "counter",
             "Failed accepts of network connections (out of descriptors).");
    w.sample("cuzk_network_accept_errors_total", double(nc.accept_errors));
  }
  if (http_) {
    const auto h = http_->stats();
    w.family("cuzk_http_connections", "gauge", "Connections open to this metrics endpoint.");
    w.sample("cuzk_http_connections", double(h.open));
    w.family("cuzk_http_closed_total", "counter",
             "Metrics endpoint connections closed unanswered: evicted (the oldest of a peer over its bound, or of the "
             "busiest peer when the total was reached) or timeout (request not read, or reply not taken, in time).");
    w.sample("cuzk_http_closed_total", {{"reason", "evicted"}}, double(h.evicted));
    w.sample("cuzk_http_closed_total", {{"reason", "timeout"}}, double(h.timed_out));
  }
  w.family("cuzk_uptime_seconds", "gauge", "Seconds since the server started.");
  w.sample("cuzk_uptime_seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count());

  constexpr curves::curve_id both[] = {curves::curve_id::bls12_381, curves::curve_id::bn254};
  w.family("cuzk_proof_duration_seconds", "histogram",
           "Seconds from a job's submission to a partition's proof stored, by the curve of its key.");
  for (const auto c : both)
    w.sample("cuzk_proof_duration_seconds", {{"curve", std::string(curves::name(c))}}, series_.of(c).duration);
  w.family("cuzk_phase_duration_seconds", "histogram",
           "Seconds of each phase of a proven partition, by the curve of its key: queue (submission to synthesis), "
           "witness (an installed circuit's witness generator, part of synth), synth, h2d, ntt, msm, prove (the "
           "whole prove call) and verify.");
  for (const auto c : both)
    for (std::size_t i = 0; i < metrics::phases.size(); ++i)
      w.sample("cuzk_phase_duration_seconds",
               {{"curve", std::string(curves::name(c))}, {"phase", std::string(metrics::phases[i])}},
               series_.of(c).phase[i]);
  w.family("cuzk_witness_seconds", "histogram",
           "Seconds an installed circom circuit's witness generator ran for a proven partition, by circuit name (at "
           "most 64 names; the rest as \"other\").");
  for (const auto& [name, h] : series_.witness) w.sample("cuzk_witness_seconds", {{"circuit", name}}, h);
  return w.text();
}

}  // namespace cuzk::server
