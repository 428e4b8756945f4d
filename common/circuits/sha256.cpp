#include "circuits/sha256.hpp"

#include <bit>

namespace cuzk::circuits {

const std::array<std::uint32_t, 64> sha256_k = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

const std::array<std::uint32_t, 8> sha256_h0 = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                                0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

void sha256_compress(std::array<std::uint32_t, 8>& state, const std::array<std::uint32_t, 16>& block) {
  using std::rotr;
  std::array<std::uint32_t, 64> w;
  for (int t = 0; t < 16; ++t) w[t] = block[t];
  for (int t = 16; t < 64; ++t) {
    const std::uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);  // sigma0
    const std::uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);   // sigma1
    w[t] = s1 + w[t - 7] + s0 + w[t - 16];
  }
  auto [a, b, c, d, e, f, g, h] = state;
  for (int t = 0; t < 64; ++t) {
    const std::uint32_t S1 = rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25);
    const std::uint32_t ch = (e & f) ^ (~e & g);
    const std::uint32_t t1 = h + S1 + ch + sha256_k[t] + w[t];
    const std::uint32_t S0 = rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22);
    const std::uint32_t maj = (a & b) ^ (a & c) ^ (b & c);
    const std::uint32_t t2 = S0 + maj;
    h = g;
    g = f;
    f = e;
    e = d + t1;
    d = c;
    c = b;
    b = a;
    a = t1 + t2;
  }
  const std::array<std::uint32_t, 8> add = {a, b, c, d, e, f, g, h};
  for (int i = 0; i < 8; ++i) state[i] += add[i];
}

std::vector<std::uint8_t> sha256_pad(std::span<const std::uint8_t> message) {
  std::vector<std::uint8_t> p(message.begin(), message.end());
  const std::uint64_t bits = std::uint64_t(message.size()) * 8;
  p.push_back(0x80);
  while (p.size() % 64 != 56) p.push_back(0);
  for (int i = 7; i >= 0; --i) p.push_back(static_cast<std::uint8_t>(bits >> (8 * i)));
  return p;
}

std::array<std::uint8_t, 32> sha256(std::span<const std::uint8_t> message) {
  const auto padded = sha256_pad(message);
  std::array<std::uint32_t, 8> state = sha256_h0;
  for (std::size_t off = 0; off < padded.size(); off += 64) {
    std::array<std::uint32_t, 16> block;
    for (int i = 0; i < 16; ++i)
      block[i] = std::uint32_t(padded[off + 4 * i]) << 24 | std::uint32_t(padded[off + 4 * i + 1]) << 16 |
                 std::uint32_t(padded[off + 4 * i + 2]) << 8 | padded[off + 4 * i + 3];
    sha256_compress(state, block);
  }
  std::array<std::uint8_t, 32> out;
  for (int i = 0; i < 32; ++i) out[i] = static_cast<std::uint8_t>(state[i / 4] >> (24 - 8 * (i % 4)));
  return out;
}

}  // namespace cuzk::circuits
