#include "circuits/sha256_preimage.hpp"

#include <random>

#include <nlohmann/json.hpp>

#include "circuits/json_inputs.hpp"
#include "circuits/sha256.hpp"
#include "circuits/sha256_gadget.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::circuits {

using r1cs::variable;

template <class C>
basic_sha256_preimage<C>::basic_sha256_preimage(std::uint64_t bytes) : bytes_(bytes) {
  if (bytes > max_bytes) throw circuit_error("sha256: bytes must be at most 2^24");
}

template <class C>
std::string basic_sha256_preimage<C>::spec() const {
  std::string s = "sha256:";
  if ((bytes_ + 9) % 64 == 0) {
    s += "blocks=";
    s += std::to_string((bytes_ + 9) / 64);
  } else {
    s += "bytes=";
    s += std::to_string(bytes_);
  }
  return s;
}

namespace {

std::vector<std::uint8_t> seeded_bytes(std::uint64_t n, std::uint64_t seed) {
  std::mt19937_64 g(seed);
  std::vector<std::uint8_t> b(n);
  for (auto& x : b) x = static_cast<std::uint8_t>(g());
  return b;
}

}  // namespace

template <class C>
std::unique_ptr<inputs> basic_sha256_preimage<C>::parse_inputs(const nlohmann::json& j) const {
  auto in = std::make_unique<inputs_t>();
  if (j.is_object() && j.contains("preimage_seed")) {
    if (j.contains("preimage_hex")) throw circuit_error("sha256: give \"preimage_hex\" or \"preimage_seed\", not both");
    in->preimage = seeded_bytes(bytes_, to_u64(j["preimage_seed"], "sha256: \"preimage_seed\""));
    return in;
  }
  in->preimage = hex_to_bytes(input_field(j, "sha256", "preimage_hex"), "sha256: \"preimage_hex\"");
  if (in->preimage.size() != bytes_)
    throw circuit_error("sha256: \"preimage_hex\" is " + std::to_string(in->preimage.size()) + " bytes, " + spec() +
                        " takes " + std::to_string(bytes_));
  return in;
}

template <class C>
nlohmann::json basic_sha256_preimage<C>::random_inputs(std::uint64_t seed) const {
  return {{"preimage_hex", bytes_to_hex(seeded_bytes(bytes_, seed))}};
}

template <class C>
auto basic_sha256_preimage<C>::pack_digest(const std::array<std::uint8_t, 32>& digest) -> std::array<fr, 2> {
  std::array<fr, 2> out;
  for (int half = 0; half < 2; ++half) {
    typename fr::limbs_t v{};
    for (int i = 0; i < 16; ++i) v[(15 - i) / 8] |= std::uint64_t(digest[16 * half + i]) << (8 * ((15 - i) % 8));
    out[half] = fr::from_canonical_unchecked(v);
  }
  return out;
}

template <class C>
auto basic_sha256_preimage<C>::public_values(const inputs& in) const -> std::vector<fr> {
  const auto d = pack_digest(sha256(inputs_as<inputs_t>(in, spec()).preimage));
  return {d[0], d[1]};
}

template <class C>
void basic_sha256_preimage<C>::synthesize(constraint_system& cs, const inputs* in) const {
  using bit = basic_bit<C>;
  using word32 = basic_word32<C>;
  r1cs::scope s(cs, "sha256");
  if (cs.needs_values() && !in) throw circuit_error(spec() + ": this mode needs inputs");
  const std::vector<std::uint8_t> zeros(bytes_);
  const auto& preimage = in ? inputs_as<inputs_t>(*in, spec()).preimage : zeros;

  // the padded message as bits: witness bits for the preimage, constants after
  const std::vector<std::uint8_t> padded = sha256_pad(preimage);
  std::vector<bit> bits(padded.size() * 8);
  {
    r1cs::scope ps(cs, "preimage");
    for (std::size_t i = 0; i < padded.size(); ++i)
      for (int k = 0; k < 8; ++k) {
        const bool v = (padded[i] >> (7 - k)) & 1;
        bits[8 * i + k] = i < bytes_ ? bit::alloc(cs, v) : bit::constant(v);
      }
  }
  std::array<word32, 8> state;
  for (int i = 0; i < 8; ++i) state[i] = word32::constant(sha256_h0[i]);
  for (std::size_t blk = 0; blk < padded.size() / 64; ++blk) {
    r1cs::scope bs(cs, "block", static_cast<std::int64_t>(blk));
    std::array<word32, 16> words;
    for (int j = 0; j < 16; ++j)  // big-endian words: message bit 0 is bit 31 of word 0
      for (int i = 0; i < 32; ++i) words[j].bits[i] = bits[512 * blk + 32 * j + (31 - i)];
    state = sha256_compress(cs, state, words);
  }

  r1cs::scope ds(cs, "digest");
  std::array<std::uint8_t, 32> digest;
  for (int i = 0; i < 32; ++i) digest[i] = static_cast<std::uint8_t>(state[i / 4].value() >> (24 - 8 * (i % 4)));
  const auto packed = pack_digest(digest);
  for (int half = 0; half < 2; ++half) {
    r1cs::basic_lc<C> x;
    fr pow2 = fr::one();
    for (int j = 4 * half + 3; j >= 4 * half; --j)  // hi = sum_j word_j 2^(32 (3 - j)), likewise lo
      for (int i = 0; i < 32; ++i, pow2 = pow2.dbl()) x.add(state[j].bits[i].to_lc(), pow2);
    x.compact();
    const variable out = cs.alloc_input(packed[half]);
    cs.enforce(x, variable::one(), out, half == 0 ? "digest hi" : "digest lo");
  }
}

#define CUZK_INSTANTIATE(C) template class basic_sha256_preimage<C>;
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::circuits
