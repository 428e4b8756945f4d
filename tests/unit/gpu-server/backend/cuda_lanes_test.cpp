// Which lane the CUDA backend gives the next proof (backend/cuda_lanes.hpp):
// the least busy GPU, an idle worker's lane before a busy worker's, round
// robin among equals, none when every lane is busy.
#include <gtest/gtest.h>

#include "backend/cuda_lanes.hpp"

namespace cuzk::server::cuda_lanes {
namespace {

TEST(CudaLanes, AnIdleWorkersLaneBeforeTheSecondLaneOfABusyOne) {
  /* one GPU, two workers of two lanes: worker 0 proves on its lane 0 */
  const std::vector<lane_state> l{{0, 0, true}, {0, 0, false}, {0, 1, false}, {0, 1, false}};
  EXPECT_EQ(pick(l, 0), 2u);
  EXPECT_EQ(pick(l, 1), 2u);
  EXPECT_EQ(pick(l, 3), 3u);  // round robin among the idle worker's lanes
}

TEST(CudaLanes, TheSecondLaneOfTheOnlyWorkerStagesTheNextProof) {
  const std::vector<lane_state> l{{0, 0, true}, {0, 0, false}};
  EXPECT_EQ(pick(l, 0), 1u);
  const std::vector<lane_state> both{{0, 0, true}, {0, 0, true}};
  EXPECT_EQ(pick(both, 0), both.size()) << "a third proof for a worker of two lanes";
}

TEST(CudaLanes, TheGpuWithTheFewestProofsInFlightFirst) {
  /* two GPUs, one worker of two lanes each: GPU 0 proves one, GPU 1 none */
  const std::vector<lane_state> l{{0, 0, true}, {0, 0, false}, {1, 1, false}, {1, 1, false}};
  EXPECT_EQ(pick(l, 0), 2u);
  EXPECT_EQ(pick(l, 1), 2u);
  /* both prove one: either GPU's second lane, round robin */
  const std::vector<lane_state> m{{0, 0, true}, {0, 0, false}, {1, 1, true}, {1, 1, false}};
  EXPECT_EQ(pick(m, 0), 1u);
  EXPECT_EQ(pick(m, 2), 3u);
}

TEST(CudaLanes, OneLaneAWorkerIsTheOldChoice) {
  const std::vector<lane_state> l{{0, 0, false}, {0, 1, true}, {1, 2, false}, {1, 3, false}};
  EXPECT_EQ(pick(l, 0), 2u);  // GPU 1 has none in flight
  EXPECT_EQ(pick(l, 3), 3u);
}

}  // namespace
}  // namespace cuzk::server::cuda_lanes
