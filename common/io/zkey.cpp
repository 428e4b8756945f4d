#include "io/zkey.hpp"

#include "curves/primes.hpp"

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstring>
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

using r1cs::byte_reader;
using r1cs::format_error;

constexpr std::uint32_t n8r = 32;
constexpr std::uint32_t cuzk_info_section = 100;
constexpr std::uint32_t cuzk_native_section = 101;

std::string_view section_name(std::uint32_t type) {
  switch (type) {
    case 1:
      return "header";
    case 2:
      return "groth16 header";
    case 3:
      return "IC";
    case 4:
      return "coefficients";
    case 5:
      return "A points";
    case 6:
      return "B1 points";
    case 7:
      return "B2 points";
    case 8:
      return "C points";
    case 9:
      return "H points";
    case 10:
      return "contributions";
    case cuzk_info_section:
      return "cuzk key info";
    case cuzk_native_section:
      return "cuzk native circuit";
    default:
      return "unknown";
  }
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
template <class F>
ec::affine_point<F> point(byte_reader& r, const std::string& what, ec::point_check check = ec::point_check::subgroup) {
  return decode_one<ec::affine_point<F>>(r, ec::snarkjs::point_size<F>, ec::snarkjs::decode_lem<F>, check, what);
}

/* A whole section of `count` points, its size checked first, then decoded a
   chunk at a time, each chunk in parallel (checked on the curve). */
template <class F>
std::vector<ec::affine_point<F>> points(const r1cs::byte_source& src, const r1cs::binfile& f, std::uint32_t type,
                                        std::uint64_t count) {
  using Point = ec::affine_point<F>;
  constexpr std::size_t Size = ec::snarkjs::point_size<F>;
  constexpr auto decode = ec::snarkjs::decode_lem<F>;
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
        while (i < cur && !bad.compare_exchange_weak(cur, i)) {
        }
        if (i <= bad.load()) why = (int)res.error();
      }
    });
    if (bad != UINT64_MAX)
      throw format_error(ctx(type) + ": point " + std::to_string(first + bad.load()) + ": " +
                         std::string(ec::to_string((ec::decode_error)why.load())));
  });
  return out;
}

/* section 2's n8q and q, and n8r and r: whose key it is */
curves::curve_id read_curve(byte_reader& r) {
  const std::uint32_t n8q = r.u32("n8q");
  if (n8q != 48 && n8q != 32)
    r.fail("n8q is " + std::to_string(n8q) + ": neither BLS12-381's (48) nor BN254's (32) base field");
  const auto c = curves::curve_of_base_prime(r.take(n8q, "q"));
  if (!c) r.fail("base field q is neither BLS12-381's nor BN254's p");
  if (r.u32("n8r") != n8r) r.fail("n8r is not 32");
  if (curves::curve_of_scalar_prime(r.take(n8r, "r")) != c)
    r.fail("scalar field r is not " + std::string(curves::display_name(*c)) + "'s, as the base field q is");
  return *c;
}

/* Sections 1, 2, 100, 101 and 3: the key's sizes, forms and verifying key; nothing after the IC is read. */
template <class C>
void read_zkey_head(const r1cs::byte_source& src, const r1cs::binfile& f, groth16::basic_proving_key<C>& pk) {
  using fp = ff::fp<C>;
  using fp2 = ff::fp2<C>;
  std::vector<std::uint8_t> scratch;
  constexpr std::uint64_t G1 = ec::snarkjs::point_size<fp>;
  constexpr std::uint64_t G2 = ec::snarkjs::point_size<fp2>;
  {
    const auto s = section(f, 1);
    byte_reader r = fixed(src, s, 4, scratch);
    std::uint32_t protocol = r.u32("protocol");
    if (protocol != 1) r.fail("protocol " + std::to_string(protocol) + " is not Groth16 (1)");
    expect_end(r, s, "the protocol");
  }
  {
    constexpr std::uint64_t size = 4 + fp::n_bytes + 4 + n8r + 3 * 4 + 3 * G1 + 3 * G2;
    const auto s = section(f, 2);
    /* at most the larger curve's header, then exactly C's */
    byte_reader r = fixed(src, s, 4 + 48 + 4 + n8r, scratch);
    if (const auto c = read_curve(r); c != C::id)
      r.fail("the key is " + std::string(curves::display_name(c)) +
             "'s (snarkjs: " + std::string(curves::snarkjs_name(c)) + "), not " +
             std::string(curves::display_name(C::id)) + "'s (" + std::string(curves::snarkjs_name(C::id)) + ")");
    const std::size_t at = r.position();
    r = fixed(src, s, size, scratch);
    r.take(at, "fields");
    pk.n_vars = r.u32("nVars");
    pk.n_public = r.u32("nPublic");
    pk.domain_size = r.u32("domainSize");
    const std::uint64_t n_public_1 = std::uint64_t(pk.n_public) + 1;
    if (pk.n_vars < n_public_1) r.fail("nVars is smaller than nPublic + 1");
    const std::uint32_t n = pk.domain_size;
    if (n < 2 || (n & (n - 1)) || n > (1u << 28))
      r.fail("domainSize " + std::to_string(n) + " is not a power of two in [2, 2^28]");
    if (n < n_public_1) r.fail("domainSize is smaller than nPublic + 1");
    pk.alpha1 = point<fp>(r, "alpha1");
    pk.beta1 = point<fp>(r, "beta1");
    pk.beta2 = point<fp2>(r, "beta2");
    pk.gamma2 = point<fp2>(r, "gamma2");
    pk.delta1 = point<fp>(r, "delta1");
    pk.delta2 = point<fp2>(r, "delta2");
    expect_end(r, s, "delta2");
  }
  if (auto info = f.unique(cuzk_info_section, "zkey", section_name(cuzk_info_section))) {
    byte_reader r = fixed(src, *info, 4, scratch);
    std::uint32_t h = r.u32("h_form");
    if (h > 1) r.fail("unknown H form " + std::to_string(h));
    expect_end(r, *info, "the H form");
    pk.h = (groth16::h_form)h;
  }
  if (auto native = f.unique(cuzk_native_section, "zkey", section_name(cuzk_native_section))) {
    byte_reader r = fixed(src, *native, 4, scratch);
    if (r.u32("native") != 1) r.fail("the native-circuit mark is not 1");
    expect_end(r, *native, "the native-circuit mark");
    pk.native = true;
  }
  {
    const auto s = section(f, 3);
    const std::uint64_t n = std::uint64_t(pk.n_public) + 1;
    if (s.size != n * G1)
      throw format_error(ctx(3) + ": " + std::to_string(s.size) + " bytes, expected nPublic + 1 = " +
                         std::to_string(n) + " points of " + std::to_string(G1) + " bytes");
    if (!r1cs::fits_in_memory(n * sizeof(ec::g1_affine<C>)))
      throw format_error(ctx(3) + ": " + std::to_string(n) + " points are too many to hold in memory");
    pk.ic.reserve(n);
    r1cs::for_each_chunk(src, s.offset, n, G1, [&](std::uint64_t first, std::span<const std::uint8_t> b) {
      byte_reader r(b, ctx(3));
      for (std::uint64_t i = first; r.remaining(); ++i) pk.ic.push_back(point<fp>(r, "IC[" + std::to_string(i) + "]"));
    });
  }
}

template <class C>
groth16::basic_proving_key<C> read_zkey(const r1cs::byte_source& src, bool decode_points, bool mapped = false) {
  using fp = ff::fp<C>;
  using fp2 = ff::fp2<C>;
  auto f = r1cs::parse_binfile(src, "zkey", 1, section_name);
  std::vector<std::uint8_t> scratch;
  groth16::basic_proving_key<C> pk;
  constexpr std::uint64_t G1 = ec::snarkjs::point_size<fp>;
  constexpr std::uint64_t G2 = ec::snarkjs::point_size<fp2>;
  read_zkey_head(src, f, pk);
  {
    constexpr std::uint64_t record = 12 + n8r;
    const auto s = section(f, 4);
    byte_reader r = fixed(src, s, 4, scratch);
    const std::uint32_t n = r.u32("count");
    if (n * record != s.size - 4) r.fail("count " + std::to_string(n) + " does not match the section size");
    // a native key's coefficients in an SRS region were released (zeros): read from its file only
    if (decode_points && !(mapped && pk.native)) {
      if (!r1cs::fits_in_memory(n * sizeof(groth16::basic_matrix_coef<C>)))
        r.fail(std::to_string(n) + " coefficients are too many to hold in memory");
      pk.coefs.resize(n);
      /* a chunk's records in parallel (two Montgomery conversions each); the first bad one is reported */
      r1cs::for_each_chunk(src, s.offset + 4, n, record, [&](std::uint64_t first, std::span<const std::uint8_t> b) {
        const std::uint64_t m = b.size() / record;
        std::atomic<std::uint64_t> bad{UINT64_MAX};
        tbb::parallel_for(tbb::blocked_range<std::uint64_t>(0, m, 4096), [&](const auto& range) {
          for (std::uint64_t j = range.begin(); j < range.end(); ++j) {
            const auto k = groth16::decode_coef_record<C>(b.data() + j * record);
            if (!k || k->matrix > 1 || k->constraint >= pk.domain_size || k->signal >= pk.n_vars) {
              std::uint64_t cur = bad.load();
              while (first + j < cur && !bad.compare_exchange_weak(cur, first + j)) {
              }
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
        (void)c.template fr<C>(what + " value");
        if (matrix > 1) c.fail(what + ": matrix " + std::to_string(matrix) + " is not A (0) or B (1)");
        if (constraint >= pk.domain_size) c.fail(what + ": row beyond domainSize");
        if (signal >= pk.n_vars) c.fail(what + ": signal beyond nVars");
        c.fail(what + ": invalid");
      });
    }
  }
  const std::uint64_t n_priv = std::uint64_t(pk.n_vars) - pk.n_public - 1;
  const std::uint64_t n_h = pk.h == groth16::h_form::odd_coset ? pk.domain_size : pk.domain_size - 1;
  if (!decode_points) {
    const std::pair<std::uint32_t, std::uint64_t> sizes[] = {
        {5, pk.n_vars * G1}, {6, pk.n_vars * G1}, {7, pk.n_vars * G2}, {8, n_priv * G1}, {9, n_h * G1}};
    for (const auto& [type, bytes] : sizes)
      if (const auto s = section(f, type); s.size != bytes)
        throw format_error(ctx(type) + ": " + std::to_string(s.size) + " bytes, expected " + std::to_string(bytes));
    return pk;
  }
  pk.a = points<fp>(src, f, 5, pk.n_vars);
  pk.b1 = points<fp>(src, f, 6, pk.n_vars);
  pk.b2 = points<fp2>(src, f, 7, pk.n_vars);
  pk.c = points<fp>(src, f, 8, n_priv);
  pk.h_query = points<fp>(src, f, 9, n_h);
  return pk;
}

}  // namespace

curves::curve_id zkey_curve(const r1cs::byte_source& src) {
  const auto f = r1cs::parse_binfile(src, "zkey", 1, section_name);
  std::vector<std::uint8_t> scratch;
  byte_reader r = fixed(src, section(f, 2), 4 + 48 + 4 + n8r, scratch);
  return read_curve(r);
}

zkey_shape read_zkey_shape(const r1cs::byte_source& src) {
  const auto f = r1cs::parse_binfile(src, "zkey", 1, section_name);
  std::vector<std::uint8_t> scratch;
  {
    const auto s = section(f, 1);
    byte_reader r = fixed(src, s, 4, scratch);
    if (const std::uint32_t protocol = r.u32("protocol"); protocol != 1)
      r.fail("protocol " + std::to_string(protocol) + " is not Groth16 (1)");
  }
  zkey_shape k;
  k.bytes = src.size();
  const auto s2 = section(f, 2);
  byte_reader r = fixed(src, s2, 4 + 48 + 4 + n8r + 3 * 4, scratch);
  k.curve = read_curve(r);
  k.n_vars = r.u32("nVars");
  k.n_public = r.u32("nPublic");
  k.domain_size = r.u32("domainSize");
  if (k.n_vars < std::uint64_t(k.n_public) + 1) r.fail("nVars is smaller than nPublic + 1");
  const std::uint32_t n = k.domain_size;
  if (n < 2 || (n & (n - 1)) || n > (1u << 28))
    r.fail("domainSize " + std::to_string(n) + " is not a power of two in [2, 2^28]");
  if (auto info = f.unique(cuzk_info_section, "zkey", section_name(cuzk_info_section))) {
    byte_reader ri = fixed(src, *info, 4, scratch);
    const std::uint32_t h = ri.u32("h_form");
    if (h > 1) ri.fail("unknown H form " + std::to_string(h));
    k.h = (groth16::h_form)h;
  }
  if (auto native = f.unique(cuzk_native_section, "zkey", section_name(cuzk_native_section))) {
    byte_reader rn = fixed(src, *native, 4, scratch);
    if (rn.u32("native") != 1) rn.fail("the native-circuit mark is not 1");
    k.native = true;
  }
  {
    const auto s4 = section(f, 4);
    k.coefs_offset = s4.offset + 4;
    byte_reader r4 = fixed(src, s4, 4, scratch);
    k.n_coefs = r4.u32("count");
    if (k.n_coefs * (12 + n8r) != s4.size - 4)
      r4.fail("count " + std::to_string(k.n_coefs) + " does not match the section size");
  }
  const zkey_layout l = zkey_layout::of(k.curve, k.n_vars, k.n_public, k.domain_size, 0, k.h);
  const std::uint64_t g1 = l.g1(), g2 = l.g2();
  const std::pair<std::uint32_t, std::uint64_t> expected[] = {
      {5, k.n_vars * g1}, {6, k.n_vars * g1}, {7, k.n_vars * g2}, {8, l.n_private() * g1}, {9, l.n_h() * g1}};
  for (std::size_t i = 0; i < 5; ++i) {
    const auto [type, size] = expected[i];
    const auto s = section(f, type);
    if (s.size != size)
      throw format_error(ctx(type) + ": " + std::to_string(s.size) + " bytes, expected " + std::to_string(size));
    k.points[i] = {s.offset, s.size};
  }
  return k;
}

zkey_shape read_zkey_shape(std::span<const std::uint8_t> bytes) {
  return read_zkey_shape(r1cs::memory_source(bytes, "zkey"));
}

zkey_shape read_zkey_shape_file(const std::filesystem::path& path) {
  return read_zkey_shape(r1cs::input_file(path, "zkey"));
}

curves::curve_id zkey_curve(std::span<const std::uint8_t> bytes) {
  return zkey_curve(r1cs::memory_source(bytes, "zkey"));
}

curves::curve_id zkey_curve_file(const std::filesystem::path& path) {
  return zkey_curve(r1cs::input_file(path, "zkey"));
}

template <class C>
groth16::basic_proving_key<C> read_zkey(const r1cs::byte_source& src) {
  return read_zkey<C>(src, true);
}

template <class C>
groth16::basic_proving_key<C> read_zkey(std::span<const std::uint8_t> bytes) {
  return read_zkey<C>(r1cs::memory_source(bytes, "zkey"));
}

namespace {

/* pk.mapped: the five point sections, and the coefficients (after their
   count) when `coefs`, as spans of `bytes`, the key src reads, which
   `owner` keeps in memory; the sizes were checked by read_zkey */
template <class C>
void map_sections(groth16::basic_proving_key<C>& pk, const r1cs::byte_source& src, std::span<const std::uint8_t> bytes,
                  std::shared_ptr<const void> owner, bool coefs) {
  const auto f = r1cs::parse_binfile(src, "zkey", 1, section_name);
  auto view = [&](std::uint32_t type) {
    const auto s = section(f, type);
    return bytes.subspan(s.offset, s.size);
  };
  pk.mapped = {std::move(owner), view(5), view(6), view(7), view(8), view(9), {}, nullptr};
  if (coefs) pk.mapped.coefs = view(4).subspan(4);
}

}  // namespace

template <class C>
groth16::basic_proving_key<C> read_zkey_mapped(std::span<const std::uint8_t> bytes, std::shared_ptr<const void> owner,
                                               bool decode_points) {
  const r1cs::memory_source src(bytes, "zkey");
  groth16::basic_proving_key<C> pk = read_zkey<C>(src, decode_points, true);
  // a native key's coefficients in an SRS region were released
  map_sections(pk, src, bytes, std::move(owner), !decode_points && !pk.native);
  return pk;
}

template <class C>
groth16::basic_verifying_key<C> read_zkey_vk(const r1cs::byte_source& src) {
  groth16::basic_proving_key<C> pk;
  read_zkey_head(src, r1cs::parse_binfile(src, "zkey", 1, section_name), pk);
  return pk.vk();
}

template <class C>
groth16::basic_verifying_key<C> read_zkey_vk_file(const std::filesystem::path& path) {
  return read_zkey_vk<C>(r1cs::input_file(path, "zkey"));
}

template <class C>
groth16::basic_proving_key<C> read_zkey_file(const std::filesystem::path& path) {
  /* read a chunk at a time, not mapped: keys run to gigabytes, and a mapping
     would SIGBUS if the file were truncated under it (r1cs/input_file.hpp) */
  return read_zkey<C>(r1cs::input_file(path, "zkey"));
}

namespace {

/* A key's file mapped read-only: its pages are the page cache's, shared and
   already filled, not new memory the kernel must clear (on this 2-core VM,
   clearing 400 MB of fresh memory took longer than reading it), each mapped
   when first touched: the points whose scalars are all zero never are. */
struct mapped_key_file {
  void* at = MAP_FAILED;
  std::size_t size = 0;
  mapped_key_file(const std::filesystem::path& path, std::uint64_t expected) {
    const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
    if (fd < 0) throw format_error("zkey: cannot read " + path.string() + ": " + std::strerror(errno));
    struct stat st {};
    if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || std::uint64_t(st.st_size) != expected) {
      ::close(fd);
      throw format_error("zkey: " + path.string() + " changed while it was read");
    }
    size = std::size_t(expected);
    at = ::mmap(nullptr, size, PROT_READ, MAP_PRIVATE, fd, 0);
    const int err = errno;
    ::close(fd);
    if (at == MAP_FAILED) throw format_error("zkey: cannot map " + path.string() + ": " + std::strerror(err));
  }
  ~mapped_key_file() {
    if (at != MAP_FAILED) ::munmap(at, size);
  }
  mapped_key_file(const mapped_key_file&) = delete;
  mapped_key_file& operator=(const mapped_key_file&) = delete;
};

}  // namespace

template <class C>
groth16::basic_proving_key<C> read_zkey_file_raw(const std::filesystem::path& path) {
  const r1cs::input_file src(path, "zkey");
  groth16::basic_proving_key<C> pk = read_zkey<C>(src, false);  // every header and size checked
  auto file = std::make_shared<const mapped_key_file>(path, src.size());
  const std::span<const std::uint8_t> bytes(static_cast<const std::uint8_t*>(file->at), file->size);
  // a native key's coefficients too: a .wtns is evaluated by them (cuzk prove --wtns)
  map_sections(pk, src, bytes, std::move(file), true);
  pk.mapped.reclaimable = true;  // MAP_PRIVATE, read-only: a page given back is read from the file again
  return pk;
}

template <class C>
std::vector<std::uint8_t> write_zkey(const groth16::basic_proving_key<C>& pk) {
  const auto l = zkey_layout::of(pk, pk.coefs.size());
  if (pk.ic.size() != std::uint64_t(pk.n_public) + 1 || pk.a.size() != pk.n_vars || pk.b1.size() != pk.n_vars ||
      pk.b2.size() != pk.n_vars || pk.c.size() != l.n_private() || pk.h_query.size() != l.n_h())
    throw std::invalid_argument("write_zkey: the key's point counts do not match its sizes");
  std::vector<std::uint8_t> out(l.size);
  write_frame(out, l, pk);
  tbb::parallel_for(std::size_t{0}, pk.coefs.size(), [&](std::size_t i) { put_coef(out, l, i, pk.coefs[i]); });
  put_points(out, l.ic, 0, pk.ic);
  put_points(out, l.a, 0, pk.a);
  put_points(out, l.b1, 0, pk.b1);
  put_points(out, l.b2, 0, pk.b2);
  put_points(out, l.c, 0, pk.c);
  put_points(out, l.h_query, 0, pk.h_query);
  return out;
}

template <class C>
void write_zkey_file(const std::filesystem::path& path, const groth16::basic_proving_key<C>& pk) {
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

#define CUZK_IO_ZKEY(C)                                                                          \
  template groth16::basic_proving_key<C> read_zkey<C>(const r1cs::byte_source&);                 \
  template groth16::basic_proving_key<C> read_zkey<C>(std::span<const std::uint8_t>);            \
  template groth16::basic_proving_key<C> read_zkey_mapped<C>(std::span<const std::uint8_t>,      \
                                                             std::shared_ptr<const void>, bool); \
  template groth16::basic_proving_key<C> read_zkey_file<C>(const std::filesystem::path&);        \
  template groth16::basic_proving_key<C> read_zkey_file_raw<C>(const std::filesystem::path&);    \
  template groth16::basic_verifying_key<C> read_zkey_vk<C>(const r1cs::byte_source&);            \
  template groth16::basic_verifying_key<C> read_zkey_vk_file<C>(const std::filesystem::path&);   \
  template std::vector<std::uint8_t> write_zkey(const groth16::basic_proving_key<C>&);           \
  template void write_zkey_file(const std::filesystem::path&, const groth16::basic_proving_key<C>&);
CUZK_IO_ZKEY(curves::bls12_381)
CUZK_IO_ZKEY(curves::bn254)

}  // namespace cuzk::io
