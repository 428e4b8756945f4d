// The development setup of a native circuit written straight into the bytes
// of its .zkey (an SRS region, a mapped file), for keys that cannot be held
// twice: a 2^27-constraint key is ≈ 96 GB, its matrices more. Neither the
// matrices nor the points are ever held whole; the circuit is synthesized in
// setup mode twice:
//   pass 1 (construction): sizes and coefficients counted, which fixes the
//     layout;
//   pass 2 (write): u_i(τ), v_i(τ), w_i(τ) accumulated row by row with
//     L_row(τ) computed a block of rows at a time (3 field elements a wire)
//     while the coefficient records are written; then each query's
//     fixed-base multiplications a chunk at a time, encoded at their offsets.
// The bytes are exactly io::write_zkey(groth16::setup_circuit(c, t, h)), on
// either curve (the circuit's).
#pragma once

#include <cstdint>
#include <span>
#include <vector>

#include "circuits/circuit.hpp"
#include "groth16/setup.hpp"
#include "io/zkey_layout.hpp"

namespace cuzk::io {

template <class C>
class basic_zkey_setup {
 public:
  using fr = ff::fr<C>;

  /* Pass 1 (a synthesis that only counts). fb: where the multiplications run (nullptr: the CPU). */
  basic_zkey_setup(const circuits::basic_circuit<C>& c, const groth16::basic_toxic_waste<C>& t, groth16::h_form h,
                   const groth16::progress_fn& progress = {}, groth16::basic_fixed_base_engine<C>* fb = nullptr);

  const zkey_layout& layout() const { return layout_; }
  /* pass 1's counts: constraints, inputs (ONE included), aux */
  const r1cs::counts& counts() const { return n_; }

  /* Pass 2, into out (layout().size bytes); once: it spends the scalars. */
  void write(std::span<std::uint8_t> out);

 private:
  void step(std::string_view what, std::uint64_t done, std::uint64_t total) const;

  const circuits::basic_circuit<C>& c_;
  groth16::basic_toxic_waste<C> t_;
  groth16::progress_fn progress_;
  groth16::basic_fixed_base_engine<C>* fb_;
  r1cs::counts n_;
  zkey_layout layout_;
  std::vector<fr> u_, v_, k_;  // per wire: u, v, and w, which becomes the IC and C scalars
  bool written_ = false;
};

}  // namespace cuzk::io
