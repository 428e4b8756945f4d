// cuzk wait: waits for a job and writes its proof and public signals as the
// server sent them (snarkjs JSON). Partition 0 goes to the paths given;
// partition i > 0 to the same names with ".i" before the extension
// (proof.json, proof.1.json, proof.2.json, ...).
#include <algorithm>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <stdexcept>

#include "client/lib/connection.hpp"
#include "client/lib/exit_codes.hpp"
#include "commands.hpp"
#include "curves/dispatch.hpp"
#include "io/snarkjs_json.hpp"
#include "proto/names.hpp"
#include "util/utf8.hpp"
#include "verified_proof.hpp"

namespace cuzk::cli {

std::string partition_path(const std::string& path, std::size_t i) {
  if (i == 0) return path;
  std::filesystem::path p(path);
  std::filesystem::path name = p.stem();
  name += "." + std::to_string(i);
  name += p.extension();
  return (p.parent_path() / name).string();
}

namespace {

void write_text(const std::string& path, const std::string& text) {
  std::ofstream f(path, std::ios::binary | std::ios::trunc);
  f << text;
  if (!text.empty() && text.back() != '\n') f << '\n';
  if (!f) throw std::runtime_error("cannot write " + path);
}

/* Whether every partition of a proof reply verifies under the verification key (its "curve" names the curve). */
bool verifies_under(const std::string& vk_path, const proto::proof_reply& r) {
  const auto j = io::read_json_file(vk_path);
  return curves::visit(io::curve_of(j).value_or(curves::curve_id::bls12_381), [&](auto c) {
    using C = decltype(c);
    const auto vk = io::vk_from_json<C>(j);
    return std::all_of(r.partitions.begin(), r.partitions.end(),
                       [&](const auto& part) { return verified_signals<C>(vk, part).has_value(); });
  });
}

}  // namespace

namespace {

/* Where a proven partition's time went: "synthesis 1.302 s (witness 0.944 s), waited 0.001 s, proved 4.102 s
   (ntt …, msm …)". */
std::string phases_line(const proto::partition_status& s) {
  auto secs = [](std::uint64_t a, std::uint64_t b) { return b > a ? double(b - a) / 1e9 : 0.0; };
  char buf[256];
  std::snprintf(buf, sizeof buf, "synthesis %.3f s", secs(s.synth_start_ns, s.synth_end_ns));
  std::string line = buf;
  if (s.witness_us) {
    std::snprintf(buf, sizeof buf, " (witness %.3f s)", double(s.witness_us) / 1e6);
    line += buf;
  }
  std::snprintf(buf, sizeof buf, ", waited %.3f s, proved %.3f s", secs(s.synth_end_ns, s.prove_start_ns),
                secs(s.prove_start_ns, s.prove_end_ns));
  line += buf;
  if (s.timings) {
    const auto& t = *s.timings;
    using groth16::timing;
    std::snprintf(buf, sizeof buf, " (ntt %.3f s, msm a %.3f / b %.3f / l %.3f / h %.3f / b2 %.3f s)",
                  double(t[timing::ntt]) / 1e6, double(t[timing::msm_a]) / 1e6, double(t[timing::msm_b_g1]) / 1e6,
                  double(t[timing::msm_l]) / 1e6, double(t[timing::msm_h]) / 1e6, double(t[timing::msm_b_g2]) / 1e6);
    line += buf;
  }
  return line;
}

}  // namespace

int run_wait(const wait_args& a, proto::proof_reply* proofs) {
  return client::with_exit_codes([&] {
    client::connection c(a.server.endpoint, connection_options(a.server));
    const auto timeout = std::chrono::milliseconds(static_cast<long long>(a.timeout * 1000));
    const auto r = c.wait(a.job_id, timeout, a.owner);
    if (const auto* st = std::get_if<proto::job_status>(&r)) {
      if (st->state == proto::job_state::failed) {
        std::fprintf(stderr, "cuzk: job %s failed: %s\n", util::escape_for_terminal(st->job_id).c_str(),
                     util::escape_for_terminal(st->error, true).c_str());
        return client::exit_job_failed;
      }
      std::fprintf(stderr, "cuzk: job %s still %s after %g s\n", util::escape_for_terminal(st->job_id).c_str(),
                   std::string(proto::name(st->state)).c_str(), a.timeout);
      return client::exit_unreachable;
    }
    const auto& p = std::get<proto::proof_reply>(r);
    if (!a.vk.empty() && !verifies_under(a.vk, p)) {
      std::fprintf(stderr, "cuzk: the proof of job %s does not verify under %s; nothing written\n",
                   util::escape_for_terminal(p.job_id).c_str(), a.vk.c_str());
      return client::exit_job_failed;
    }
    for (std::size_t i = 0; i < p.partitions.size(); ++i) {
      write_text(partition_path(a.proof, i), p.partitions[i].proof_json);
      write_text(partition_path(a.public_path, i), p.partitions[i].public_json);
    }
    if (proofs) *proofs = p;
    std::fprintf(stderr, "[cuzk] %s done: %zu proof%s written\n", util::escape_for_terminal(p.job_id).c_str(),
                 p.partitions.size(), p.partitions.size() == 1 ? "" : "s");
    for (std::size_t i = 0; i < p.partitions.size(); ++i)
      if (p.partitions[i].phases)
        std::fprintf(stderr, "[cuzk] partition %zu: %s\n", i, phases_line(*p.partitions[i].phases).c_str());
    return client::exit_ok;
  });
}

}  // namespace cuzk::cli
