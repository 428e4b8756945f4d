// Groth16 keys and proofs (Groth, eprint 2016/260), laid out as snarkjs's
// .zkey holds them so a key read from one round-trips exactly. Each is over a
// curve C (basic_proving_key<C>, ...).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <vector>

#include "curves/bn254.hpp"
#include "ec/config.hpp"
#include "ec/serialize_snarkjs.hpp"
#include "ff/fr.hpp"

namespace cuzk::groth16 {

using ec::g1_affine_t;
using ec::g2_affine_t;
using ff::fr_t;

/* How the H query turns (a·b − c) into the quotient's contribution (DESIGN §5). */
enum class h_form : std::uint8_t {
  odd_coset = 0,    // snarkjs: evaluations on ω_2n·<ω>, H_i = L^{2n}_{2i+1}(τ)/δ · G1, n points
  coefficient = 1,  // bellman: coefficients of h, H_i = τ^i Z(τ)/δ · G1, n − 1 points
};

/* The bases' bytes as a .zkey holds them (section 5 to 9: Montgomery
   little-endian x ‖ y, the point at infinity all zero, which is also the
   layout the CUDA kernels read), where the key was read from memory that
   `owner` keeps mapped (an SRS region): a GPU uploads straight from there. */
/* The bytes of one point section, read from the key's file because its
   region no longer holds them (host_copy = drop), a buffer at a time. */
class points_reader {
 public:
  virtual ~points_reader() = default;
  /* the section's next bytes into out (at most out.size()): 0 once all were read */
  virtual std::size_t next(std::span<std::uint8_t> out) = 0;
  /* after the last next(): std::runtime_error when what was read does not hash to what the region recorded */
  virtual void finish() = 0;
};

/* Where a mapped key's point sections are: in its region's memory, or only
   in its file (job::region_points). */
class points_source {
 public:
  virtual ~points_source() = default;
  /* true: section (one of mapped_bases' spans) is no longer in memory: read it with open() */
  virtual bool released(std::span<const std::uint8_t> section) const = 0;
  /* std::runtime_error naming the key when it cannot be read (no file is known for it) */
  virtual std::unique_ptr<points_reader> open(std::span<const std::uint8_t> section) const = 0;
};

struct mapped_bases {
  std::shared_ptr<const void> owner;  // null: not mapped; upload from the parsed points
  std::span<const std::uint8_t> a, b1, b2, c, h;
  /* section 4's records (after the count) when they were left undecoded:
     evaluate_from_coefs reads and checks them where it uses them */
  std::span<const std::uint8_t> coefs;
  /* null: the spans are always in memory */
  std::shared_ptr<const points_source> source;
  /* true: the spans lie in a private read-only mapping of the key's file (io::read_zkey_file_raw), whose
     pages are read from the file again when touched after they were given back: an engine returns each
     point section once its MSM is done, and the caller the coefficients once evaluated, which bounds a
     command's peak memory by the sections in use rather than the whole key */
  bool reclaimable = false;

  /* the whole pages inside bytes (one of the spans) given back, where reclaimable (keys.cpp) */
  void reclaim(std::span<const std::uint8_t> bytes) const;
};

/* One nonzero entry of the A or B matrix (snarkjs .zkey section 4). */
template <class C>
struct basic_matrix_coef {
  std::uint32_t matrix;      // 0 = A, 1 = B
  std::uint32_t constraint;  // row, < domain_size
  std::uint32_t signal;      // column, < n_vars
  ff::fr<C> value;
};

template <class C>
struct basic_verifying_key {
  using curve = C;
  ec::g1_affine<C> alpha1;
  ec::g2_affine<C> beta2, gamma2, delta2;
  std::vector<ec::g1_affine<C>> ic;  // n_public + 1
};

template <class C>
struct basic_proving_key {
  using curve = C;
  using fr = ff::fr<C>;
  using g1 = ec::g1_affine<C>;
  using g2 = ec::g2_affine<C>;
  /* bytes of one point in a .zkey (and on the device) */
  static constexpr std::size_t g1_bytes = ec::snarkjs::point_size<ff::fp<C>>;
  static constexpr std::size_t g2_bytes = ec::snarkjs::point_size<ff::fp2<C>>;

  std::uint32_t n_vars = 0;       // witness length, the constant ONE included
  std::uint32_t n_public = 0;     // public signals, ONE excluded
  std::uint32_t domain_size = 0;  // n, a power of two ≥ constraints + n_public + 1
  h_form h = h_form::odd_coset;
  /* made for a native circuit (setup_circuit): a, b, c come from its own synthesis, so its A/B coefficients
     are in its .zkey for snarkjs only, and the server releases them from its SRS region */
  bool native = false;
  g1 alpha1, beta1, delta1;
  g2 beta2, gamma2, delta2;
  std::vector<g1> ic;                       // n_public + 1
  std::vector<basic_matrix_coef<C>> coefs;  // A and B; row n_constraints + s holds A[s] = 1 (s ≤ n_public)
  std::vector<g1> a, b1;                    // n_vars: u_i(τ), v_i(τ)
  std::vector<g2> b2;                       // n_vars: v_i(τ)
  std::vector<g1> c;                        // n_vars − n_public − 1: (β u_i + α v_i + w_i)(τ)/δ
  std::vector<g1> h_query;                  // see h_form
  mapped_bases mapped;

  /* bases per query: the decoded points, or (a key read without decoding
     them, io::read_zkey_mapped) the mapped sections' */
  std::size_t a_count() const { return a.empty() ? mapped.a.size() / g1_bytes : a.size(); }
  std::size_t b1_count() const { return b1.empty() ? mapped.b1.size() / g1_bytes : b1.size(); }
  std::size_t b2_count() const { return b2.empty() ? mapped.b2.size() / g2_bytes : b2.size(); }
  std::size_t c_count() const { return c.empty() ? mapped.c.size() / g1_bytes : c.size(); }
  std::size_t h_count() const { return h_query.empty() ? mapped.h.size() / g1_bytes : h_query.size(); }
  /* the points are in a, b1, b2, c, h_query (else only in the mapped bytes) */
  bool points_decoded() const { return a.size() == n_vars; }

  basic_verifying_key<C> vk() const { return {alpha1, beta2, gamma2, delta2, ic}; }
  std::uint32_t log_domain() const { return (std::uint32_t)__builtin_ctz(domain_size); }
};

template <class C>
struct basic_proof {
  using curve = C;
  ec::g1_affine<C> a;
  ec::g2_affine<C> b;
  ec::g1_affine<C> c;
};

}  // namespace cuzk::groth16
