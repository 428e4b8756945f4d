// Prometheus text exposition (format 0.0.4): histograms with fixed buckets,
// and a writer that emits each family's # HELP and # TYPE lines once and its
// samples with escaped label values.
#pragma once

#include <array>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "curves/curve_id.hpp"

namespace cuzk::server::metrics {

/* Upper bounds in seconds: 5 ms to 10 min (+Inf is implicit). */
inline constexpr std::array<double, 16> duration_buckets = {0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1,
                                                            2.5,   5,    10,    30,   60,  120,  300, 600};

class histogram {
 public:
  histogram() : histogram(duration_buckets) {}
  explicit histogram(std::span<const double> bounds);
  /* NaN and negative values are not observed. */
  void observe(double v) noexcept;
  const std::vector<double>& bounds() const noexcept { return bounds_; }
  /* Observations in each bucket (not cumulative); the last is the +Inf bucket. */
  const std::vector<std::uint64_t>& buckets() const noexcept { return buckets_; }
  std::uint64_t count() const noexcept { return count_; }
  double sum() const noexcept { return sum_; }

 private:
  std::vector<double> bounds_;
  std::vector<std::uint64_t> buckets_;
  std::uint64_t count_ = 0;
  double sum_ = 0;
};

/* The proof series the server feeds as proofs complete. */
inline constexpr std::array<std::string_view, 8> phases = {"queue", "witness", "synth", "h2d",
                                                           "ntt",   "msm",     "prove", "verify"};
/* The series of proofs of one curve (label curve="bls12-381" | "bn254"). */
struct curve_series {
  std::uint64_t completed = 0;
  histogram duration;  // submission to the proof stored, per partition
  std::array<histogram, phases.size()> phase;
};

struct proof_series {
  std::array<curve_series, 2> by_curve;  // index: curves::curve_id − 1
  curve_series& of(curves::curve_id c) { return by_curve[std::size_t(c) - 1]; }
  const curve_series& of(curves::curve_id c) const { return by_curve[std::size_t(c) - 1]; }
  std::uint64_t h2d_bytes = 0;
  std::uint64_t recovered_slots = 0;  // FILLED or PROVING when the server started: proven without new synthesis
  /* An installed circuit's witness generation, by circuit name: at most max_witness_circuits names, the
     rest under "other" (a pool's circuits come and go; the series must stay bounded). */
  static constexpr std::size_t max_witness_circuits = 64;
  std::map<std::string, histogram> witness;
  histogram& witness_of(const std::string& circuit) {
    if (witness.size() >= max_witness_circuits && !witness.contains(circuit)) return witness["other"];
    return witness[circuit];
  }
};

using labels = std::vector<std::pair<std::string, std::string>>;

class writer {
 public:
  /* type: counter, gauge or histogram. A family is declared once, before its samples. */
  void family(std::string_view name, std::string_view type, std::string_view help);
  void sample(std::string_view name, const labels& l, double value);
  void sample(std::string_view name, double value) { sample(name, {}, value); }
  /* name_bucket{…,le="…"} (cumulative), name_sum, name_count. */
  void sample(std::string_view name, const labels& l, const histogram& h);
  const std::string& text() const noexcept { return out_; }

 private:
  void line(std::string_view name, const labels& l, double value);
  std::string out_;
};

/* A sample value as Prometheus reads it: integers exactly, +Inf, -Inf, NaN. */
std::string format_value(double v);
/* A label value with \\, \" and \n escaped. */
std::string escape_label(std::string_view v);

inline constexpr std::string_view content_type = "text/plain; version=0.0.4; charset=utf-8";

}  // namespace cuzk::server::metrics
