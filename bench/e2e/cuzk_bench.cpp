// cuzk-bench: drives a running service end to end. Submits a workload (a mix
// of native circuits, round robin, random inputs and priorities), waits for
// every job, verifies every proof, and reports throughput and per-phase
// times from the job table's timestamps:
//   queue  = synthesis start − submission      synth = synthesis
//   handoff = proof start − synthesis end      prove = proving
//   total  = finish − submission
// Keys are dev keys made once per circuit and curve in --keys DIR (cuzk
// setup's kind), on --curve, or on the curve a mix entry names after '@'
// ("chain:size=1000@bn254").
// --critical N: the critical class under load. First --critical-alone jobs
// of --critical-mix one at a time on an idle service, then the workload in
// --duration mode (normal and low priorities, the queue kept full) while N
// critical jobs are submitted one after another from a second connection:
// Submit-to-proof latency p50/p99 alone and under load, and the longest
// phase of the background's proofs (what a preempted proof can still hold).
// --upload-mib N instead streams N MiB into the server's spool (an .r1cs
// upload: no key needed) and reports the rate, over ipc or tcp (CURVE with
// --curve-key and --server-public).
#include <CLI/CLI.hpp>

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <stdexcept>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <atomic>
#include <thread>
#include <type_traits>
#include <variant>
#include <vector>

#include "circuits/registry.hpp"
#include "client/lib/connection.hpp"
#include "curves/dispatch.hpp"
#include "groth16/native.hpp"
#include "groth16/verifier.hpp"
#include "io/snarkjs_json.hpp"
#include "io/zkey.hpp"
#include "net/curve_keys.hpp"

namespace fs = std::filesystem;
using namespace cuzk;
using clk = std::chrono::steady_clock;

namespace {

/* One entry of the mix: a circuit on a curve. */
struct workload {
  std::string circuit;
  curves::curve_id curve;
};

workload parse_entry(const std::string& entry, curves::curve_id fallback) {
  const auto at = entry.find('@');
  if (at == std::string::npos) return {entry, fallback};
  const auto c = curves::parse_curve(entry.substr(at + 1));
  if (!c) throw std::invalid_argument("--mix: unknown curve in \"" + entry + "\"");
  return {entry.substr(0, at), *c};
}

using any_vk =
    std::variant<groth16::basic_verifying_key<curves::bls12_381>, groth16::basic_verifying_key<curves::bn254>>;

struct key_files {
  std::string path;
  any_vk vk;
};

key_files key_for(const workload& w, const fs::path& dir) {
  std::string name = w.circuit;
  for (auto& c : name)
    if (c == ':' || c == '=' || c == ',') c = '_';
  if (w.curve != curves::curve_id::bls12_381) name += "_" + std::string(curves::name(w.curve));
  const auto path = fs::absolute(dir / (name + ".zkey"));
  return curves::visit(w.curve, [&](auto curve) {
    using C = decltype(curve);
    if (!fs::exists(path)) {
      std::fprintf(stderr, "[cuzk-bench] dev setup for %s on %s -> %s\n", w.circuit.c_str(),
                   std::string(curves::display_name(C::id)).c_str(), path.c_str());
      auto c = circuits::make_circuit<C>(w.circuit);
      fs::create_directories(dir);
      io::write_zkey_file(path, groth16::setup_circuit<C>(*c, groth16::basic_toxic_waste<C>::random()));
    }
    return key_files{path.string(), io::read_zkey_file<C>(path).vk()};
  });
}

struct stats {
  std::vector<double> v;
  void add(double x) { v.push_back(x); }
  double mean() const {
    double s = 0;
    for (double x : v) s += x;
    return v.empty() ? 0 : s / v.size();
  }
  double pct(double p) const {
    if (v.empty()) return 0;
    auto w = v;
    std::sort(w.begin(), w.end());
    return w[std::min(w.size() - 1, static_cast<std::size_t>(p * (w.size() - 1) + 0.5))];
  }
};

std::vector<std::string> split(const std::string& s) {
  std::vector<std::string> out;
  std::string cur;
  // circuit specs contain ',' only between parameters, so ';' or ' ' separates circuits
  std::stringstream ss(s);
  while (std::getline(ss, cur, ';'))
    if (!cur.empty()) out.push_back(cur);
  return out;
}

double stats_median(std::vector<double> v) {
  std::sort(v.begin(), v.end());
  return v.empty() ? 0 : v[v.size() / 2];
}

/* Streams `mib` MiB of random bytes as one upload, `rounds` times: MB/s of each round. */
std::vector<double> upload_rates(client::connection& conn, unsigned mib, int rounds, std::uint64_t seed) {
  const fs::path file = fs::temp_directory_path() / ("cuzk-bench-upload-" + std::to_string(seed));
  {
    std::mt19937_64 g(seed);
    std::ofstream f(file, std::ios::binary);
    std::vector<std::uint64_t> chunk(1 << 17);
    for (unsigned i = 0; i < mib; ++i) {
      for (auto& w : chunk) w = g();
      f.write(reinterpret_cast<const char*>(chunk.data()), std::streamsize(chunk.size() * 8));
    }
  }
  std::vector<double> rates;
  for (int r = 0; r < rounds; ++r) {
    const auto t0 = clk::now();
    conn.upload("bench-" + std::to_string(seed) + "-" + std::to_string(r), proto::upload_kind::r1cs, file);
    rates.push_back(double(mib) * (1 << 20) / 1e6 / std::chrono::duration<double>(clk::now() - t0).count());
  }
  fs::remove(file);
  return rates;
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"cuzk-bench: an end-to-end workload against a running cuzk service"};
  std::string endpoint, mix = "chain:size=1000", keys = "cuzk-bench-keys", json_out, prefix, curve;
  int jobs = 8, in_flight = 0;
  double duration = 0;
  bool verify = true, mixed_priorities = false;
  std::uint64_t seed = std::random_device{}();
  app.add_option("--endpoint", endpoint, "the server's endpoint")->required();
  app.add_option("--mix", mix,
                 "circuits, ';'-separated, submitted round robin; NAME:params@bn254 picks an entry's curve");
  app.add_option("--curve", curve, "curve of the keys of entries that name none: bls12-381 (default) or bn254");
  app.add_option("--jobs", jobs, "jobs to submit");
  app.add_option("--keys", keys, "directory of dev keys (made when missing)");
  app.add_option("--seed", seed, "inputs and priorities");
  app.add_option("--job-prefix", prefix, "job id prefix (default: bench-<seed>)");
  app.add_option("--duration", duration,
                 "steady state: keep --in-flight jobs outstanding for this many seconds (then --jobs is ignored)");
  app.add_option("--in-flight", in_flight, "jobs outstanding at once in --duration mode (default 4 per GPU worker)");
  app.add_flag("!--no-verify", verify, "skip verifying the proofs");
  app.add_flag("--mixed-priorities", mixed_priorities, "random high/normal/low priorities");
  app.add_option("--json", json_out, "write the summary as JSON");
  unsigned upload_mib = 0;
  int upload_rounds = 3;
  std::string curve_key, server_public;
  app.add_option("--upload-mib", upload_mib,
                 "instead of proving: stream this many MiB into the spool, --upload-rounds times");
  app.add_option("--upload-rounds", upload_rounds, "uploads of --upload-mib (each its own upload id)");
  int critical = 0, critical_alone = 0;
  std::string critical_mix = "chain:size=1000";
  app.add_option("--critical", critical, "critical jobs submitted one at a time while the --duration workload runs");
  app.add_option("--critical-mix", critical_mix, "the critical jobs' circuit");
  app.add_option("--critical-alone", critical_alone,
                 "critical jobs timed on the idle service first (default max(10, N/5))");
  bool keys_only = false;
  app.add_flag("--keys-only", keys_only, "make the dev keys of --mix (and --critical-mix) in --keys and exit");
  app.add_option("--curve-key", curve_key, "tcp:// endpoints: this client's secret key file (cuzk keygen)");
  app.add_option("--server-public", server_public, "tcp:// endpoints: the server's public key file");
  CLI11_PARSE(app, argc, argv);
  if (upload_mib) {
    try {
      client::options o;
      o.timeout = std::chrono::seconds(60);
      if (!curve_key.empty()) {
        const auto me = net::read_curve_secret(curve_key);
        o.curve = client::curve_keys{me.public_key, me.secret_key, net::read_curve_public(server_public)};
      }
      client::connection conn(endpoint, o);
      const auto rates = upload_rates(conn, upload_mib, upload_rounds, seed);
      for (std::size_t i = 0; i < rates.size(); ++i)
        std::printf("upload %zu: %u MiB at %.1f MB/s (%s)\n", i, upload_mib, rates[i], endpoint.c_str());
      std::printf("upload median: %.1f MB/s\n", stats_median(rates));
      return 0;
    } catch (const std::exception& e) {
      std::fprintf(stderr, "cuzk-bench: %s\n", e.what());
      return 1;
    }
  }
  try {
    std::fprintf(stderr, "[cuzk-bench] seed %llu\n", (unsigned long long)seed);
    if (prefix.empty()) prefix = "bench-" + std::to_string(seed);
    const auto circuits = split(mix);
    const auto default_curve = curve.empty() ? std::optional(curves::curve_id::bls12_381) : curves::parse_curve(curve);
    if (!default_curve) throw std::invalid_argument("--curve must be bls12-381 or bn254, not '" + curve + "'");
    std::map<std::string, workload> work;
    std::map<std::string, key_files> k;
    if (critical > 0) {
      work.emplace(critical_mix, parse_entry(critical_mix, *default_curve));
      k.emplace(critical_mix, key_for(work.at(critical_mix), keys));
    }
    for (const auto& c : circuits) {
      work.emplace(c, parse_entry(c, *default_curve));
      k.emplace(c, key_for(work.at(c), keys));
    }
    if (keys_only) return 0;
    std::mt19937_64 rng(seed);
    client::options o;
    o.timeout = std::chrono::seconds(120);
    client::connection conn(endpoint, o);

    std::vector<std::pair<std::string, std::string>> ids;
    int failed = 0, bad = 0;
    stats queue, synth, handoff, prove, total;
    /* a job's phases, read as soon as it is done (a fetched job may be evicted once the table fills) */
    auto phases = [&](const std::string& id) {
      auto st = conn.status(id);
      if (st.partitions.empty()) return;
      const auto& p = st.partitions[0];
      auto s = [](std::uint64_t a, std::uint64_t b) { return b > a ? (b - a) / 1e9 : 0.0; };
      queue.add(s(st.submitted_ns, p.synth_start_ns));
      synth.add(s(p.synth_start_ns, p.synth_end_ns));
      handoff.add(s(p.synth_end_ns, p.prove_start_ns));
      prove.add(s(p.prove_start_ns, p.prove_end_ns));
      total.add(s(st.submitted_ns, st.finished_ns ? st.finished_ns : p.prove_end_ns));
    };
    auto submit = [&](int i) {
      const auto& c = circuits[i % circuits.size()];
      proto::submit s;
      s.job_id = prefix + "-" + std::to_string(i);
      s.client = "cuzk-bench";
      s.priority = mixed_priorities ? static_cast<proto::priority>(rng() % 3)
                   : critical > 0   ? (rng() % 2 ? proto::priority::normal : proto::priority::low)
                                    : proto::priority::normal;
      s.zkey = k[c].path;
      const auto& w = work.at(c);
      const auto inputs = curves::visit(w.curve, [&](auto curve) {
        return circuits::make_circuit<decltype(curve)>(w.circuit)->random_inputs(rng()).dump();
      });
      s.work = proto::native_work{w.circuit, inputs};
      conn.submit(s);
      ids.emplace_back(s.job_id, c);
    };
    auto await = [&](const std::string& id, const std::string& c) {
      auto out = conn.wait(id, std::chrono::minutes(30));
      phases(id);
      const auto* pr = std::get_if<proto::proof_reply>(&out);
      if (!pr) {
        ++failed;
        std::fprintf(stderr, "[cuzk-bench] %s failed: %s\n", id.c_str(),
                     std::get<proto::job_status>(out).error.c_str());
        return;
      }
      if (verify)
        for (const auto& p : pr->partitions) {
          const bool ok = std::visit(
              [&](const auto& vk) {
                using C = typename std::remove_cvref_t<decltype(vk)>::curve;
                const auto proof = io::proof_from_json<C>(nlohmann::json::parse(p.proof_json));
                const auto pub = io::public_from_json<C>(nlohmann::json::parse(p.public_json));
                return groth16::verify<C>(vk, pub, proof);
              },
              k.at(c).vk);
          if (!ok) ++bad;
        }
    };
    /* the critical class: one job at a time on `cc`, Submit to verified proof, seconds */
    stats crit_alone, crit_loaded;
    client::connection cc(endpoint, o);
    int crit_failed = 0;
    auto one_critical = [&](int i, stats& into) {
      const auto& w = work.at(critical_mix);
      proto::submit s;
      s.job_id = prefix + "-critical-" + std::to_string(i);
      s.client = "cuzk-bench-critical";
      s.priority = proto::priority::critical;
      s.zkey = k[critical_mix].path;
      s.work = proto::native_work{
          w.circuit, curves::visit(w.curve, [&](auto curve) {
            return circuits::make_circuit<decltype(curve)>(w.circuit)->random_inputs(seed + i).dump();
          })};
      const auto t = clk::now();
      cc.submit(s);
      const auto out = cc.wait(s.job_id, std::chrono::minutes(10));
      if (!std::holds_alternative<proto::proof_reply>(out)) {
        ++crit_failed;
        std::fprintf(stderr, "[cuzk-bench] %s failed: %s\n", s.job_id.c_str(),
                     std::get<proto::job_status>(out).error.c_str());
        return;
      }
      into.add(std::chrono::duration<double>(clk::now() - t).count());
    };
    if (critical > 0) {
      const int alone = critical_alone > 0 ? critical_alone : std::max(10, critical / 5);
      for (int i = 0; i < alone; ++i) one_critical(i, crit_alone);
      if (duration <= 0) duration = 24 * 3600;  // until the critical jobs are done
    }
    std::atomic<bool> critical_done{critical <= 0};
    std::thread critical_thread;
    if (critical > 0)
      critical_thread = std::thread([&] {
        std::this_thread::sleep_for(std::chrono::seconds(2));  // the queue fills first
        std::mt19937_64 gap(seed ^ 0x5eed);
        for (int i = 0; i < critical; ++i) {
          one_critical(1000 + i, crit_loaded);
          std::this_thread::sleep_for(std::chrono::milliseconds(gap() % 300));
        }
        critical_done = true;
      });
    const auto t0 = clk::now();
    if (duration > 0) {
      /* steady state: the oldest job awaited, a new one submitted, until the duration is up */
      const int window = in_flight > 0 ? in_flight : 8;
      int next = 0;
      std::size_t oldest = 0;
      for (; next < window; ++next) submit(next);
      while (std::chrono::duration<double>(clk::now() - t0).count() < duration && !(critical > 0 && critical_done)) {
        await(ids[oldest].first, ids[oldest].second);
        ++oldest;
        submit(next++);
      }
      for (; oldest < ids.size(); ++oldest) await(ids[oldest].first, ids[oldest].second);
      jobs = next;
    } else {
      for (int i = 0; i < jobs; ++i) submit(i);
      for (const auto& [id, c] : ids) await(id, c);
    }
    if (critical_thread.joinable()) critical_thread.join();
    const double wall = std::chrono::duration<double>(clk::now() - t0).count();
    const double per_min = (jobs - failed) / wall * 60;
    std::printf("\njobs %d (failed %d), proofs verified: %s, wall %.2f s, %.1f proofs/min\n", jobs, failed,
                verify ? (bad ? "NO" : "all") : "skipped", wall, per_min);
    std::printf("%-8s %9s %9s %9s %9s\n", "phase", "mean s", "p50 s", "p99 s", "max s");
    const std::pair<const char*, stats*> rows[] = {
        {"queue", &queue}, {"synth", &synth}, {"handoff", &handoff}, {"prove", &prove}, {"total", &total}};
    nlohmann::json j = {{"jobs", jobs},   {"failed", failed},          {"bad_proofs", bad},
                        {"wall_s", wall}, {"proofs_per_min", per_min}, {"mix", mix},
                        {"seed", seed}};
    for (const auto& [name, st] : rows) {
      std::printf("%-8s %9.3f %9.3f %9.3f %9.3f\n", name, st->mean(), st->pct(0.5), st->pct(0.99), st->pct(1.0));
      j["phases"][name] = {
          {"mean_s", st->mean()}, {"p50_s", st->pct(0.5)}, {"p99_s", st->pct(0.99)}, {"max_s", st->pct(1.0)}};
    }
    if (critical > 0) {
      /* the longest single phase of a background proof: what a critical proof may wait for at most */
      double phase = 0;
      for (const auto& [id, c] : ids) {
        if (c == critical_mix) continue;
        try {
          const auto st = conn.status(id);
          for (const auto& p : st.partitions) {
            if (!p.timings) continue;
            using groth16::timing;
            for (auto k : {timing::h2d, timing::ntt, timing::msm_h, timing::msm_l, timing::msm_a, timing::msm_b_g1,
                           timing::msm_b_g2})
              phase = std::max(phase, double((*p.timings)[k]) / 1e6);
          }
        } catch (const std::exception&) {
        }
      }
      const double target = 1.5 * crit_alone.pct(0.99) + phase;
      std::printf(
          "critical %s: alone p50 %.3f s p99 %.3f s (%zu jobs); under load p50 %.3f s p99 %.3f s max %.3f s "
          "(%zu jobs, %d failed); longest background phase %.3f s; target p99 <= 1.5 x alone + one phase = %.3f s: "
          "%s\n",
          critical_mix.c_str(), crit_alone.pct(0.5), crit_alone.pct(0.99), crit_alone.v.size(), crit_loaded.pct(0.5),
          crit_loaded.pct(0.99), crit_loaded.pct(1.0), crit_loaded.v.size(), crit_failed, phase, target,
          crit_loaded.pct(0.99) <= target ? "met" : "MISSED");
      j["critical"] = {
          {"mix", critical_mix},
          {"alone", {{"p50_s", crit_alone.pct(0.5)}, {"p99_s", crit_alone.pct(0.99)}, {"n", crit_alone.v.size()}}},
          {"loaded",
           {{"p50_s", crit_loaded.pct(0.5)},
            {"p99_s", crit_loaded.pct(0.99)},
            {"max_s", crit_loaded.pct(1.0)},
            {"n", crit_loaded.v.size()}}},
          {"failed", crit_failed},
          {"longest_phase_s", phase},
          {"target_s", target}};
      failed += crit_failed;
    }
    /* the server's own view of its GPUs (busy over the last minute) */
    auto all = conn.status();
    for (const auto& g : all.gpus) {
      std::printf("gpu %d (%s): busy %.1f%% over the last minute, %llu proofs\n", g.device, g.name.c_str(),
                  100 * g.busy_ratio, (unsigned long long)g.proofs);
      j["gpus"].push_back({{"device", g.device}, {"busy_ratio", g.busy_ratio}, {"proofs", g.proofs}});
    }
    if (!json_out.empty()) std::ofstream(json_out) << j.dump(2) << "\n";
    return failed || bad ? 1 : 0;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "cuzk-bench: %s\n", e.what());
    return 2;
  }
}
