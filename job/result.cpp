#include "job/result.hpp"

#include <type_traits>

#include "curves/dispatch.hpp"
#include "ec/serialize_snarkjs.hpp"
#include "io/snarkjs_json.hpp"
#include "job/spec.hpp"

namespace cuzk::job {

namespace {

template <class C>
constexpr std::size_t proof_bytes = 2 * ec::snarkjs::point_size<ff::fp<C>> + ec::snarkjs::point_size<ff::fp2<C>>;

template <class C>
basic_result<C> decode(std::span<const std::uint8_t> b) {
  constexpr std::size_t g1 = ec::snarkjs::point_size<ff::fp<C>>, g2 = ec::snarkjs::point_size<ff::fp2<C>>;
  constexpr std::size_t at = 1 + proof_bytes<C>;
  if (b.size() < at + 4) throw job_error("stored result is too short");
  const auto check = ec::point_check::subgroup;
  auto a = ec::snarkjs::decode_lem<ff::fp<C>>(b.subspan(1, g1), check);
  auto bb = ec::snarkjs::decode_lem<ff::fp2<C>>(b.subspan(1 + g1, g2), check);
  auto c = ec::snarkjs::decode_lem<ff::fp<C>>(b.subspan(1 + g1 + g2, g1), check);
  if (!a || !bb || !c) throw job_error("stored proof does not decode");
  basic_result<C> r{{*a, *bb, *c}, {}};
  std::uint32_t n = 0;
  for (int i = 0; i < 4; ++i) n |= static_cast<std::uint32_t>(b[at + i]) << (8 * i);
  if (b.size() != at + 4 + std::size_t{n} * 32) throw job_error("stored result has the wrong length");
  for (std::uint32_t i = 0; i < n; ++i) {
    auto s = ff::fr<C>::from_bytes_le(b.subspan(at + 4 + std::size_t{i} * 32, 32));
    if (!s) throw job_error("stored public signal is not below r");
    r.public_signals.push_back(*s);
  }
  return r;
}

}  // namespace

std::uint64_t result_bytes_for(curves::curve_id c, std::uint64_t n_public) noexcept {
  const std::uint64_t proof =
      c == curves::curve_id::bn254 ? proof_bytes<curves::bn254> : proof_bytes<curves::bls12_381>;
  return 1 + proof + 4 + n_public * 32;
}

template <class C>
std::vector<std::uint8_t> encode_result(const basic_result<C>& r) {
  std::vector<std::uint8_t> out{static_cast<std::uint8_t>(C::id)};
  auto put = [&](const auto& a) { out.insert(out.end(), a.begin(), a.end()); };
  put(ec::snarkjs::encode_lem(r.proof.a));
  put(ec::snarkjs::encode_lem(r.proof.b));
  put(ec::snarkjs::encode_lem(r.proof.c));
  const auto n = static_cast<std::uint32_t>(r.public_signals.size());
  for (int i = 0; i < 4; ++i) out.push_back(static_cast<std::uint8_t>(n >> (8 * i)));
  for (const auto& s : r.public_signals) put(s.to_bytes_le());
  return out;
}

any_result decode_result(std::span<const std::uint8_t> b) {
  if (b.empty() || !curves::valid_curve_id(b[0])) throw job_error("stored result names no curve");
  return curves::visit(curves::curve_id(b[0]), [&](auto curve) -> any_result { return decode<decltype(curve)>(b); });
}

result_json result_to_json(std::span<const std::uint8_t> bytes) {
  return std::visit(
      [](const auto& r) {
        using C = typename std::remove_cvref_t<decltype(r.proof)>::curve;
        return result_json{io::proof_to_json<C>(r.proof).dump(), io::public_to_json<C>(r.public_signals).dump()};
      },
      decode_result(bytes));
}

#define CUZK_INSTANTIATE(C) template std::vector<std::uint8_t> encode_result(const basic_result<C>&);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::job
