#include "job/result.hpp"

#include <cstring>

#include "ec/serialize_zcash.hpp"
#include "job/spec.hpp"

namespace cuzk::job {

namespace {
constexpr std::size_t proof_bytes = ec::zcash::g1_uncompressed_size * 2 + ec::zcash::g2_uncompressed_size;
}

std::uint64_t result_bytes_for(std::uint64_t n_public) noexcept { return proof_bytes + 4 + n_public * 32; }

std::vector<std::uint8_t> encode_result(const result& r) {
  std::vector<std::uint8_t> out;
  auto put = [&](const auto& a) { out.insert(out.end(), a.begin(), a.end()); };
  put(ec::zcash::encode_g1_uncompressed(r.proof.a));
  put(ec::zcash::encode_g2_uncompressed(r.proof.b));
  put(ec::zcash::encode_g1_uncompressed(r.proof.c));
  const auto n = static_cast<std::uint32_t>(r.public_signals.size());
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(n >> (8 * i)));
  for (const auto& s : r.public_signals) put(s.to_bytes_le());
  return out;
}

result decode_result(std::span<const std::uint8_t> b) {
  if (b.size() < proof_bytes + 4) throw job_error("stored result is too short");
  result r;
  auto a = ec::zcash::decode_g1_uncompressed(b.first(ec::zcash::g1_uncompressed_size));
  auto bb = ec::zcash::decode_g2_uncompressed(b.subspan(ec::zcash::g1_uncompressed_size, ec::zcash::g2_uncompressed_size));
  auto c = ec::zcash::decode_g1_uncompressed(b.subspan(ec::zcash::g1_uncompressed_size + ec::zcash::g2_uncompressed_size,
                                                ec::zcash::g1_uncompressed_size));
  if (!a || !bb || !c) throw job_error("stored proof does not decode");
  r.proof.a = *a;
  r.proof.b = *bb;
  r.proof.c = *c;
  std::uint32_t n = 0;
  for (int i = 0; i < 4; ++i) n |= static_cast<std::uint32_t>(b[proof_bytes + i]) << (8 * i);
  if (b.size() != proof_bytes + 4 + std::size_t{n} * 32) throw job_error("stored result has the wrong length");
  for (std::uint32_t i = 0; i < n; ++i) {
    auto s = groth16::fr_t::from_bytes_le(b.subspan(proof_bytes + 4 + std::size_t{i} * 32, 32));
    if (!s) throw job_error("stored public signal is not below r");
    r.public_signals.push_back(*s);
  }
  return r;
}

}  // namespace cuzk::job
