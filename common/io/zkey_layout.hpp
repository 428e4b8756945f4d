// Where each section of a .zkey (io/zkey.hpp) lies, known from the key's
// counts alone, so a key can be written in pieces straight into its final
// memory (an SRS region) as its points are computed: write_frame puts the
// file header, every section header and the small sections in place, and
// the coefficients and points go to their offsets. Sections in the order
// write_zkey has always used: 1, 2, 4, 3, 5 … 10 (and 100).
#pragma once

#include <array>
#include <cstdint>
#include <span>

#include "groth16/keys.hpp"

namespace cuzk::io {

inline constexpr std::uint64_t zkey_coef_bytes = 12 + 32;  // u32 matrix, u32 row, u32 signal, Fr

struct zkey_layout {
  std::uint32_t n_vars = 0, n_public = 0, domain_size = 0;
  std::uint32_t n_coefs = 0;
  groth16::h_form h = groth16::h_form::odd_coset;

  std::uint64_t coefs = 0;  // the first coefficient record (after the u32 count)
  std::uint64_t ic = 0, a = 0, b1 = 0, b2 = 0, c = 0, h_query = 0;
  std::uint64_t size = 0;   // the whole file

  /* std::invalid_argument for counts no .zkey can hold */
  static zkey_layout of(std::uint32_t n_vars, std::uint32_t n_public, std::uint32_t domain_size,
                        std::uint64_t n_coefs, groth16::h_form h);

  std::uint64_t n_private() const { return std::uint64_t(n_vars) - n_public - 1; }
  std::uint64_t n_h() const { return h == groth16::h_form::odd_coset ? domain_size : domain_size - 1; }
};

/* Everything but the coefficient records and the points: the file and
   section headers, the protocol, the Groth16 header (sizes, α, β, γ, δ from
   vk), the coefficient count, the empty contributions and the H form.
   out.size() must be l.size. */
void write_frame(std::span<std::uint8_t> out, const zkey_layout& l, const groth16::proving_key& vk);

/* Record i of section 4 (v stored as v R^2 mod r, as snarkjs does). */
void put_coef(std::span<std::uint8_t> out, const zkey_layout& l, std::uint64_t i, const groth16::matrix_coef& k);

/* The same, with v's stored bytes from coef_bytes (circuits repeat a few
   values: ±1, powers of two). */
using coef_value_bytes = std::array<std::uint8_t, 32>;
coef_value_bytes coef_bytes(const groth16::fr_t& v);
void put_coef(std::span<std::uint8_t> out, const zkey_layout& l, std::uint64_t i, std::uint32_t matrix,
              std::uint32_t row, std::uint32_t signal, const coef_value_bytes& v);

/* Points first .. first + p.size() - 1 of the section starting at `at`. */
void put_g1s(std::span<std::uint8_t> out, std::uint64_t at, std::uint64_t first, std::span<const groth16::g1_affine_t> p);
void put_g2s(std::span<std::uint8_t> out, std::uint64_t at, std::uint64_t first, std::span<const groth16::g2_affine_t> p);

}  // namespace cuzk::io
