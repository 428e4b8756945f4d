#include "io/zkey.hpp"

#include "curves/primes.hpp"

#include <algorithm>
#include <atomic>
#include <fstream>
#include <stdexcept>
#include <string>

#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>

#include "ec/serialize_snarkjs.hpp"
#include "groth16/coef_record.hpp"
#include "io/zkey_layout.hpp"
#include "r1cs/binfile.hpp"
#include "r1cs/error.hpp"

namespace cuzk::io {

namespace {

using groth16::fr_t;
using groth16::g1_affine_t;
using groth16::g2_affine_t;
using r1cs::byte_reader;
using r1cs::format_error;

constexpr std::uint32_t n8q = 48, n8r = 32;
constexpr std::uint32_t cuzk_info_section = 100;

std::string_view section_name(std::uint32_t type) {
  switch (type) {
    case 1: return "header";
    case 2: return "groth16 header";
    case 3: return "IC";
    case 4: return "coefficients";
    case 5: return "A points";
    case 6: return "B1 points";
    case 7: return "B2 points";
    case 8: return "C points";
    case 9: return "H points";
    case 10: return "contributions";
    case cuzk_info_section: return "cuzk key info";
    default: return "unknown";
  }
}

template <std::size_t N>
std::array<std::uint8_t, N> modulus_le(const std::array<std::uint64_t, N / 8>& m) {
  std::array<std::uint8_t, N> b{};
  for (std::size_t i = 0; i < N; ++i) b[i] = (std::uint8_t)(m[i / 8] >> (8 * (i % 8)));
  return b;
}

std::string ctx(std::uint32_t type) { return r1cs::section_context("zkey", type, section_name(type)); }

r1cs::binfile_section section(const r1cs::binfile& f, std::uint32_t type) {
  auto s = f.unique(type, "zkey", section_name(type));
  if (!s) throw format_error(ctx(type) + ": missing");
  return *s;
}

/* A section of fixed layout: at most `expected` bytes are read, whatever it declares. */
byte_reader fixed(const r1cs::byte_source& src, const r1cs::binfile_section& s, std::uint64_t expected,
                  std::vector<std::uint8_t>& scratch) {
  return byte_reader(src.view(s.offset, static_cast<std::size_t>(std::min(s.size, expected)), scratch), ctx(s.type));
}

void expect_end(const byte_reader& r, const r1cs::binfile_section& s, std::string_view after) {
  if (r.position() != s.size) r.fail("unexpected bytes after " + std::string(after));
}

template <class Point, class Decode>
Point decode_one(byte_reader& r, std::size_t size, Decode decode, ec::point_check check, const std::string& what) {
  auto res = decode(r.take(size, what), check);
  if (!res) r.fail(what + ": " + std::string(ec::to_string(res.error())));
  return *res;
}
g1_affine_t g1(byte_reader& r, const std::string& what, ec::point_check check = ec::point_check::subgroup) {
  return decode_one<g1_affine_t>(r, ec::snarkjs::g1_size, ec::snarkjs::decode_g1_lem, check, what);
}
g2_affine_t g2(byte_reader& r, const std::string& what, ec::point_check check = ec::point_check::subgroup) {
  return decode_one<g2_affine_t>(r, ec::snarkjs::g2_size, ec::snarkjs::decode_g2_lem, check, what);
}

/* A whole section of `count` points, its size checked first, then decoded a
   chunk at a time, each chunk in parallel (checked on the curve). */
template <class Point, std::size_t Size, class Decode>
std::vector<Point> points(const r1cs::byte_source& src, const r1cs::binfile& f, std::uint32_t type,
                          std::uint64_t count, Decode decode) {
  const auto s = section(f, type);
  if (s.size != count * Size)
    throw format_error(ctx(type) + ": " + std::to_string(s.size) + " bytes, expected " + std::to_string(count) +
                       " points of " + std::to_string(Size) + " bytes");
  if (!r1cs::fits_in_memory(count * sizeof(Point)))
    throw format_error(ctx(type) + ": " + std::to_string(count) + " points are too many to hold in memory");
  std::vector<Point> out(count);
  r1cs::for_each_chunk(src, s.offset, count, Size, [&](std::uint64_t first, std::span<const std::uint8_t> bytes) {
    const std::uint64_t n = bytes.size() / Size;
    std::atomic<std::uint64_t> bad{UINT64_MAX};
    std::atomic<int> why{0};
    tbb::parallel_for(std::uint64_t{0}, n, [&](std::uint64_t i) {
      auto res = decode(bytes.subspan(i * Size, Size), ec::point_check::on_curve);
      if (res) {
        out[first + i] = *res;
      } else {
        std::uint64_t cur = bad.load();
        while (i < cur && !bad.compare_exchange_weak(cur, i)) {}
        if (i <= bad.load()) why = (int)res.error();
      }
    });
    if (bad != UINT64_MAX)
      throw format_error(ctx(type) + ": point " + std::to_string(first + bad.load()) + ": " +
                         std::string(ec::to_string((ec::decode_error)why.load())));
  });
  return out;
}

}  // namespace

namespace {

groth16::proving_key read_zkey(const r1cs::byte_source& src, bool decode_points) {
  auto f = r1cs::parse_binfile(src, "zkey", 1, section_name);
  std::vector<std::uint8_t> scratch;
  groth16::proving_key pk;
  {
    const auto s = section(f, 1);
    byte_reader r = fixed(src, s, 4, scratch);
    std::uint32_t protocol = r.u32("protocol");
    if (protocol != 1) r.fail("protocol " + std::to_string(protocol) + " is not Groth16 (1)");
    expect_end(r, s, "the protocol");
  }
  {
    constexpr std::uint64_t size = 4 + n8q + 4 + n8r + 3 * 4 + 3 * ec::snarkjs::g1_size + 3 * ec::snarkjs::g2_size;
    const auto s = section(f, 2);
    byte_reader r = fixed(src, s, size, scratch);
    const std::uint32_t key_n8q = r.u32("n8q");
    if (key_n8q == 32) {  /* BN254's p fits 32 bytes: say which curve the key is */
      auto q32 = r.take(32, "q");
      auto c = curves::curve_of_base_prime(q32);
      r.fail(c ? "the key is a " + std::string(curves::display_name(*c)) + " (snarkjs: " +
                     std::string(curves::snarkjs_name(*c)) + ") key; BN254 proving is not available yet"
               : std::string("n8q is 32 and q is no curve cuzk knows: not a BLS12-381 key"));
    }
    if (key_n8q != n8q) r.fail("n8q is " + std::to_string(key_n8q) + ", not 48: not a BLS12-381 key");
    auto q = r.take(n8q, "q");
    if (!std::equal(q.begin(), q.end(), modulus_le<n8q>(ff::fp_params::modulus).begin()))
      r.fail("base field is not BLS12-381's p (curve bls12381 expected)");
    if (r.u32("n8r") != n8r) r.fail("n8r is not 32: not a BLS12-381 key");
    auto rr = r.take(n8r, "r");
    if (!std::equal(rr.begin(), rr.end(), r1cs::fr_modulus_le().begin()))
      r.fail("scalar field is not BLS12-381's r");
    pk.n_vars = r.u32("nVars");
    pk.n_public = r.u32("nPublic");
    pk.domain_size = r.u32("domainSize");
    const std::uint64_t n_public_1 = std::uint64_t(pk.n_public) + 1;
    if (pk.n_vars < n_public_1) r.fail("nVars is smaller than nPublic + 1");
    if (pk.domain_size < 2 || (pk.domain_size & (pk.domain_size - 1)) || pk.domain_size > (1u << 28))
      r.fail("domainSize " + std::to_string(pk.domain_size) + " is not a power of two in [2, 2^28]");
    if (pk.domain_size < n_public_1) r.fail("domainSize is smaller than nPublic + 1");
    pk.alpha1 = g1(r, "alpha1");
    pk.beta1 = g1(r, "beta1");
    pk.beta2 = g2(r, "beta2");
    pk.gamma2 = g2(r, "gamma2");
    pk.delta1 = g1(r, "delta1");
    pk.delta2 = g2(r, "delta2");
    expect_end(r, s, "delta2");
  }
  if (auto info = f.unique(cuzk_info_section, "zkey", section_name(cuzk_info_section))) {
    byte_reader r = fixed(src, *info, 4, scratch);
    std::uint32_t h = r.u32("h_form");
    if (h > 1) r.fail("unknown H form " + std::to_string(h));
    expect_end(r, *info, "the H form");
    pk.h = (groth16::h_form)h;
  }
  {
    const auto s = section(f, 3);
    const std::uint64_t n = std::uint64_t(pk.n_public) + 1;
    if (s.size != n * ec::snarkjs::g1_size)
      throw format_error(ctx(3) + ": " + std::to_string(s.size) + " bytes, expected nPublic + 1 = " +
                         std::to_string(n) + " points of " + std::to_string(ec::snarkjs::g1_size) + " bytes");
    if (!r1cs::fits_in_memory(n * sizeof(g1_affine_t)))
      throw format_error(ctx(3) + ": " + std::to_string(n) + " points are too many to hold in memory");
    pk.ic.reserve(n);
    r1cs::for_each_chunk(src, s.offset, n, ec::snarkjs::g1_size, [&](std::uint64_t first, std::span<const std::uint8_t> b) {
      byte_reader r(b, ctx(3));
      for (std::uint64_t i = first; r.remaining(); ++i) pk.ic.push_back(g1(r, "IC[" + std::to_string(i) + "]"));
    });
  }
  {
    constexpr std::uint64_t record = 12 + n8r;
    const auto s = section(f, 4);
    byte_reader r = fixed(src, s, 4, scratch);
    const std::uint32_t n = r.u32("count");
    if (n * record != s.size - 4) r.fail("count " + std::to_string(n) + " does not match the section size");
    if (decode_points) {
      if (!r1cs::fits_in_memory(n * sizeof(groth16::matrix_coef)))
        r.fail(std::to_string(n) + " coefficients are too many to hold in memory");
      pk.coefs.resize(n);
      /* a chunk's records in parallel (two Montgomery conversions each); the first bad one is reported */
      r1cs::for_each_chunk(src, s.offset + 4, n, record, [&](std::uint64_t first, std::span<const std::uint8_t> b) {
        const std::uint64_t m = b.size() / record;
        std::atomic<std::uint64_t> bad{UINT64_MAX};
        tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, m, 4096), [&](const auto& range) {
          for (std::uint64_t j = range.begin(); j < range.end(); ++j) {
            const auto k = groth16::decode_coef_record(b.data() + j * record);
            if (!k || k->matrix > 1 || k->constraint >= pk.domain_size || k->signal >= pk.n_vars) {
              std::uint64_t cur = bad.load();
              while (first + j < cur && !bad.compare_exchange_weak(cur, first + j)) {}
              continue;
            }
            pk.coefs[first + j] = *k;
          }
        });
        if (bad == UINT64_MAX) return;
        /* the sequential reader names the first problem exactly */
        const std::uint64_t i = bad.load();
        byte_reader c(b.subspan((i - first) * record, record), ctx(4));
        const std::string what = "coefficient " + std::to_string(i);
        const auto matrix = c.u32(what), constraint = c.u32(what), signal = c.u32(what);
        (void)c.fr(what + " value");
        if (matrix > 1) c.fail(what + ": matrix " + std::to_string(matrix) + " is not A (0) or B (1)");
        if (constraint >= pk.domain_size) c.fail(what + ": row beyond domainSize");
        if (signal >= pk.n_vars) c.fail(what + ": signal beyond nVars");
        c.fail(what + ": invalid");
      });
    }
  }
  const std::uint64_t n_priv = std::uint64_t(pk.n_vars) - pk.n_public - 1;
  const std::uint64_t n_h = pk.h == groth16::h_form::odd_coset ? pk.domain_size : pk.domain_size - 1;
  constexpr auto G1 = ec::snarkjs::g1_size;
  constexpr auto G2 = ec::snarkjs::g2_size;
  if (!decode_points) {
    const std::pair<std::uint32_t, std::uint64_t> sizes[] = {
        {5, pk.n_vars * G1}, {6, pk.n_vars * G1}, {7, pk.n_vars * G2}, {8, n_priv * G1}, {9, n_h * G1}};
    for (const auto& [type, bytes] : sizes)
      if (const auto s = section(f, type); s.size != bytes)
        throw format_error(ctx(type) + ": " + std::to_string(s.size) + " bytes, expected " + std::to_string(bytes));
    return pk;
  }
  pk.a = points<g1_affine_t, G1>(src, f, 5, pk.n_vars, ec::snarkjs::decode_g1_lem);
  pk.b1 = points<g1_affine_t, G1>(src, f, 6, pk.n_vars, ec::snarkjs::decode_g1_lem);
  pk.b2 = points<g2_affine_t, G2>(src, f, 7, pk.n_vars, ec::snarkjs::decode_g2_lem);
  pk.c = points<g1_affine_t, G1>(src, f, 8, n_priv, ec::snarkjs::decode_g1_lem);
  pk.h_query = points<g1_affine_t, G1>(src, f, 9, n_h, ec::snarkjs::decode_g1_lem);
  return pk;
}

}  // namespace

groth16::proving_key read_zkey(const r1cs::byte_source& src) { return read_zkey(src, true); }

groth16::proving_key read_zkey(std::span<const std::uint8_t> bytes) {
  return read_zkey(r1cs::memory_source(bytes, "zkey"));
}

groth16::proving_key read_zkey_mapped(std::span<const std::uint8_t> bytes, std::shared_ptr<const void> owner,
                                      bool decode_points) {
  const r1cs::memory_source src(bytes, "zkey");
  groth16::proving_key pk = read_zkey(src, decode_points);
  const auto f = r1cs::parse_binfile(src, "zkey", 1, section_name);
  auto view = [&](std::uint32_t type) {
    const auto s = section(f, type);  // sizes were checked against the key's counts by read_zkey
    return bytes.subspan(s.offset, s.size);
  };
  pk.mapped = {std::move(owner), view(5), view(6), view(7), view(8), view(9), {}};
  if (!decode_points) pk.mapped.coefs = view(4).subspan(4);
  return pk;
}

groth16::proving_key read_zkey_file(const std::filesystem::path& path) {
  /* read a chunk at a time, not mapped: keys run to gigabytes, and a mapping
     would SIGBUS if the file were truncated under it (r1cs/input_file.hpp) */
  return read_zkey(r1cs::input_file(path, "zkey"));
}

std::vector<std::uint8_t> write_zkey(const groth16::proving_key& pk) {
  const auto l = zkey_layout::of(pk.n_vars, pk.n_public, pk.domain_size, pk.coefs.size(), pk.h);
  if (pk.ic.size() != std::uint64_t(pk.n_public) + 1 || pk.a.size() != pk.n_vars || pk.b1.size() != pk.n_vars ||
      pk.b2.size() != pk.n_vars || pk.c.size() != l.n_private() || pk.h_query.size() != l.n_h())
    throw std::invalid_argument("write_zkey: the key's point counts do not match its sizes");
  std::vector<std::uint8_t> out(l.size);
  write_frame(out, l, pk);
  tbb::parallel_for(std::size_t{0}, pk.coefs.size(), [&](std::size_t i) { put_coef(out, l, i, pk.coefs[i]); });
  put_g1s(out, l.ic, 0, pk.ic);
  put_g1s(out, l.a, 0, pk.a);
  put_g1s(out, l.b1, 0, pk.b1);
  put_g2s(out, l.b2, 0, pk.b2);
  put_g1s(out, l.c, 0, pk.c);
  put_g1s(out, l.h_query, 0, pk.h_query);
  return out;
}

void write_zkey_file(const std::filesystem::path& path, const groth16::proving_key& pk) {
  auto bytes = write_zkey(pk);
  std::filesystem::path tmp = path;
  tmp += ".tmp";
  {
    std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
    out.write(reinterpret_cast<const char*>(bytes.data()), (std::streamsize)bytes.size());
    if (!out) throw format_error("zkey: cannot write " + tmp.string());
  }
  std::filesystem::rename(tmp, path);
}

}  // namespace cuzk::io
