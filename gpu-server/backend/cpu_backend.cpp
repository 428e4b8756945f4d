#include <algorithm>
#include <vector>

#include "backend/backend.hpp"
#include "poly/threads.hpp"

namespace cuzk::server {

namespace {

/* groth16::prove transforms a, b, c in place, so they are copied out of the
   slot first (3 × 32 B per row: 6 MiB at 2^16, against seconds of MSMs). */
class cpu_backend final : public prover_backend {
 public:
  explicit cpu_backend(int threads) : threads_(threads) {}
  std::string_view name() const override { return "cpu"; }

  prove_output prove(const prove_input& in) override {
    auto copy = [](std::vector<fr_t>& dst, std::span<const fr_t> src) { dst.assign(src.begin(), src.end()); };
    copy(a_, in.a);
    copy(b_, in.b);
    copy(c_, in.c);
    prove_output out;
    out.proof = poly::with_threads(threads_, [&] {
      return groth16::prove(in.pk, in.z, a_, b_, c_, in.rs, &out.timings);
    });
    return out;
  }

 private:
  int threads_;
  std::vector<fr_t> a_, b_, c_;
};

}  // namespace

std::unique_ptr<prover_backend> make_cpu_backend(int threads) { return std::make_unique<cpu_backend>(threads); }

}  // namespace cuzk::server
