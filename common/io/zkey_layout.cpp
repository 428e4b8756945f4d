#include "io/zkey_layout.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

#include "ec/serialize_snarkjs.hpp"
#include "r1cs/binfile.hpp"

namespace cuzk::io {

namespace {

constexpr std::uint32_t n8r = 32;
constexpr std::uint32_t cuzk_info_section = 100;
constexpr std::uint32_t cuzk_native_section = 101;
constexpr std::uint64_t section_header = 4 + 8;  // u32 type, u64 size
constexpr std::uint64_t contributions = 64 + 4;

std::uint64_t groth_header(const zkey_layout& l) { return 4 + l.n8q + 4 + n8r + 3 * 4 + 3 * l.g1() + 3 * l.g2(); }

class cursor {
 public:
  cursor(std::span<std::uint8_t> out, std::uint64_t at) : out_(out), at_(at) {}
  void u32(std::uint32_t v) {
    for (int i = 0; i < 4; ++i) out_[at_++] = static_cast<std::uint8_t>(v >> (8 * i));
  }
  void u64(std::uint64_t v) {
    for (int i = 0; i < 8; ++i) out_[at_++] = static_cast<std::uint8_t>(v >> (8 * i));
  }
  void raw(std::span<const std::uint8_t> b) {
    std::memcpy(out_.data() + at_, b.data(), b.size());
    at_ += b.size();
  }
  void section(std::uint32_t type, std::uint64_t size) {
    u32(type);
    u64(size);
  }

 private:
  std::span<std::uint8_t> out_;
  std::uint64_t at_;
};

template <class C>
std::vector<std::uint8_t> fp_modulus_le() {
  const auto& m = C::fp_params::modulus;
  std::vector<std::uint8_t> b(8 * m.size());
  for (std::size_t i = 0; i < b.size(); ++i) b[i] = (std::uint8_t)(m[i / 8] >> (8 * (i % 8)));
  return b;
}

}  // namespace

zkey_layout zkey_layout::of(curves::curve_id curve, std::uint32_t n_vars, std::uint32_t n_public,
                            std::uint32_t domain_size, std::uint64_t n_coefs, groth16::h_form h, bool native) {
  if (n_vars < std::uint64_t(n_public) + 1) throw std::invalid_argument("zkey: nVars is smaller than nPublic + 1");
  if (domain_size < 2 || (domain_size & (domain_size - 1)))
    throw std::invalid_argument("zkey: domainSize " + std::to_string(domain_size) + " is not a power of two");
  if (n_coefs > 0xffffffffu)
    throw std::invalid_argument("zkey: " + std::to_string(n_coefs) + " coefficients do not fit a u32 count");
  zkey_layout l;
  l.curve = curve;
  l.n8q = curve == curves::curve_id::bn254 ? 32 : 48;
  l.n_vars = n_vars;
  l.n_public = n_public;
  l.domain_size = domain_size;
  l.n_coefs = static_cast<std::uint32_t>(n_coefs);
  l.h = h;
  l.native = native;
  std::uint64_t at = 4 + 4 + 4;
  at += section_header + 4;                // 1
  at += section_header + groth_header(l);  // 2
  at += section_header;                    // 4
  l.coefs = at + 4;
  at = l.coefs + n_coefs * zkey_coef_bytes;
  auto next = [&](std::uint64_t bytes) {
    const std::uint64_t data = at + section_header;
    at = data + bytes;
    return data;
  };
  const std::uint64_t G1 = l.g1(), G2 = l.g2();
  l.ic = next((std::uint64_t(n_public) + 1) * G1);
  l.a = next(std::uint64_t(n_vars) * G1);
  l.b1 = next(std::uint64_t(n_vars) * G1);
  l.b2 = next(std::uint64_t(n_vars) * G2);
  l.c = next(l.n_private() * G1);
  l.h_query = next(l.n_h() * G1);
  next(contributions);
  if (h == groth16::h_form::coefficient) next(4);
  if (native) next(4);
  l.size = at;
  return l;
}

template <class C>
void write_frame(std::span<std::uint8_t> out, const zkey_layout& l, const groth16::basic_proving_key<C>& vk) {
  if (out.size() != l.size)
    throw std::invalid_argument("zkey: " + std::to_string(out.size()) + " bytes given for a key of " +
                                std::to_string(l.size));
  if (l.curve != C::id) throw std::invalid_argument("zkey: the layout is of another curve than the key");
  const bool coefficient = l.h == groth16::h_form::coefficient;
  const std::uint64_t G1 = l.g1(), G2 = l.g2();
  auto put_g1 = [](cursor& w, const ec::g1_affine<C>& p) { w.raw(ec::snarkjs::encode_lem(p)); };
  auto put_g2 = [](cursor& w, const ec::g2_affine<C>& p) { w.raw(ec::snarkjs::encode_lem(p)); };
  cursor w(out, 0);
  w.raw(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>("zkey"), 4));
  w.u32(1);
  w.u32(10 + coefficient + l.native);
  w.section(1, 4);
  w.u32(1);
  w.section(2, groth_header(l));
  w.u32(l.n8q);
  w.raw(fp_modulus_le<C>());
  w.u32(n8r);
  w.raw(r1cs::fr_modulus_le<C>());
  w.u32(l.n_vars);
  w.u32(l.n_public);
  w.u32(l.domain_size);
  put_g1(w, vk.alpha1);
  put_g1(w, vk.beta1);
  put_g2(w, vk.beta2);
  put_g2(w, vk.gamma2);
  put_g1(w, vk.delta1);
  put_g2(w, vk.delta2);
  w.section(4, 4 + std::uint64_t(l.n_coefs) * zkey_coef_bytes);
  w.u32(l.n_coefs);
  const std::pair<std::uint32_t, std::uint64_t> points[] = {
      {3, (std::uint64_t(l.n_public) + 1) * G1}, {5, std::uint64_t(l.n_vars) * G1}, {6, std::uint64_t(l.n_vars) * G1},
      {7, std::uint64_t(l.n_vars) * G2},         {8, l.n_private() * G1},           {9, l.n_h() * G1}};
  const std::uint64_t data[] = {l.ic, l.a, l.b1, l.b2, l.c, l.h_query};
  for (std::size_t i = 0; i < 6; ++i) cursor(out, data[i] - section_header).section(points[i].first, points[i].second);
  /* contributions: a zero circuit hash and no contributions (a fresh key) */
  cursor t(out, l.h_query + l.n_h() * G1);
  t.section(10, contributions);
  t.raw(std::array<std::uint8_t, 64>{});
  t.u32(0);
  if (coefficient) {
    t.section(cuzk_info_section, 4);
    t.u32(static_cast<std::uint32_t>(l.h));
  }
  if (l.native) {  // {u32 1}; snarkjs ignores it as it ignores section 100
    t.section(cuzk_native_section, 4);
    t.u32(1);
  }
}

void put_coef(std::span<std::uint8_t> out, const zkey_layout& l, std::uint64_t i, std::uint32_t matrix,
              std::uint32_t row, std::uint32_t signal, const coef_value_bytes& v) {
  std::uint8_t* p = out.data() + l.coefs + i * zkey_coef_bytes;
  const std::uint32_t head[3] = {matrix, row, signal};
  for (int j = 0; j < 3; ++j)
    for (int b = 0; b < 4; ++b) p[4 * j + b] = static_cast<std::uint8_t>(head[j] >> (8 * b));
  std::memcpy(p + 12, v.data(), v.size());
}

template void write_frame(std::span<std::uint8_t>, const zkey_layout&,
                          const groth16::basic_proving_key<curves::bls12_381>&);
template void write_frame(std::span<std::uint8_t>, const zkey_layout&,
                          const groth16::basic_proving_key<curves::bn254>&);

}  // namespace cuzk::io
