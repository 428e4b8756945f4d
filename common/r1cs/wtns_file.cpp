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
    case 1: return "header";
    case 2: return "witness";
    default: return "unknown";
  }
}

std::string ctx(std::uint32_t type) { return section_context("wtns", type, section_name(type)); }

/* The values section after every check but the per-value range check. */
struct layout {
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
    h.fail("n8 is " + std::to_string(n8) + " bytes; only BLS12-381's scalar field (32 bytes) is supported");
  if (hs->size != header_size)
    h.fail("is " + std::to_string(hs->size) + " bytes, expected " + std::to_string(header_size));
  const auto prime = h.take(field_bytes, "prime");
  const auto modulus = fr_modulus_le();
  if (!std::equal(prime.begin(), prime.end(), modulus.begin()))
    h.fail(foreign_prime(prime, "BN254 proving is not available yet: compute the witness of a circuit compiled with "
                               "--prime bls12381"));
  const std::uint32_t count = h.u32("nWitness");
  if (count == 0) h.fail("nWitness is 0 (the constant one must be there)");
  if (vs->size != std::uint64_t(count) * field_bytes)
    throw format_error(ctx(values_section) + ": is " + std::to_string(vs->size) + " bytes, but the header declares " +
                       std::to_string(count) + " values of 32 bytes");
  return {count, vs->offset};
}

/* The first n values into out, each checked to be below r. */
void decode_values(const byte_source& src, const layout& l, std::uint64_t n, std::span<ff::fr_t> out) {
  for_each_chunk(src, l.values_offset, n, field_bytes, [&](std::uint64_t first, std::span<const std::uint8_t> b) {
    for (std::size_t k = 0; k < b.size() / field_bytes; ++k) {
      const auto v = ff::fr_t::from_bytes_le(b.subspan(k * field_bytes, field_bytes));
      if (!v)
        throw format_error(ctx(values_section) + ": value " + std::to_string(first + k) +
                           " is not below the field modulus r");
      out[first + k] = *v;
    }
  });
}

}  // namespace

std::uint64_t wtns_size(const byte_source& src) { return parse(src).count; }

std::uint64_t wtns_size(std::span<const std::uint8_t> bytes) { return wtns_size(memory_source(bytes, "wtns")); }

std::uint64_t read_wtns_into(const byte_source& src, std::span<ff::fr_t> out) {
  const layout l = parse(src);
  if (out.size() < l.count)
    throw capacity_error("wtns: " + std::to_string(l.count) + " values do not fit a buffer of " +
                         std::to_string(out.size()));
  decode_values(src, l, l.count, out);
  return l.count;
}

std::uint64_t read_wtns_into(std::span<const std::uint8_t> bytes, std::span<ff::fr_t> out) {
  return read_wtns_into(memory_source(bytes, "wtns"), out);
}

std::vector<ff::fr_t> read_wtns_prefix(const byte_source& src, std::uint64_t n) {
  const layout l = parse(src);
  if (l.count < n)
    throw format_error(ctx(values_section) + ": holds " + std::to_string(l.count) + " values, fewer than the " +
                       std::to_string(n) + " asked for");
  std::vector<ff::fr_t> z(n);
  decode_values(src, l, n, z);
  return z;
}

std::vector<ff::fr_t> read_wtns(const byte_source& src) {
  const std::uint64_t n = wtns_size(src);
  if (!fits_in_memory(n * sizeof(ff::fr_t)))
    throw format_error(ctx(values_section) + ": " + std::to_string(n) + " values are too many to hold in memory");
  std::vector<ff::fr_t> z(n);
  z.resize(read_wtns_into(src, z));  // a file may change between the two reads
  return z;
}

std::vector<ff::fr_t> read_wtns(std::span<const std::uint8_t> bytes) { return read_wtns(memory_source(bytes, "wtns")); }

std::vector<ff::fr_t> read_wtns_file(const std::filesystem::path& path) { return read_wtns(input_file(path, "wtns")); }

std::vector<std::uint8_t> write_wtns(std::span<const ff::fr_t> z) {
  if (z.size() > 0xffffffffu) throw error("wtns: more than 2^32 - 1 values do not fit the format");
  binfile_writer w("wtns", 2, 2);
  w.reserve(12 + 2 * 12 + 4 + field_bytes + 4 + z.size() * field_bytes);
  w.begin_section(header_section);
  w.u32(field_bytes);
  w.raw(fr_modulus_le());
  w.u32(static_cast<std::uint32_t>(z.size()));
  w.end_section();
  w.begin_section(values_section);
  for (const auto& v : z) w.fr(v);
  w.end_section();
  return std::move(w).take();
}

}  // namespace cuzk::r1cs
