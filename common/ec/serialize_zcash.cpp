#include "ec/serialize_zcash.hpp"

#include "ec/field_bytes.hpp"
#include "ec/subgroup.hpp"

namespace cuzk::ec::zcash {

namespace {

/* G1 and G2 differ only in the field element layout and the curve. */
template <class F>
struct layout;
template <>
struct layout<fp_t> {
  using curve = g1_curve;
  static constexpr std::size_t size = bytes::fp_size;
  static std::optional<fp_t> read(const std::uint8_t* in) { return bytes::read_fp_be(in); }
  static void write(const fp_t& a, std::uint8_t* out) { bytes::write_fp_be(a, out); }
};
template <>
struct layout<fp2_t> {
  using curve = g2_curve;
  static constexpr std::size_t size = 2 * bytes::fp_size;
  static std::optional<fp2_t> read(const std::uint8_t* in) { return bytes::read_fp2_be(in); }
  static void write(const fp2_t& a, std::uint8_t* out) { bytes::write_fp2_be(a, out); }
};

constexpr std::uint8_t flag_mask = flag_compressed | flag_infinity | flag_sign;

template <class F>
std::array<std::uint8_t, layout<F>::size> encode_compressed(const affine_point<F>& p) {
  std::array<std::uint8_t, layout<F>::size> out{};
  if (p.infinity) {
    out[0] = flag_compressed | flag_infinity;
    return out;
  }
  layout<F>::write(p.x, out.data());
  out[0] |= flag_compressed;
  if (bytes::lexicographically_largest(p.y)) out[0] |= flag_sign;
  return out;
}

template <class F>
std::array<std::uint8_t, 2 * layout<F>::size> encode_uncompressed(const affine_point<F>& p) {
  std::array<std::uint8_t, 2 * layout<F>::size> out{};
  if (p.infinity) {
    out[0] = flag_infinity;
    return out;
  }
  layout<F>::write(p.x, out.data());
  layout<F>::write(p.y, out.data() + layout<F>::size);
  return out;
}

template <class F>
decode_result<affine_point<F>> checked(const affine_point<F>& p, point_check check) {
  if (check == point_check::subgroup && !in_subgroup(p)) return decode_error::not_in_subgroup;
  return p;
}

template <class F>
decode_result<affine_point<F>> decode_compressed(std::span<const std::uint8_t> in, point_check check) {
  using L = layout<F>;
  if (in.size() != L::size) return decode_error::wrong_length;
  const std::uint8_t flags = in[0] & flag_mask;
  if (!(flags & flag_compressed)) return decode_error::bad_flags;
  std::array<std::uint8_t, L::size> body;
  std::copy(in.begin(), in.end(), body.begin());
  body[0] &= std::uint8_t(~flag_mask);
  if (flags & flag_infinity) {
    if (flags & flag_sign) return decode_error::bad_flags;
    if (!bytes::all_zero(body)) return decode_error::non_canonical_infinity;
    return affine_point<F>{};
  }
  auto x = L::read(body.data());
  if (!x) return decode_error::non_canonical_coordinate;
  auto y = (x->sqr() * *x + L::curve::b()).sqrt(); /* y = sqrt(x^3 + b) */
  if (!y) return decode_error::not_on_curve;
  if (bytes::lexicographically_largest(*y) != bool(flags & flag_sign)) *y = -*y;
  return checked(affine_point<F>{*x, *y, false}, check);
}

template <class F>
decode_result<affine_point<F>> decode_uncompressed(std::span<const std::uint8_t> in, point_check check) {
  using L = layout<F>;
  if (in.size() != 2 * L::size) return decode_error::wrong_length;
  const std::uint8_t flags = in[0] & flag_mask;
  if (flags & (flag_compressed | flag_sign)) return decode_error::bad_flags;
  if (flags & flag_infinity) {
    if ((in[0] & ~flag_mask) != 0 || !bytes::all_zero(in.subspan(1))) return decode_error::non_canonical_infinity;
    return affine_point<F>{};
  }
  auto x = L::read(in.data()), y = L::read(in.data() + L::size);
  if (!x || !y) return decode_error::non_canonical_coordinate;
  affine_point<F> p{*x, *y, false};
  if (check != point_check::none && !is_on_curve(p)) return decode_error::not_on_curve;
  return checked(p, check);
}

}  // namespace

std::array<std::uint8_t, g1_compressed_size> encode_g1_compressed(const g1_affine_t& p) { return encode_compressed(p); }
std::array<std::uint8_t, g1_uncompressed_size> encode_g1_uncompressed(const g1_affine_t& p) {
  return encode_uncompressed(p);
}
std::array<std::uint8_t, g2_compressed_size> encode_g2_compressed(const g2_affine_t& p) { return encode_compressed(p); }
std::array<std::uint8_t, g2_uncompressed_size> encode_g2_uncompressed(const g2_affine_t& p) {
  return encode_uncompressed(p);
}

decode_result<g1_affine_t> decode_g1_compressed(std::span<const std::uint8_t> in, point_check check) {
  return decode_compressed<fp_t>(in, check);
}
decode_result<g1_affine_t> decode_g1_uncompressed(std::span<const std::uint8_t> in, point_check check) {
  return decode_uncompressed<fp_t>(in, check);
}
decode_result<g2_affine_t> decode_g2_compressed(std::span<const std::uint8_t> in, point_check check) {
  return decode_compressed<fp2_t>(in, check);
}
decode_result<g2_affine_t> decode_g2_uncompressed(std::span<const std::uint8_t> in, point_check check) {
  return decode_uncompressed<fp2_t>(in, check);
}

decode_result<g1_affine_t> decode_g1(std::span<const std::uint8_t> in, point_check check) {
  if (in.size() == g1_compressed_size) return decode_g1_compressed(in, check);
  if (in.size() == g1_uncompressed_size) return decode_g1_uncompressed(in, check);
  return decode_error::wrong_length;
}
decode_result<g2_affine_t> decode_g2(std::span<const std::uint8_t> in, point_check check) {
  if (in.size() == g2_compressed_size) return decode_g2_compressed(in, check);
  if (in.size() == g2_uncompressed_size) return decode_g2_uncompressed(in, check);
  return decode_error::wrong_length;
}

}  // namespace cuzk::ec::zcash
