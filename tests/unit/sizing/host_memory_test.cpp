#include "sizing/host_memory.hpp"

#include <gtest/gtest.h>

namespace cuzk::sizing {
namespace {

TEST(HostMemory, AKeysRegionLeavesOutANativeKeysCoefficientsAndDroppedPoints) {
  EXPECT_EQ(srs_content_bytes(1000, 0, 600, false), 1000u);
  EXPECT_EQ(srs_content_bytes(1000, 100, 600, false), 900u);
  EXPECT_EQ(srs_content_bytes(1000, 100, 600, true), 300u);
  EXPECT_EQ(srs_content_bytes(1000, 0, 600, true), 400u);
  EXPECT_EQ(srs_content_bytes(500, 100, 600, true), 0u) << "never below nothing";
}

TEST(HostMemory, ANodeFitsAHostWhoseMemoryHoldsAllItKeepsThereOrAnUnknownHost) {
  const host_memory_use use{100, 50, 20, 5};
  EXPECT_EQ(use.total(), 175u);
  EXPECT_TRUE(use.fits(175));
  EXPECT_FALSE(use.fits(174));
  EXPECT_TRUE(use.fits(0)) << "MemTotal unknown";
  EXPECT_TRUE((host_memory_use{100, 50}).fits(150)) << "the server counts its pool and SRS regions";
}

}  // namespace
}  // namespace cuzk::sizing
