// libFuzzer target for the control protocol decoder (built with clang by
// run_proto_fuzz.sh). Besides "never crash, never trip a sanitizer", it
// checks that whatever decodes is valid and survives re-encoding unchanged,
// so a frame that slips past the decoder once cannot change meaning on the
// next hop.
#include <cstddef>
#include <cstdint>

#include "proto/codec.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto d = cuzk::proto::decode({data, size});
  if (!d) {
    if (d.error().reason.empty()) __builtin_trap();  // every refusal says why
    return 0;
  }
  if (cuzk::proto::check(*d)) __builtin_trap();
  auto again = cuzk::proto::decode(cuzk::proto::encode(*d));
  if (!again || !(*again == *d)) __builtin_trap();
  return 0;
}
