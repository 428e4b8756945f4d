// A chunked witness upload's size, read from the .wtns header: the sections
// snarkjs writes (1 then 2), and anything else refused rather than guessed.
#include "gateway/witness_upload.hpp"

#include <gtest/gtest.h>

#include <cstring>

#include "seed.hpp"

namespace cuzk::gateway {
namespace {

template <class T>
void put(std::string& s, T v) {
  s.append(reinterpret_cast<const char*>(&v), sizeof v);
}

/* "wtns" v2, 2 sections: (1: n8, prime, count), (2: n8·count bytes, not written here). */
std::string header(std::uint32_t n8, std::uint32_t count) {
  std::string s = "wtns";
  put<std::uint32_t>(s, 2);
  put<std::uint32_t>(s, 2);
  put<std::uint32_t>(s, 1);
  put<std::uint64_t>(s, 4 + n8 + 4);
  put<std::uint32_t>(s, n8);
  s.append(n8, '\x11');
  put<std::uint32_t>(s, count);
  put<std::uint32_t>(s, 2);
  put<std::uint64_t>(s, std::uint64_t(n8) * count);
  return s;
}

TEST(WitnessUpload, AChunkedWitnessIsAsLongAsItsHeaderSays) {
  auto rng = test::rng(0x77);
  for (int i = 0; i < 20; ++i) {
    const std::uint32_t count = 1 + rng() % 5'000'000;
    const auto h = header(32, count);
    ASSERT_EQ(wtns_declared_size(h), h.size() + std::uint64_t(32) * count);
    EXPECT_EQ(wtns_declared_size(h + "more bytes"), h.size() + std::uint64_t(32) * count);
  }
  const auto h48 = header(48, 10);
  EXPECT_EQ(wtns_declared_size(h48), h48.size() + 480);
}

TEST(WitnessUpload, AHeaderThatDoesNotSayIsRefused) {
  const auto h = header(32, 100);
  EXPECT_FALSE(wtns_declared_size(h.substr(0, h.size() - 1))) << "cut";
  EXPECT_FALSE(wtns_declared_size("zkey" + h.substr(4))) << "magic";
  auto bad = h;
  bad[12] = 2;  // the first section is not the header
  EXPECT_FALSE(wtns_declared_size(bad));
  bad = h;
  bad[h.size() - 12] = 3;  // the second is not the values
  EXPECT_FALSE(wtns_declared_size(bad));
  bad = h;
  bad[h.size() - 8] ^= 1;  // the values' size is not n8 · count
  EXPECT_FALSE(wtns_declared_size(bad));
  EXPECT_FALSE(wtns_declared_size(header(0, 5)));
}

}  // namespace
}  // namespace cuzk::gateway
