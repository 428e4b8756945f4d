// What an engine computes for the Groth16 orchestrator (groth16::prove,
// DESIGN §5): the quotient H from the evaluations a, b, c, and the five MSM
// sums. Everything the engines share — size checks, the H plan, the 0/1 split
// of z, the Z | AB − C check, blinding, assembly — stays in the orchestrator,
// so the CPU engine and the CUDA engine repeat none of it.
#pragma once

#include <atomic>
#include <array>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <stdexcept>
#include <string_view>

#include "ec/jacobian.hpp"
#include "groth16/keys.hpp"
#include "groth16/phase_timings.hpp"
#include "groth16/prove_input.hpp"
#include "msm/split.hpp"
#include "poly/quotient.hpp"
#include "poly/roots.hpp"

namespace cuzk::groth16 {

/* How (a·b − c) becomes the H query's scalars, chosen by the key.
     odd_coset:    h = (a·b − c) on ζH, ζ = ω_2n            (n scalars)
     coefficients: h = coefficients of (a·b − c)/Z via gH, g = 7, Z = g^n − 1 there
                   (n − 1 scalars; coefficient n − 1 is 0 iff Z | AB − C) */
template <class C>
struct basic_h_plan {
  poly::h_convention convention;
  unsigned log_n;
  poly::root_family family;  // whose ω (a .zkey's H query needs snarkjs's)
  ff::fr<C> shift;           // ζ or g
  ff::fr<C> z_inv;           // (g^n − 1)^−1; coefficients only
  std::size_t h_len;         // n or n − 1: the H query's length

  static basic_h_plan for_key(const basic_proving_key<C>& pk);
};

/* A view of a scalar_split of z restricted to indices >= first (the C query
   starts at z[n_public + 1]); index i of the split is base i − first. */
struct split_view {
  std::span<const std::uint32_t> ones;
  std::span<const std::uint32_t> others;
  std::span<const ec::scalar_limbs_t> other_scalars;  // canonical, < r, one per others
  std::uint32_t first = 0;

  static split_view of(const msm::scalar_split& s, std::uint32_t first = 0);
};

/* What the orchestrator hands an engine: the proof's inputs and what it derived from them. */
template <class C>
struct basic_engine_input : basic_prove_input<C> {
  const basic_h_plan<C>& plan;
  split_view z_split;  // of all of z: A, B_G1, B_G2
  split_view c_split;  // of z[n_public + 1 ..]: the C (L) query
};

/* A proof stopped at a phase boundary because its stop flag was set: the
   server preempts it for a critical one; its inputs are intact. */
class preempted : public std::runtime_error {
 public:
  preempted() : std::runtime_error("preempted at a phase boundary") {}
};
/* Engines call this between phases: throws preempted once *stop is set. */
inline void phase_boundary(const std::atomic<bool>* stop) {
  if (stop && stop->load(std::memory_order_acquire)) throw preempted();
}

/* Σ z_i A_i, Σ z_i B_i (G1 and G2), Σ_{private} z_i C_i, Σ h_j H_j */
template <class C>
struct basic_msm_sums {
  ec::g1_jacobian<C> a, b1, c, h;
  ec::g2_jacobian<C> b2;
  /* coefficients: h's coefficient n − 1 (zero iff Z | AB − C); odd_coset: zero */
  ff::fr<C> h_top;
};

/* The phases a proof's spans name; batch_add's span lies on the row (track) of the MSM whose ones it summed. */
enum class phase : std::uint8_t { split, h2d, ntt, msm_a, msm_b_g1, msm_l, msm_b_g2, msm_h, batch_add, assemble };
inline constexpr std::size_t n_phases = 10;
constexpr std::string_view name(phase p) {
  constexpr std::string_view names[n_phases] = {"split", "h2d",      "ntt",   "msm_a",     "msm_b_g1",
                                                "msm_l", "msm_b_g2", "msm_h", "batch_add", "assemble"};
  return static_cast<std::size_t>(p) < n_phases ? names[static_cast<std::size_t>(p)] : "unknown";
}

/* One phase's interval in seconds after the proof's start (prove_timings::origin). */
struct phase_span {
  phase what;
  phase track;  // what, or for batch_add its MSM
  double start, end;
};

/* Seconds per phase. Engines fill what they measure; phases that ran
   concurrently overlap, so they need not add up to msm or total. */
struct prove_timings {
  using clock = std::chrono::steady_clock;
  static constexpr std::size_t max_spans = 16;
  double split = 0;  // the 0/1 classification of z (orchestrator)
  double h2d = 0;    // host → device copies (CUDA)
  double ntt = 0;    // the quotient H: NTTs and the pointwise product
  double msm_a = 0, msm_b_g1 = 0, msm_b_g2 = 0, msm_l = 0, msm_h = 0;
  double batch_add = 0;  // the ones of the split (CUDA, all MSMs together)
  double msm = 0;        // the whole MSM phase, wall clock
  double wait = 0;       // waiting for the worker's previous proof before this one's kernels (CUDA lanes)
  double assemble = 0;   // blinding and assembly (orchestrator)
  double total = 0;
  /* Where each phase lay (for a timeline): set by the orchestrator (origin, split, assemble) and the engine
     (the rest; from CUDA events on the GPU). Not thread-safe: engines add spans from the calling thread. */
  clock::time_point origin{};
  std::uint64_t origin_unix_ns = 0;  // the same instant on the system clock (CLOCK_REALTIME), for a timeline
  std::array<phase_span, max_spans> spans{};
  std::uint8_t n_spans = 0;

  void add_span(phase what, clock::time_point from, clock::time_point to, phase track) noexcept {
    add_span(what, std::chrono::duration<double>(from - origin).count(),
             std::chrono::duration<double>(to - origin).count(), track);
  }
  void add_span(phase what, clock::time_point from, clock::time_point to) noexcept { add_span(what, from, to, what); }
  void add_span(phase what, double from_s, double to_s, phase track) noexcept {
    if (n_spans < max_spans && to_s >= from_s) spans[n_spans++] = {what, track, from_s, to_s};
  }
  std::span<const phase_span> span_list() const noexcept { return {spans.data(), n_spans}; }

  /* What the job record keeps and status sends: microseconds; cpu_prep = split + assemble; NaN and nonsense 0. */
  phase_timings reported(double verify_s) const noexcept {
    const auto us = [](double s) { return s > 0 && s < 1e9 ? static_cast<std::uint64_t>(std::llround(s * 1e6)) : 0u; };
    phase_timings r;
    r[timing::h2d] = us(h2d), r[timing::ntt] = us(ntt), r[timing::batch_add] = us(batch_add);
    r[timing::msm_h] = us(msm_h), r[timing::msm_l] = us(msm_l), r[timing::msm_a] = us(msm_a);
    r[timing::msm_b_g1] = us(msm_b_g1), r[timing::msm_b_g2] = us(msm_b_g2);
    r[timing::cpu_prep] = us(split + assemble), r[timing::verify] = us(verify_s), r[timing::total] = us(total);
    return r;
  }
};

template <class C>
class basic_engine {
 public:
  using curve = C;
  virtual ~basic_engine() = default;
  virtual std::string_view name() const = 0;
  /* true: the engine classifies z itself (on the device), so the
     orchestrator hands it empty split views and spends nothing on them */
  virtual bool splits_on_device() const { return false; }
  virtual basic_msm_sums<C> compute(const basic_engine_input<C>& in, prove_timings& tm) = 0;
};

/* oneTBB in the caller's arena (threads = 0) or in an arena of that many */
template <class C = curves::bls12_381>
std::unique_ptr<basic_engine<C>> make_cpu_engine(int threads = 0);

}  // namespace cuzk::groth16
