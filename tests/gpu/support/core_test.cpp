// cuda/error, cuda/device, cuda/memory: the messages without a device, the
// budget and the RAII wrappers with one.
#include <gtest/gtest.h>

#include <numeric>
#include <string>
#include <vector>

#include "gpu_test.hpp"

namespace cuzk::test {
namespace {

TEST(CudaError, NamesTheExpressionFileLineAndError) {
  try {
    CUZK_CUDA_OK(cudaErrorInvalidValue);
    FAIL() << "no throw";
  } catch (const cuda::error& e) {
    const std::string what = e.what();
    EXPECT_EQ(e.code(), cudaErrorInvalidValue);
    EXPECT_FALSE(e.sticky());
    EXPECT_NE(what.find("cudaErrorInvalidValue failed at "), std::string::npos) << what;
    EXPECT_NE(what.find("core_test.cpp:"), std::string::npos) << what;
    EXPECT_NE(what.find("(cudaErrorInvalidValue)"), std::string::npos) << what;
  }
}

TEST(CudaError, StickyErrorsAreTheOnesThatEndTheContext) {
  for (cudaError_t e : {cudaErrorIllegalAddress, cudaErrorLaunchFailure, cudaErrorHardwareStackError,
                        cudaErrorIllegalInstruction, cudaErrorMisalignedAddress, cudaErrorInvalidAddressSpace,
                        cudaErrorInvalidPc, cudaErrorECCUncorrectable, cudaErrorAssert})
    EXPECT_TRUE(cuda::error::is_sticky(e)) << cudaGetErrorName(e);
  for (cudaError_t e : {cudaErrorMemoryAllocation, cudaErrorInvalidValue, cudaErrorNoDevice,
                        cudaErrorInvalidConfiguration, cudaErrorNotReady})
    EXPECT_FALSE(cuda::error::is_sticky(e)) << cudaGetErrorName(e);
}

TEST(CudaError, OutOfMemorySaysWhatNeededHowMuchAndWhatWasFree) {
  const cuda::out_of_memory e("H scratch", std::size_t(1536) << 20, std::size_t(1024) << 20, std::size_t(512) << 20);
  EXPECT_STREQ(e.what(), "H scratch needs 1536.0 MiB of device memory; 1024.0 MiB free (512.0 MiB kept in reserve)");
  EXPECT_EQ(e.needed(), std::size_t(1536) << 20);
  EXPECT_EQ(e.free_bytes(), std::size_t(1024) << 20);
  EXPECT_EQ(e.code(), cudaErrorMemoryAllocation);
}

TEST(CudaDevice, CountNeverThrows) { EXPECT_GE(cuda::device_count(), 0); }

TEST(CudaMemory, AnAllocationBeyondTheBudgetThrowsOutOfMemory) {
  CUZK_REQUIRE_GPU();
  const auto d = cuda::info(0);
  EXPECT_GT(d.total_mem, 0u);
  try {
    cuda::device_buffer<char> b(2 * d.total_mem, "a buffer twice the device");
    FAIL() << "no throw";
  } catch (const cuda::out_of_memory& e) {
    EXPECT_EQ(e.needed(), 2 * d.total_mem);
    EXPECT_NE(std::string(e.what()).find("a buffer twice the device needs"), std::string::npos);
  }
  const cuda::budget all_reserved(d.total_mem);
  EXPECT_THROW(cuda::device_buffer<char>(1, "one byte", all_reserved), cuda::out_of_memory);
  cuda::device_buffer<int> ok(16, "16 ints");  // the device is still usable
  EXPECT_EQ(ok.bytes(), 64u);
}

TEST(CudaMemory, BuffersRoundTripAndMove) {
  CUZK_REQUIRE_GPU();
  std::vector<int> v(1000);
  std::iota(v.begin(), v.end(), -500);
  cuda::stream s;
  cuda::event a, b;
  a.record(s);
  cuda::device_buffer<int> d(v.size(), "ints");
  d.upload(v, s);
  cuda::device_buffer<int> moved = std::move(d);
  EXPECT_EQ(d.data(), nullptr);
  std::vector<int> back(v.size());
  moved.download(back, s);
  b.record(s);
  s.sync();
  EXPECT_EQ(back, v);
  EXPECT_GE(cuda::event::ms(a, b), 0.f);
  EXPECT_THROW(moved.upload(std::vector<int>(1001)), std::length_error);
}

}  // namespace
}  // namespace cuzk::test
