#include "ec/serialize_snarkjs.hpp"

#include "curves/bn254.hpp"
#include "ec/subgroup.hpp"

namespace cuzk::ec::snarkjs {

namespace {

template <class F>
struct lem {
  static constexpr std::size_t size = bytes::field_layout<F>::size;
  static std::optional<F> read(const std::uint8_t* in) { return bytes::read_lem(in, (const F*)nullptr); }
  static void write(const F& a, std::uint8_t* out) { bytes::write_lem(a, out); }
};

template <class F>
struct big_endian {
  static constexpr std::size_t size = bytes::field_layout<F>::size;
  static std::optional<F> read(const std::uint8_t* in) { return bytes::read_be(in, (const F*)nullptr); }
  static void write(const F& a, std::uint8_t* out) { bytes::write_be(a, out); }
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

}  // namespace

template <class F>
std::array<std::uint8_t, point_size<F>> encode_lem(const affine_point<F>& p) {
  return encode<lem>(p);
}
template <class F>
std::array<std::uint8_t, point_size<F>> encode_u(const affine_point<F>& p) {
  return encode<big_endian>(p);
}

template <class F>
decode_result<affine_point<F>> decode_lem(std::span<const std::uint8_t> in, point_check check) {
  if (in.size() != 2 * lem<F>::size) return decode_error::wrong_length;
  if (bytes::all_zero(in)) return affine_point<F>{}; /* isZeroAffine: x = 0 and y = 0 */
  return decode_xy<lem, F>(in, check);
}

template <class F>
decode_result<affine_point<F>> decode_u(std::span<const std::uint8_t> in, point_check check) {
  if (in.size() != 2 * big_endian<F>::size) return decode_error::wrong_length;
  if (in[0] & 0x40) { /* UtoLEM: the infinity flag */
    if ((in[0] & ~0x40) != 0 || !bytes::all_zero(in.subspan(1))) return decode_error::non_canonical_infinity;
    return affine_point<F>{};
  }
  /* the spare top bits other than infinity's 0x40 (compression 0x80 and sign
     0x20 on BLS12-381, whose p leaves three; 0x80 on BN254, which leaves two)
     are flags this form never sets */
  using base_t = typename bytes::field_layout<F>::base_t;
  constexpr unsigned spare = 8 * base_t::n_bytes - base_t::bits;
  constexpr std::uint8_t flags = std::uint8_t((0xff << (8 - spare)) & ~0x40);
  if (in[0] & flags) return decode_error::bad_flags;
  if (bytes::all_zero(in)) return affine_point<F>{}; /* LEMtoU writes infinity as zeros */
  return decode_xy<big_endian, F>(in, check);
}

#define CUZK_SNARKJS_LAYOUTS(F)                                                                      \
  template std::array<std::uint8_t, point_size<F>> encode_lem(const affine_point<F>&);               \
  template decode_result<affine_point<F>> decode_lem<F>(std::span<const std::uint8_t>, point_check); \
  template std::array<std::uint8_t, point_size<F>> encode_u(const affine_point<F>&);                 \
  template decode_result<affine_point<F>> decode_u<F>(std::span<const std::uint8_t>, point_check);
CUZK_SNARKJS_LAYOUTS(ff::fp<curves::bls12_381>)
CUZK_SNARKJS_LAYOUTS(ff::fp2<curves::bls12_381>)
CUZK_SNARKJS_LAYOUTS(ff::fp<curves::bn254>)
CUZK_SNARKJS_LAYOUTS(ff::fp2<curves::bn254>)
#undef CUZK_SNARKJS_LAYOUTS

}  // namespace cuzk::ec::snarkjs
