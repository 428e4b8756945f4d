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
    case 1:
      return "header";
    case 2:
      return "constraints";
    case 3:
      return "wire-to-label map";
    case 4:
      return "custom gates list";
    case 5:
      return "custom gates application";
    default:
      return "unknown";
  }
}

std::string ctx(std::uint32_t type) { return section_context("r1cs", type, section_name(type)); }

/* bytes: the header section's first header_bytes (or fewer); declared: its size in the section table */
r1cs_header read_header(std::span<const std::uint8_t> bytes, std::uint64_t declared, curves::curve_id& curve) {
  byte_reader r(bytes, ctx(header_section));
  const std::uint32_t fs = r.u32("field size");
  if (fs != field_bytes)
    r.fail("field size is " + std::to_string(fs) +
           " bytes; only BLS12-381's and BN254's scalar fields (32 bytes) are supported");
  if (declared != header_bytes)
    r.fail("is " + std::to_string(declared) + " bytes, expected " + std::to_string(header_bytes));
  curve = scalar_curve(r.take(field_bytes, "prime"), r);
  r1cs_header h;
  h.n_wires = r.u32("nWires");
  h.n_pub_out = r.u32("nPubOut");
  h.n_pub_in = r.u32("nPubIn");
  h.n_prv_in = r.u32("nPrvIn");
  h.n_labels = r.u64("nLabels");
  h.n_constraints = r.u32("mConstraints");
  if (h.n_wires == 0) r.fail("nWires is 0 (wire 0, the constant one, must exist)");
  const std::uint64_t declared_signals = std::uint64_t(h.n_pub_out) + h.n_pub_in + h.n_prv_in;
  if (declared_signals >= h.n_wires)
    r.fail("nPubOut + nPubIn + nPrvIn = " + std::to_string(declared_signals) + " leaves no room for wire 0 among " +
           std::to_string(h.n_wires) + " wires");
  if (h.n_labels < h.n_wires)
    r.fail("nLabels = " + std::to_string(h.n_labels) + " is below nWires = " + std::to_string(h.n_wires));
  return h;
}

constexpr std::uint64_t term_bytes = 4 + field_bytes;

/* The constraints section read forward, a bounded chunk at a time (memory
   sources are viewed, not copied). */
class section_cursor {
 public:
  section_cursor(const byte_source& src, std::uint64_t offset, std::uint64_t size)
      : src_(src), window_at_(offset), end_(offset + size) {}
  std::uint64_t remaining() const { return end_ - window_at_ - at_; }
  /* n ≤ remaining() bytes, valid until the next take */
  const std::uint8_t* take(std::size_t n) {
    if (window_.size() - at_ < n) {
      window_at_ += at_;
      at_ = 0;
      window_ = src_.view(window_at_, static_cast<std::size_t>(std::min<std::uint64_t>(chunk, remaining())), scratch_);
    }
    const std::uint8_t* p = window_.data() + at_;
    at_ += n;
    return p;
  }
  [[noreturn]] void fail(const std::string& message) const {
    throw format_error(ctx(constraints_section) + ": " + message);
  }

 private:
  static constexpr std::uint64_t chunk = std::uint64_t{4} << 20;
  const byte_source& src_;
  std::uint64_t window_at_, end_;  // file offsets: the window's first byte, the section's end
  std::span<const std::uint8_t> window_;
  std::size_t at_ = 0;
  std::vector<std::uint8_t> scratch_;
};

void check_curve(const r1cs_shape& s, curves::curve_id expected) {
  if (s.curve != expected)
    throw format_error(ctx(header_section) + ": " + curve_mismatch("the constraint system", s.curve, expected));
}

/* Every term of every linear combination, validated: on_term(k, wire, coeff)
   with k = 0, 1, 2 for A, B, C, then on_end(constraint, k) after each. */
template <class C, class OnTerm, class OnEnd>
void parse_constraints(const byte_source& src, const r1cs_shape& s, OnTerm&& on_term, OnEnd&& on_end) {
  const r1cs_header& h = s.header;
  section_cursor r(src, s.constraints_offset, s.constraints_bytes);
  for (std::uint32_t i = 0; i < h.n_constraints; ++i)
    for (int k = 0; k < 3; ++k) {
      // messages are built only on failure: files hold millions of terms
      auto where = [&] { return "constraint " + std::to_string(i) + ", " + "ABC"[k]; };
      if (r.remaining() < 4) r.fail(where() + ": term count is cut off by the end of the section");
      const std::uint32_t n = le32(r.take(4));
      if (n * term_bytes > r.remaining())
        r.fail(where() + " declares " + std::to_string(n) + " terms (" + std::to_string(n * term_bytes) +
               " bytes) but only " + std::to_string(r.remaining()) + " bytes remain");
      for (std::uint32_t t = 0; t < n; ++t) {
        const std::uint8_t* p = r.take(term_bytes);
        const std::uint32_t wire = le32(p);
        if (wire >= h.n_wires)
          r.fail(where() + " term " + std::to_string(t) + ": wire " + std::to_string(wire) +
                 " is out of range (the circuit has " + std::to_string(h.n_wires) + " wires)");
        const auto coeff = ff::fr<C>::from_bytes_le({p + 4, field_bytes});
        if (!coeff) r.fail(where() + " term " + std::to_string(t) + ": coefficient is not below the field modulus r");
        on_term(k, wire, *coeff);
      }
      on_end(i, k);
    }
  if (r.remaining() != 0)
    r.fail(std::to_string(r.remaining()) + " bytes left over after the header's " + std::to_string(h.n_constraints) +
           " constraints");
}

template <class C>
basic_matrices<C> read_constraints(std::span<const std::uint8_t> bytes, const r1cs_shape& s) {
  using term = basic_term<C>;
  const r1cs_header& h = s.header;
  const auto section = bytes.subspan(s.constraints_offset, s.constraints_bytes);
  basic_matrices<C> m;
  m.n_wires = h.n_wires;
  m.n_public = h.n_pub_out + h.n_pub_in;
  // a first pass over the term counts sizes the matrices exactly (growing
  // them would copy gigabytes for large circuits); the second pass validates
  std::uint64_t terms[3] = {0, 0, 0};
  for (std::uint64_t i = 0, at = 0; i < 3ull * h.n_constraints && at + 4 <= section.size(); ++i) {
    const std::uint32_t n = le32(section.data() + at);
    terms[i % 3] += n;
    at += 4 + std::uint64_t(n) * term_bytes;
  }
  basic_sparse_rows<C>* rows[3] = {&m.a, &m.b, &m.c};
  for (int k = 0; k < 3; ++k)
    rows[k]->reserve(h.n_constraints, std::min<std::uint64_t>(terms[k], section.size() / term_bytes));
  std::vector<term> scratch;
  bool normal = true;
  parse_constraints<C>(
      memory_source(bytes, "r1cs"), s,
      [&](int, std::uint32_t wire, const ff::fr<C>& coeff) {
        if (coeff.is_zero() || (!scratch.empty() && scratch.back().wire >= wire)) normal = false;
        scratch.push_back({wire, coeff});
      },
      [&](std::uint32_t, int k) {
        // the format asks for ascending, non-zero terms; tolerate others by normalizing
        if (!normal) merge_by_wire(scratch);
        for (const auto& x : scratch) rows[k]->push(x);
        rows[k]->end_row();
        scratch.clear();
        normal = true;
      });
  return m;
}

/* The labels of wires [first, first + bytes / 8). */
void check_labels(std::uint64_t first, std::span<const std::uint8_t> bytes, const r1cs_header& h) {
  const std::uint8_t* p = bytes.data();
  for (std::uint64_t w = first; w < first + bytes.size() / 8; ++w, p += 8) {
    const std::uint64_t label = le64(p);
    if (label >= h.n_labels)
      throw format_error(ctx(wire_map_section) + ": wire " + std::to_string(w) + " maps to label " +
                         std::to_string(label) + ", not below nLabels = " + std::to_string(h.n_labels));
    if (w == 0 && label != 0)
      throw format_error(ctx(wire_map_section) + ": wire 0 maps to label " + std::to_string(label) + " (must be 0)");
  }
}

void check_wire_map(const byte_source& src, const r1cs_shape& s) {
  for_each_chunk(src, s.wire_map_offset, s.header.n_wires, 8,
                 [&](std::uint64_t first, std::span<const std::uint8_t> b) { check_labels(first, b, s.header); });
}

/* a * b saturating at 2^64 - 1 */
std::uint64_t saturating_mul(std::uint64_t a, std::uint64_t b) {
  std::uint64_t r;
  return __builtin_mul_overflow(a, b, &r) ? ~std::uint64_t{0} : r;
}

}  // namespace

r1cs_shape read_r1cs_shape(const byte_source& src) {
  const binfile f = parse_binfile(src, "r1cs", 1, section_name);
  for (std::uint32_t t : {4u, 5u})
    if (f.unique(t, "r1cs", section_name(t)))
      throw format_error(ctx(t) + ": custom gates are PLONK-only and cannot be proven with Groth16");
  const auto hs = f.unique(header_section, "r1cs", section_name(header_section));
  if (!hs) throw format_error(ctx(header_section) + ": missing");
  const auto cs = f.unique(constraints_section, "r1cs", section_name(constraints_section));
  if (!cs) throw format_error(ctx(constraints_section) + ": missing");
  r1cs_shape s;
  std::vector<std::uint8_t> scratch;
  s.header = read_header(src.view(hs->offset, static_cast<std::size_t>(std::min(hs->size, header_bytes)), scratch),
                         hs->size, s.curve);
  const r1cs_header& h = s.header;
  // required: its 8 bytes per wire are what bound nWires by the file's size
  const auto ws = f.unique(wire_map_section, "r1cs", section_name(wire_map_section));
  if (!ws) throw format_error(ctx(wire_map_section) + ": missing");
  if (ws->size != std::uint64_t(h.n_wires) * 8)
    throw format_error(ctx(wire_map_section) + ": is " + std::to_string(ws->size) +
                       " bytes, expected 8 x nWires = " + std::to_string(std::uint64_t(h.n_wires) * 8));
  // each constraint takes at least 12 bytes (three term counts)
  if (std::uint64_t(h.n_constraints) * 12 > cs->size)
    throw format_error(ctx(constraints_section) + ": header declares " + std::to_string(h.n_constraints) +
                       " constraints, more than " + std::to_string(cs->size) + " bytes can hold");
  s.constraints_offset = cs->offset;
  s.constraints_bytes = cs->size;
  s.wire_map_offset = ws->offset;
  return s;
}

void check_r1cs_shape(const r1cs_shape& s, const r1cs_bounds& b) {
  const r1cs_header& h = s.header;
  if (h.n_wires != b.n_wires)
    throw format_error("r1cs: the header declares " + std::to_string(h.n_wires) + " wires, the key's witness has " +
                       std::to_string(b.n_wires) + " values (the constraint system of another circuit?)");
  if (std::uint64_t(h.n_pub_out) + h.n_pub_in != b.n_public)
    throw format_error("r1cs: the header declares " + std::to_string(std::uint64_t(h.n_pub_out) + h.n_pub_in) +
                       " public signals, the key " + std::to_string(b.n_public));
  if (h.n_constraints > b.max_constraints)
    throw format_error("r1cs: the header declares " + std::to_string(h.n_constraints) + " constraints, more than the " +
                       std::to_string(b.max_constraints) + " the key's domain holds");
  // each of the 3 linear combinations of a constraint names each wire at most once
  const std::uint64_t most = saturating_mul(h.n_constraints, 12) +
                             std::min(~std::uint64_t{0} - saturating_mul(h.n_constraints, 12),
                                      saturating_mul(saturating_mul(3ull * h.n_constraints, h.n_wires), term_bytes));
  if (s.constraints_bytes > most)
    throw format_error(ctx(constraints_section) + ": is " + std::to_string(s.constraints_bytes) + " bytes, more than " +
                       std::to_string(h.n_constraints) + " constraints over " + std::to_string(h.n_wires) +
                       " wires can take (" + std::to_string(most) + ")");
}

template <class C>
std::uint64_t evaluate_r1cs(const byte_source& src, const r1cs_shape& s, std::span<const ff::fr<C>> z,
                            std::span<ff::fr<C>> a, std::span<ff::fr<C>> b, std::span<ff::fr<C>> c) {
  using fr = ff::fr<C>;
  check_curve(s, C::id);
  const r1cs_header& h = s.header;
  if (z.size() != h.n_wires)
    throw error("assignment has " + std::to_string(z.size()) + " values, the constraint system " +
                std::to_string(h.n_wires) + " wires");
  const std::uint64_t n = h.n_constraints;
  if (a.size() < n || b.size() < n || c.size() < n)
    throw capacity_error("evaluate: " + std::to_string(n) + " constraints do not fit a/b/c buffers of " +
                         std::to_string(std::min({a.size(), b.size(), c.size()})) + " entries");
  check_wire_map(src, s);
  const std::span<fr> out[3] = {a, b, c};
  fr acc;
  parse_constraints<C>(
      src, s, [&](int, std::uint32_t wire, const fr& coeff) { acc += coeff.is_one() ? z[wire] : coeff * z[wire]; },
      [&](std::uint32_t i, int k) {
        out[k][i] = acc;
        acc = fr();
      });
  return n;
}

template <class C>
basic_r1cs_file<C> read_r1cs(std::span<const std::uint8_t> bytes) {
  const memory_source src(bytes, "r1cs");
  const r1cs_shape s = read_r1cs_shape(src);
  check_curve(s, C::id);
  check_wire_map(src, s);
  return {s.header, read_constraints<C>(bytes, s)};
}

template <class C>
basic_r1cs_file<C> read_r1cs_file(const std::filesystem::path& path) {
  const input_file f(path, "r1cs");
  check_curve(read_r1cs_shape(f), C::id);  // the container's shape first, before reading it all
  return read_r1cs<C>(f.read_all());
}

template <class C>
r1cs_header header_for(const basic_matrices<C>& m) {
  if (m.n_constraints() > 0xffffffffu) throw error("r1cs: more than 2^32 - 1 constraints do not fit the format");
  r1cs_header h;
  h.n_wires = m.n_wires;
  h.n_pub_out = m.n_public;
  h.n_labels = m.n_wires;
  h.n_constraints = static_cast<std::uint32_t>(m.n_constraints());
  return h;
}

template <class C>
std::vector<std::uint8_t> write_r1cs(const basic_r1cs_file<C>& f) {
  const r1cs_header& h = f.header;
  if (h.n_constraints != f.m.n_constraints() || h.n_wires != f.m.n_wires ||
      std::uint64_t(h.n_pub_out) + h.n_pub_in != f.m.n_public || h.n_labels < h.n_wires)
    throw error("r1cs: header does not describe the matrices");
  binfile_writer w("r1cs", 1, 3);
  w.reserve(12 * 3 + header_bytes + 12 * f.m.n_constraints() +
            (f.m.a.n_terms() + f.m.b.n_terms() + f.m.c.n_terms()) * (4 + field_bytes) + 8ull * h.n_wires);
  w.begin_section(header_section);
  w.u32(field_bytes);
  w.raw(fr_modulus_le<C>());
  w.u32(h.n_wires);
  w.u32(h.n_pub_out);
  w.u32(h.n_pub_in);
  w.u32(h.n_prv_in);
  w.u64(h.n_labels);
  w.u32(h.n_constraints);
  w.end_section();
  w.begin_section(constraints_section);
  for (std::uint64_t i = 0; i < f.m.n_constraints(); ++i)
    for (const basic_sparse_rows<C>* rows : {&f.m.a, &f.m.b, &f.m.c}) {
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

#define CUZK_R1CS_FILE(C)                                                                                    \
  template std::uint64_t evaluate_r1cs<C>(const byte_source&, const r1cs_shape&, std::span<const ff::fr<C>>, \
                                          std::span<ff::fr<C>>, std::span<ff::fr<C>>, std::span<ff::fr<C>>); \
  template basic_r1cs_file<C> read_r1cs<C>(std::span<const std::uint8_t>);                                   \
  template basic_r1cs_file<C> read_r1cs_file<C>(const std::filesystem::path&);                               \
  template r1cs_header header_for(const basic_matrices<C>&);                                                 \
  template std::vector<std::uint8_t> write_r1cs(const basic_r1cs_file<C>&);
CUZK_R1CS_FILE(curves::bls12_381)
CUZK_R1CS_FILE(curves::bn254)

}  // namespace cuzk::r1cs
