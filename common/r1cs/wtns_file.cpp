#include "r1cs/wtns_file.hpp"

#include <algorithm>

#include "r1cs/binfile.hpp"
#include "r1cs/error.hpp"

namespace cuzk::r1cs {

namespace {

constexpr std::uint32_t header_section = 1, values_section = 2;
constexpr std::uint32_t field_bytes = 32;

std::string_view section_name(std::uint32_t type) {
  switch (type) {
    case 1:
      return "header";
    case 2:
      return "witness";
    default:
      return "unknown";
  }
}

std::string ctx(std::uint32_t type) { return section_context("wtns", type, section_name(type)); }

/* The values section after every check but the per-value range check. */
struct layout {
  curves::curve_id curve;
  std::uint32_t count;
  std::uint64_t values_offset;
};

constexpr std::uint64_t header_size = 4 + field_bytes + 4;

layout parse(const byte_source& src) {
  const binfile f = parse_binfile(src, "wtns", 2, section_name);
  const auto hs = f.unique(header_section, "wtns", section_name(header_section));
  if (!hs) throw format_error(ctx(header_section) + ": missing");
  const auto vs = f.unique(values_section, "wtns", section_name(values_section));
  if (!vs) throw format_error(ctx(values_section) + ": missing");

  std::vector<std::uint8_t> scratch;
  byte_reader h(src.view(hs->offset, static_cast<std::size_t>(std::min(hs->size, header_size)), scratch),
                ctx(header_section));
  const std::uint32_t n8 = h.u32("n8");
  if (n8 != field_bytes)
    h.fail("n8 is " + std::to_string(n8) +
           " bytes; only BLS12-381's and BN254's scalar fields (32 bytes) are supported");
  if (hs->size != header_size)
    h.fail("is " + std::to_string(hs->size) + " bytes, expected " + std::to_string(header_size));
  const curves::curve_id curve = scalar_curve(h.take(field_bytes, "prime"), h);
  const std::uint32_t count = h.u32("nWitness");
  if (count == 0) h.fail("nWitness is 0 (the constant one must be there)");
  if (vs->size != std::uint64_t(count) * field_bytes)
    throw format_error(ctx(values_section) + ": is " + std::to_string(vs->size) + " bytes, but the header declares " +
                       std::to_string(count) + " values of 32 bytes");
  return {curve, count, vs->offset};
}

template <class C>
layout parse_for(const byte_source& src) {
  const layout l = parse(src);
  if (l.curve != C::id) throw format_error(ctx(header_section) + ": " + curve_mismatch("the witness", l.curve, C::id));
  return l;
}

/* The first n values into out, each checked to be below r. */
template <class C>
void decode_values(const byte_source& src, const layout& l, std::uint64_t n, std::span<ff::fr<C>> out) {
  for_each_chunk(src, l.values_offset, n, field_bytes, [&](std::uint64_t first, std::span<const std::uint8_t> b) {
    for (std::size_t k = 0; k < b.size() / field_bytes; ++k) {
      const auto v = ff::fr<C>::from_bytes_le(b.subspan(k * field_bytes, field_bytes));
      if (!v)
        throw format_error(ctx(values_section) + ": value " + std::to_string(first + k) +
                           " is not below the field modulus r");
      out[first + k] = *v;
    }
  });
}

}  // namespace

wtns_shape read_wtns_shape(const byte_source& src) {
  const layout l = parse(src);
  return {l.curve, l.count};
}

std::uint64_t wtns_size(std::span<const std::uint8_t> bytes) { return wtns_size(memory_source(bytes, "wtns")); }

template <class C>
std::uint64_t read_wtns_into(const byte_source& src, std::span<ff::fr<C>> out) {
  const layout l = parse_for<C>(src);
  if (out.size() < l.count)
    throw capacity_error("wtns: " + std::to_string(l.count) + " values do not fit a buffer of " +
                         std::to_string(out.size()));
  decode_values<C>(src, l, l.count, out);
  return l.count;
}

template <class C>
std::uint64_t read_wtns_into(std::span<const std::uint8_t> bytes, std::span<ff::fr<C>> out) {
  return read_wtns_into<C>(memory_source(bytes, "wtns"), out);
}

template <class C>
std::vector<ff::fr<C>> read_wtns_prefix(const byte_source& src, std::uint64_t n) {
  const layout l = parse_for<C>(src);
  if (l.count < n)
    throw format_error(ctx(values_section) + ": holds " + std::to_string(l.count) + " values, fewer than the " +
                       std::to_string(n) + " asked for");
  std::vector<ff::fr<C>> z(n);
  decode_values<C>(src, l, n, z);
  return z;
}

template <class C>
std::vector<ff::fr<C>> read_wtns(const byte_source& src) {
  const std::uint64_t n = parse_for<C>(src).count;
  if (!fits_in_memory(n * sizeof(ff::fr<C>)))
    throw format_error(ctx(values_section) + ": " + std::to_string(n) + " values are too many to hold in memory");
  std::vector<ff::fr<C>> z(n);
  z.resize(read_wtns_into<C>(src, std::span<ff::fr<C>>(z)));  // a file may change between the two reads
  return z;
}

template <class C>
std::vector<ff::fr<C>> read_wtns(std::span<const std::uint8_t> bytes) {
  return read_wtns<C>(memory_source(bytes, "wtns"));
}

template <class C>
std::vector<ff::fr<C>> read_wtns_file(const std::filesystem::path& path) {
  return read_wtns<C>(input_file(path, "wtns"));
}

template <class C>
std::vector<std::uint8_t> write_wtns(std::span<const ff::fr<C>> z) {
  if (z.size() > 0xffffffffu) throw error("wtns: more than 2^32 - 1 values do not fit the format");
  binfile_writer w("wtns", 2, 2);
  w.reserve(12 + 2 * 12 + 4 + field_bytes + 4 + z.size() * field_bytes);
  w.begin_section(header_section);
  w.u32(field_bytes);
  w.raw(fr_modulus_le<C>());
  w.u32(static_cast<std::uint32_t>(z.size()));
  w.end_section();
  w.begin_section(values_section);
  for (const auto& v : z) w.fr(v);
  w.end_section();
  return std::move(w).take();
}

#define CUZK_WTNS_FILE(C)                                                                        \
  template std::uint64_t read_wtns_into<C>(const byte_source&, std::span<ff::fr<C>>);            \
  template std::uint64_t read_wtns_into<C>(std::span<const std::uint8_t>, std::span<ff::fr<C>>); \
  template std::vector<ff::fr<C>> read_wtns_prefix<C>(const byte_source&, std::uint64_t);        \
  template std::vector<ff::fr<C>> read_wtns<C>(const byte_source&);                              \
  template std::vector<ff::fr<C>> read_wtns<C>(std::span<const std::uint8_t>);                   \
  template std::vector<ff::fr<C>> read_wtns_file<C>(const std::filesystem::path&);               \
  template std::vector<std::uint8_t> write_wtns<C>(std::span<const ff::fr<C>>);
CUZK_WTNS_FILE(curves::bls12_381)
CUZK_WTNS_FILE(curves::bn254)

}  // namespace cuzk::r1cs
