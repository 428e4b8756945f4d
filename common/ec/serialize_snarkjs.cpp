#include "ec/serialize_snarkjs.hpp"

#include <type_traits>

#include "ec/field_bytes.hpp"
#include "ec/subgroup.hpp"

namespace cuzk::ec::snarkjs {

namespace {

template <class F>
struct lem {
  static constexpr std::size_t size = std::is_same_v<F, fp_t> ? bytes::fp_size : 2 * bytes::fp_size;
  static std::optional<F> read(const std::uint8_t* in) {
    if constexpr (std::is_same_v<F, fp_t>) return bytes::read_fp_lem(in);
    else return bytes::read_fp2_lem(in);
  }
  static void write(const F& a, std::uint8_t* out) {
    if constexpr (std::is_same_v<F, fp_t>) bytes::write_fp_lem(a, out);
    else bytes::write_fp2_lem(a, out);
  }
};

template <class F>
struct big_endian {
  static constexpr std::size_t size = lem<F>::size;
  static std::optional<F> read(const std::uint8_t* in) {
    if constexpr (std::is_same_v<F, fp_t>) return bytes::read_fp_be(in);
    else return bytes::read_fp2_be(in);
  }
  static void write(const F& a, std::uint8_t* out) {
    if constexpr (std::is_same_v<F, fp_t>) bytes::write_fp_be(a, out);
    else bytes::write_fp2_be(a, out);
  }
};

template <template <class> class L, class F>
std::array<std::uint8_t, 2 * L<F>::size> encode(const affine_point<F>& p) {
  std::array<std::uint8_t, 2 * L<F>::size> out{};  // infinity: all zero
  if (p.infinity) return out;
  L<F>::write(p.x, out.data());
  L<F>::write(p.y, out.data() + L<F>::size);
  return out;
}

/* The coordinates after the infinity cases are settled; then the checks. */
template <template <class> class L, class F>
decode_result<affine_point<F>> decode_xy(std::span<const std::uint8_t> in, point_check check) {
  auto x = L<F>::read(in.data()), y = L<F>::read(in.data() + L<F>::size);
  if (!x || !y) return decode_error::non_canonical_coordinate;
  affine_point<F> p{*x, *y, false};
  if (check != point_check::none && !is_on_curve(p)) return decode_error::not_on_curve;
  if (check == point_check::subgroup && !in_subgroup(p)) return decode_error::not_in_subgroup;
  return p;
}

template <class F>
decode_result<affine_point<F>> decode_lem(std::span<const std::uint8_t> in, point_check check) {
  if (in.size() != 2 * lem<F>::size) return decode_error::wrong_length;
  if (bytes::all_zero(in)) return affine_point<F>{};  /* isZeroAffine: x = 0 and y = 0 */
  return decode_xy<lem, F>(in, check);
}

template <class F>
decode_result<affine_point<F>> decode_u(std::span<const std::uint8_t> in, point_check check) {
  if (in.size() != 2 * big_endian<F>::size) return decode_error::wrong_length;
  if (in[0] & 0x40) {  /* UtoLEM: the infinity flag */
    if ((in[0] & ~0x40) != 0 || !bytes::all_zero(in.subspan(1))) return decode_error::non_canonical_infinity;
    return affine_point<F>{};
  }
  if (in[0] & 0xa0) return decode_error::bad_flags;  /* compression or sign flag: not this form */
  if (bytes::all_zero(in)) return affine_point<F>{};  /* LEMtoU writes infinity as zeros */
  return decode_xy<big_endian, F>(in, check);
}

}  // namespace

std::array<std::uint8_t, g1_size> encode_g1_lem(const g1_affine_t& p) { return encode<lem>(p); }
std::array<std::uint8_t, g2_size> encode_g2_lem(const g2_affine_t& p) { return encode<lem>(p); }
decode_result<g1_affine_t> decode_g1_lem(std::span<const std::uint8_t> in, point_check check) {
  return decode_lem<fp_t>(in, check);
}
decode_result<g2_affine_t> decode_g2_lem(std::span<const std::uint8_t> in, point_check check) {
  return decode_lem<fp2_t>(in, check);
}

std::array<std::uint8_t, g1_size> encode_g1_u(const g1_affine_t& p) { return encode<big_endian>(p); }
std::array<std::uint8_t, g2_size> encode_g2_u(const g2_affine_t& p) { return encode<big_endian>(p); }
decode_result<g1_affine_t> decode_g1_u(std::span<const std::uint8_t> in, point_check check) {
  return decode_u<fp_t>(in, check);
}
decode_result<g2_affine_t> decode_g2_u(std::span<const std::uint8_t> in, point_check check) {
  return decode_u<fp2_t>(in, check);
}

}  // namespace cuzk::ec::snarkjs
