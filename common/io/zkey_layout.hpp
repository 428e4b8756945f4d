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

#include <cstring>
#include <vector>

#include <tbb/parallel_for.h>

#include "ec/serialize_snarkjs.hpp"
#include "groth16/keys.hpp"

namespace cuzk::io {

inline constexpr std::uint64_t zkey_coef_bytes = 12 + 32;  // u32 matrix, u32 row, u32 signal, Fr

struct zkey_layout {
  curves::curve_id curve = curves::curve_id::bls12_381;
  std::uint32_t n8q = 48;  // bytes of Fp: a G1 point is 2 n8q, a G2 point 4 n8q
  std::uint32_t n_vars = 0, n_public = 0, domain_size = 0;
  std::uint32_t n_coefs = 0;
  groth16::h_form h = groth16::h_form::odd_coset;
  bool native = false;  // section 101: a native circuit's key (groth16::basic_proving_key::native)

  std::uint64_t coefs = 0;  // the first coefficient record (after the u32 count)
  std::uint64_t ic = 0, a = 0, b1 = 0, b2 = 0, c = 0, h_query = 0;
  std::uint64_t size = 0;  // the whole file

  /* std::invalid_argument for counts no .zkey can hold */
  static zkey_layout of(curves::curve_id curve, std::uint32_t n_vars, std::uint32_t n_public, std::uint32_t domain_size,
                        std::uint64_t n_coefs, groth16::h_form h, bool native = false);
  template <class C>
  static zkey_layout of(const groth16::basic_proving_key<C>& pk, std::uint64_t n_coefs) {
    return of(C::id, pk.n_vars, pk.n_public, pk.domain_size, n_coefs, pk.h, pk.native);
  }

  std::uint64_t g1() const { return 2 * n8q; }
  std::uint64_t g2() const { return 4 * n8q; }

  std::uint64_t n_private() const { return std::uint64_t(n_vars) - n_public - 1; }
  std::uint64_t n_h() const { return h == groth16::h_form::odd_coset ? domain_size : domain_size - 1; }
};

/* Everything but the coefficient records and the points: the file and
   section headers, the protocol, the Groth16 header (sizes, α, β, γ, δ from
   vk), the coefficient count, the empty contributions and the H form.
   out.size() must be l.size. */
template <class C>
void write_frame(std::span<std::uint8_t> out, const zkey_layout& l, const groth16::basic_proving_key<C>& vk);

/* v's stored bytes: the integer v R^2 mod r (circuits repeat a few values:
   ±1, powers of two, so callers may cache them) */
using coef_value_bytes = std::array<std::uint8_t, 32>;
template <class P>
coef_value_bytes coef_bytes(const ff::mont_field<P>& v) {
  using F = ff::mont_field<P>; /* v's limbs are v R; read those as a value twice */
  return F::from_canonical_unchecked(F::from_canonical_unchecked(v.l).l).to_bytes_le();
}

/* Record i of section 4. */
void put_coef(std::span<std::uint8_t> out, const zkey_layout& l, std::uint64_t i, std::uint32_t matrix,
              std::uint32_t row, std::uint32_t signal, const coef_value_bytes& v);
template <class C>
void put_coef(std::span<std::uint8_t> out, const zkey_layout& l, std::uint64_t i,
              const groth16::basic_matrix_coef<C>& k) {
  put_coef(out, l, i, k.matrix, k.constraint, k.signal, coef_bytes(k.value));
}

/* Points first .. first + p.size() - 1 of the section starting at `at`
   (G1 or G2 points of either curve, in snarkjs's LEM layout). */
template <class F>
void put_points(std::span<std::uint8_t> out, std::uint64_t at, std::uint64_t first,
                std::span<const ec::affine_point<F>> p) {
  constexpr std::size_t size = ec::snarkjs::point_size<F>;
  tbb::parallel_for(std::size_t{0}, p.size(), [&](std::size_t i) {
    const auto b = ec::snarkjs::encode_lem(p[i]);
    std::memcpy(out.data() + at + (first + i) * size, b.data(), b.size());
  });
}
template <class F>
void put_points(std::span<std::uint8_t> out, std::uint64_t at, std::uint64_t first,
                const std::vector<ec::affine_point<F>>& p) {
  put_points(out, at, first, std::span<const ec::affine_point<F>>(p));
}

}  // namespace cuzk::io
