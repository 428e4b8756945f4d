#include "client/plan/phase_timings.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <vector>

namespace cuzk::plan {

namespace {

struct point {
  unsigned log_domain;
  double seconds;
};

struct table {
  curves::curve_id curve;
  const char* what;  // the machine and the run, as docs/benchmarks.md names them
  unsigned cores;    // CPU tables: the cores measured on
  bool copies;       // GPU tables: shifted copies resident
  std::vector<point> points;
};

using enum curves::curve_id;

/* docs/benchmarks.md, "The CUDA engine on the H200" and "GPU speed toward the
   H200's limit" (2026-12-02): prove/CURVE/chain/LOG/cuda and …/cuda-shifted,
   whole proofs, key resident, a/b/c and z from pinned memory. The service
   with two workers a GPU proved chain 2^20 at 719.9 proofs/min (83 ms each)
   against the 88 ms a single proof takes, so the figures hold per GPU. */
const std::vector<table>& gpu_tables() {
  static const std::vector<table> t = {
      {bls12_381,
       "H200, chain (full-width witness), docs/benchmarks.md 2026-12-02",
       0,
       false,
       {{20, 0.0884}, {22, 0.272}, {24, 1.057}}},
      {bls12_381,
       "H200, chain, shifted copies resident, docs/benchmarks.md 2026-12-02",
       0,
       true,
       {{20, 0.0748}, {24, 0.839}}},
      {bn254,
       "H200, chain (full-width witness), docs/benchmarks.md 2026-12-02",
       0,
       false,
       {{20, 0.0450}, {22, 0.135}, {24, 0.501}}},
      {bn254,
       "H200, chain, shifted copies resident, docs/benchmarks.md 2026-12-02",
       0,
       true,
       {{20, 0.0381}, {24, 0.407}}},
  };
  return t;
}

/* docs/benchmarks.md: "A whole proof" (CPU engine, 16 cores, chain 2^20 and
   2^24), "Service (issue 5)" (2-core VM, chain 2^14 through the service) and
   "BN254 on the CPU" (2-core VM, 2^16 circom Poseidon chain, whole command). */
const std::vector<table>& cpu_tables() {
  static const std::vector<table> t = {
      {bls12_381, "CPU engine, 16 cores, chain, docs/benchmarks.md (issue 9)", 16, false, {{20, 6.88}, {24, 92.9}}},
      {bls12_381,
       "CPU backend, 2-core VM, chain through the service, docs/benchmarks.md (issue 5)",
       2,
       false,
       {{14, 0.530}}},
      {bn254, "cuzk prove, 2-core VM, circom Poseidon chain, docs/benchmarks.md 2026-12-02", 2, false, {{16, 1.68}}},
  };
  return t;
}

/* log-log between the two nearest measured domains; one point: linear in n */
double at(const std::vector<point>& p, unsigned log_domain) {
  if (p.size() == 1) return p[0].seconds * std::ldexp(1.0, int(log_domain) - int(p[0].log_domain));
  std::size_t i = 0;
  while (i + 2 < p.size() && p[i + 1].log_domain < log_domain) ++i;
  const point a = p[i], b = p[i + 1];
  const double slope = std::log2(b.seconds / a.seconds) / double(b.log_domain - a.log_domain);
  return a.seconds * std::exp2(slope * (double(log_domain) - double(a.log_domain)));
}

std::string how(const table& t, unsigned log_domain) {
  const bool measured =
      std::any_of(t.points.begin(), t.points.end(), [&](const point& p) { return p.log_domain == log_domain; });
  const bool inside = log_domain >= t.points.front().log_domain && log_domain <= t.points.back().log_domain;
  return std::string(t.what) + (measured ? ", measured at this size" : inside ? ", interpolated" : ", extrapolated");
}

}  // namespace

proof_time gpu_proof_time(curves::curve_id curve, unsigned log_domain, const std::string& device, bool with_copies) {
  for (const table& t : gpu_tables()) {
    if (t.curve != curve || t.copies != with_copies) continue;
    proof_time r{at(t.points, log_domain), how(t, log_domain)};
    if (device.empty())
      r.source += "; the GPU not named (--gpu-name): the H200's figure";
    else if (device.find("H200") == std::string::npos)
      r.source += "; no measurement on '" + device + "': the H200's figure";
    return r;
  }
  return {};
}

proof_time cpu_proof_time(curves::curve_id curve, unsigned log_domain, unsigned cores) {
  const table* best = nullptr;
  cores = std::max(1u, cores);
  for (const table& t : cpu_tables())
    if (t.curve == curve && (!best || std::abs(int(t.cores) - int(cores)) < std::abs(int(best->cores) - int(cores))))
      best = &t;
  if (!best) return {};
  proof_time r{at(best->points, log_domain) * double(best->cores) / double(cores), how(*best, log_domain)};
  if (cores != best->cores) {
    char buf[96];
    std::snprintf(buf, sizeof buf, "; scaled from %u to %u cores", best->cores, cores);
    r.source += buf;
  }
  return r;
}

}  // namespace cuzk::plan
