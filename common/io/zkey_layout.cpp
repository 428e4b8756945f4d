#include "io/zkey_layout.hpp"

#include <cstring>
#include <stdexcept>
#include <string>

#include <tbb/parallel_for.h>

#include "ec/serialize_snarkjs.hpp"
#include "r1cs/binfile.hpp"

namespace cuzk::io {

namespace {

using groth16::fr_t;
constexpr std::uint64_t G1 = ec::snarkjs::g1_size, G2 = ec::snarkjs::g2_size;
constexpr std::uint32_t n8q = 48, n8r = 32;
constexpr std::uint32_t cuzk_info_section = 100;
constexpr std::uint64_t section_header = 4 + 8;  // u32 type, u64 size
constexpr std::uint64_t groth_header = 4 + n8q + 4 + n8r + 3 * 4 + 3 * G1 + 3 * G2;
constexpr std::uint64_t contributions = 64 + 4;

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

std::array<std::uint8_t, n8q> fp_modulus_le() {
  std::array<std::uint8_t, n8q> b{};
  for (std::size_t i = 0; i < n8q; ++i) b[i] = (std::uint8_t)(ff::fp_params::modulus[i / 8] >> (8 * (i % 8)));
  return b;
}

}  // namespace

zkey_layout zkey_layout::of(std::uint32_t n_vars, std::uint32_t n_public, std::uint32_t domain_size,
                            std::uint64_t n_coefs, groth16::h_form h) {
  if (n_vars < std::uint64_t(n_public) + 1) throw std::invalid_argument("zkey: nVars is smaller than nPublic + 1");
  if (domain_size < 2 || (domain_size & (domain_size - 1)))
    throw std::invalid_argument("zkey: domainSize " + std::to_string(domain_size) + " is not a power of two");
  if (n_coefs > 0xffffffffu) throw std::invalid_argument("zkey: " + std::to_string(n_coefs) + " coefficients do not fit a u32 count");
  zkey_layout l;
  l.n_vars = n_vars;
  l.n_public = n_public;
  l.domain_size = domain_size;
  l.n_coefs = static_cast<std::uint32_t>(n_coefs);
  l.h = h;
  std::uint64_t at = 4 + 4 + 4;
  at += section_header + 4;             // 1
  at += section_header + groth_header;  // 2
  at += section_header;                 // 4
  l.coefs = at + 4;
  at = l.coefs + n_coefs * zkey_coef_bytes;
  auto next = [&](std::uint64_t bytes) {
    const std::uint64_t data = at + section_header;
    at = data + bytes;
    return data;
  };
  l.ic = next((std::uint64_t(n_public) + 1) * G1);
  l.a = next(std::uint64_t(n_vars) * G1);
  l.b1 = next(std::uint64_t(n_vars) * G1);
  l.b2 = next(std::uint64_t(n_vars) * G2);
  l.c = next(l.n_private() * G1);
  l.h_query = next(l.n_h() * G1);
  next(contributions);
  if (h == groth16::h_form::coefficient) next(4);
  l.size = at;
  return l;
}

void write_frame(std::span<std::uint8_t> out, const zkey_layout& l, const groth16::proving_key& vk) {
  if (out.size() != l.size)
    throw std::invalid_argument("zkey: " + std::to_string(out.size()) + " bytes given for a key of " + std::to_string(l.size));
  const bool coefficient = l.h == groth16::h_form::coefficient;
  auto put_g1 = [](cursor& w, const groth16::g1_affine_t& p) { w.raw(ec::snarkjs::encode_g1_lem(p)); };
  auto put_g2 = [](cursor& w, const groth16::g2_affine_t& p) { w.raw(ec::snarkjs::encode_g2_lem(p)); };
  cursor w(out, 0);
  w.raw(std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>("zkey"), 4));
  w.u32(1);
  w.u32(coefficient ? 11 : 10);
  w.section(1, 4);
  w.u32(1);
  w.section(2, groth_header);
  w.u32(n8q);
  w.raw(fp_modulus_le());
  w.u32(n8r);
  w.raw(r1cs::fr_modulus_le());
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
      {7, std::uint64_t(l.n_vars) * G2},         {8, l.n_private() * G1},          {9, l.n_h() * G1}};
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
}

coef_value_bytes coef_bytes(const groth16::fr_t& v) {
  /* the integer v R^2 mod r: v's limbs are v R; read those as a value twice */
  return fr_t::from_canonical_unchecked(fr_t::from_canonical_unchecked(v.l).l).to_bytes_le();
}

void put_coef(std::span<std::uint8_t> out, const zkey_layout& l, std::uint64_t i, std::uint32_t matrix,
              std::uint32_t row, std::uint32_t signal, const coef_value_bytes& v) {
  std::uint8_t* p = out.data() + l.coefs + i * zkey_coef_bytes;
  const std::uint32_t head[3] = {matrix, row, signal};
  for (int j = 0; j < 3; ++j)
    for (int b = 0; b < 4; ++b) p[4 * j + b] = static_cast<std::uint8_t>(head[j] >> (8 * b));
  std::memcpy(p + 12, v.data(), v.size());
}

void put_coef(std::span<std::uint8_t> out, const zkey_layout& l, std::uint64_t i, const groth16::matrix_coef& k) {
  put_coef(out, l, i, k.matrix, k.constraint, k.signal, coef_bytes(k.value));
}

void put_g1s(std::span<std::uint8_t> out, std::uint64_t at, std::uint64_t first, std::span<const groth16::g1_affine_t> p) {
  tbb::parallel_for(std::size_t{0}, p.size(), [&](std::size_t i) {
    const auto b = ec::snarkjs::encode_g1_lem(p[i]);
    std::memcpy(out.data() + at + (first + i) * G1, b.data(), b.size());
  });
}

void put_g2s(std::span<std::uint8_t> out, std::uint64_t at, std::uint64_t first, std::span<const groth16::g2_affine_t> p) {
  tbb::parallel_for(std::size_t{0}, p.size(), [&](std::size_t i) {
    const auto b = ec::snarkjs::encode_g2_lem(p[i]);
    std::memcpy(out.data() + at + (first + i) * G2, b.data(), b.size());
  });
}

}  // namespace cuzk::io
