#include "r1cs/r1cs_file.hpp"

#include <algorithm>

#include "r1cs/binfile.hpp"
#include "r1cs/error.hpp"

namespace cuzk::r1cs {

namespace {

constexpr std::uint32_t header_section = 1, constraints_section = 2, wire_map_section = 3;
constexpr std::uint32_t field_bytes = 32;
/* fs | prime | nWires nPubOut nPubIn nPrvIn (u32) | nLabels (u64) | mConstraints (u32) */
constexpr std::uint64_t header_bytes = 4 + field_bytes + 4 * 4 + 8 + 4;

std::string_view section_name(std::uint32_t type) {
  switch (type) {
    case 1: return "header";
    case 2: return "constraints";
    case 3: return "wire-to-label map";
    case 4: return "custom gates list";
    case 5: return "custom gates application";
    default: return "unknown";
  }
}

std::string ctx(std::uint32_t type) { return section_context("r1cs", type, section_name(type)); }

r1cs_header read_header(std::span<const std::uint8_t> bytes) {
  byte_reader r(bytes, ctx(header_section));
  const std::uint32_t fs = r.u32("field size");
  if (fs != field_bytes)
    r.fail("field size is " + std::to_string(fs) + " bytes; only BLS12-381's scalar field (32 bytes) is supported");
  if (bytes.size() != header_bytes)
    r.fail("is " + std::to_string(bytes.size()) + " bytes, expected " + std::to_string(header_bytes));
  const auto prime = r.take(field_bytes, "prime");
  const auto modulus = fr_modulus_le();
  if (!std::equal(prime.begin(), prime.end(), modulus.begin()))
    r.fail("prime is not BLS12-381's scalar field r (compile the circuit with circom --prime bls12381)");
  r1cs_header h;
  h.n_wires = r.u32("nWires");
  h.n_pub_out = r.u32("nPubOut");
  h.n_pub_in = r.u32("nPubIn");
  h.n_prv_in = r.u32("nPrvIn");
  h.n_labels = r.u64("nLabels");
  h.n_constraints = r.u32("mConstraints");
  if (h.n_wires == 0) r.fail("nWires is 0 (wire 0, the constant one, must exist)");
  const std::uint64_t declared = std::uint64_t(h.n_pub_out) + h.n_pub_in + h.n_prv_in;
  if (declared >= h.n_wires)
    r.fail("nPubOut + nPubIn + nPrvIn = " + std::to_string(declared) + " leaves no room for wire 0 among " +
           std::to_string(h.n_wires) + " wires");
  if (h.n_labels < h.n_wires)
    r.fail("nLabels = " + std::to_string(h.n_labels) + " is below nWires = " + std::to_string(h.n_wires));
  return h;
}

void read_lc(byte_reader& r, const r1cs_header& h, std::uint32_t constraint, char which, std::vector<term>& scratch,
             sparse_rows& rows) {
  // messages are built only on failure: files hold millions of terms
  auto where = [&] { return "constraint " + std::to_string(constraint) + ", " + which; };
  if (r.remaining() < 4) r.fail(where() + ": term count is cut off by the end of the section");
  const std::uint32_t n = r.u32("term count");
  constexpr std::uint64_t term_bytes = 4 + field_bytes;
  if (std::uint64_t(n) * term_bytes > r.remaining())
    r.fail(where() + " declares " + std::to_string(n) + " terms (" + std::to_string(n * term_bytes) +
           " bytes) but only " + std::to_string(r.remaining()) + " bytes remain");
  const std::uint8_t* p = r.take(n * term_bytes, "terms").data();
  scratch.clear();
  bool normal = true;
  for (std::uint32_t k = 0; k < n; ++k, p += term_bytes) {
    const std::uint32_t wire = le32(p);
    if (wire >= h.n_wires)
      r.fail(where() + " term " + std::to_string(k) + ": wire " + std::to_string(wire) +
             " is out of range (the circuit has " + std::to_string(h.n_wires) + " wires)");
    const auto coeff = fr_t::from_bytes_le({p + 4, field_bytes});
    if (!coeff) r.fail(where() + " term " + std::to_string(k) + ": coefficient is not below the field modulus r");
    if (coeff->is_zero() || (!scratch.empty() && scratch.back().wire >= wire)) normal = false;
    scratch.push_back({wire, *coeff});
  }
  if (!normal) {  // the format asks for ascending, non-zero terms; tolerate others by normalizing
    std::stable_sort(scratch.begin(), scratch.end(), [](const term& x, const term& y) { return x.wire < y.wire; });
    std::size_t out = 0;
    for (std::size_t i = 0; i < scratch.size();) {
      term x = scratch[i];
      for (++i; i < scratch.size() && scratch[i].wire == x.wire; ++i) x.coeff += scratch[i].coeff;
      if (!x.coeff.is_zero()) scratch[out++] = x;
    }
    scratch.resize(out);
  }
  for (const auto& x : scratch) rows.push(x);
  rows.end_row();
}

matrices read_constraints(std::span<const std::uint8_t> bytes, const r1cs_header& h) {
  byte_reader r(bytes, ctx(constraints_section));
  matrices m;
  m.n_wires = h.n_wires;
  m.n_public = h.n_pub_out + h.n_pub_in;
  // each constraint takes at least 12 bytes (three term counts)
  if (std::uint64_t(h.n_constraints) * 12 > bytes.size())
    r.fail("header declares " + std::to_string(h.n_constraints) + " constraints, more than " +
           std::to_string(bytes.size()) + " bytes can hold");
  // a first pass over the term counts sizes the matrices exactly (growing
  // them would copy gigabytes for large circuits); the second pass validates
  std::uint64_t terms[3] = {0, 0, 0};
  for (std::uint64_t i = 0, at = 0; i < 3ull * h.n_constraints && at + 4 <= bytes.size(); ++i) {
    const std::uint32_t n = le32(bytes.data() + at);
    terms[i % 3] += n;
    at += 4 + std::uint64_t(n) * (4 + field_bytes);
  }
  sparse_rows* rows[3] = {&m.a, &m.b, &m.c};
  for (int k = 0; k < 3; ++k)
    rows[k]->reserve(h.n_constraints, std::min<std::uint64_t>(terms[k], bytes.size() / (4 + field_bytes)));
  std::vector<term> scratch;
  for (std::uint32_t i = 0; i < h.n_constraints; ++i) {
    read_lc(r, h, i, 'A', scratch, m.a);
    read_lc(r, h, i, 'B', scratch, m.b);
    read_lc(r, h, i, 'C', scratch, m.c);
  }
  if (r.remaining() != 0)
    r.fail(std::to_string(r.remaining()) + " bytes left over after the header's " +
           std::to_string(h.n_constraints) + " constraints");
  return m;
}

void check_wire_map(std::span<const std::uint8_t> bytes, const r1cs_header& h) {
  byte_reader r(bytes, ctx(wire_map_section));
  if (bytes.size() != std::uint64_t(h.n_wires) * 8)
    r.fail("is " + std::to_string(bytes.size()) + " bytes, expected 8 x nWires = " +
           std::to_string(std::uint64_t(h.n_wires) * 8));
  const std::uint8_t* p = bytes.data();
  for (std::uint32_t w = 0; w < h.n_wires; ++w, p += 8) {
    const std::uint64_t label = le64(p);
    if (label >= h.n_labels)
      r.fail("wire " + std::to_string(w) + " maps to label " + std::to_string(label) + ", not below nLabels = " +
             std::to_string(h.n_labels));
    if (w == 0 && label != 0) r.fail("wire 0 maps to label " + std::to_string(label) + " (must be 0)");
  }
}

}  // namespace

r1cs_file read_r1cs(std::span<const std::uint8_t> bytes) {
  const binfile f = parse_binfile(memory_source(bytes, "r1cs"), "r1cs", 1, section_name);
  auto span_of = [&](const binfile_section& s) { return bytes.subspan(s.offset, s.size); };
  for (std::uint32_t t : {4u, 5u})
    if (f.unique(t, "r1cs", section_name(t)))
      throw format_error(ctx(t) + ": custom gates are PLONK-only and cannot be proven with Groth16");
  const auto hs = f.unique(header_section, "r1cs", section_name(header_section));
  if (!hs) throw format_error(ctx(header_section) + ": missing");
  const auto cs = f.unique(constraints_section, "r1cs", section_name(constraints_section));
  if (!cs) throw format_error(ctx(constraints_section) + ": missing");
  r1cs_file out;
  out.header = read_header(span_of(*hs));
  // required: its 8 bytes per wire are what bound nWires by the file's size
  const auto ws = f.unique(wire_map_section, "r1cs", section_name(wire_map_section));
  if (!ws) throw format_error(ctx(wire_map_section) + ": missing");
  check_wire_map(span_of(*ws), out.header);
  out.m = read_constraints(span_of(*cs), out.header);
  return out;
}

r1cs_file read_r1cs_file(const std::filesystem::path& path) {
  const input_file f(path, "r1cs");
  parse_binfile(f, "r1cs", 1, section_name);  // the container's shape first, before reading it all
  return read_r1cs(f.read_all());
}

r1cs_header header_for(const matrices& m) {
  if (m.n_constraints() > 0xffffffffu) throw error("r1cs: more than 2^32 - 1 constraints do not fit the format");
  r1cs_header h;
  h.n_wires = m.n_wires;
  h.n_pub_out = m.n_public;
  h.n_labels = m.n_wires;
  h.n_constraints = static_cast<std::uint32_t>(m.n_constraints());
  return h;
}

std::vector<std::uint8_t> write_r1cs(const r1cs_file& f) {
  const r1cs_header& h = f.header;
  if (h.n_constraints != f.m.n_constraints() || h.n_wires != f.m.n_wires ||
      std::uint64_t(h.n_pub_out) + h.n_pub_in != f.m.n_public || h.n_labels < h.n_wires)
    throw error("r1cs: header does not describe the matrices");
  binfile_writer w("r1cs", 1, 3);
  w.reserve(12 * 3 + header_bytes + 12 * f.m.n_constraints() +
            (f.m.a.n_terms() + f.m.b.n_terms() + f.m.c.n_terms()) * (4 + field_bytes) + 8ull * h.n_wires);
  w.begin_section(header_section);
  w.u32(field_bytes);
  w.raw(fr_modulus_le());
  w.u32(h.n_wires);
  w.u32(h.n_pub_out);
  w.u32(h.n_pub_in);
  w.u32(h.n_prv_in);
  w.u64(h.n_labels);
  w.u32(h.n_constraints);
  w.end_section();
  w.begin_section(constraints_section);
  for (std::uint64_t i = 0; i < f.m.n_constraints(); ++i)
    for (const sparse_rows* rows : {&f.m.a, &f.m.b, &f.m.c}) {
      const auto row = rows->row(i);
      w.u32(static_cast<std::uint32_t>(row.size()));
      for (const auto& t : row) {
        w.u32(t.wire);
        w.fr(t.coeff);
      }
    }
  w.end_section();
  w.begin_section(wire_map_section);
  for (std::uint32_t i = 0; i < h.n_wires; ++i) w.u64(i);
  w.end_section();
  return std::move(w).take();
}

}  // namespace cuzk::r1cs
