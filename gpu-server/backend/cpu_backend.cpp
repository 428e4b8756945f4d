#include <memory>

#include "backend/backend.hpp"
#include "poly/threads.hpp"

namespace cuzk::server {

namespace {

/* groth16::prove on the CPU engine, which reads the slot's a, b, c and
   keeps its NTT scratch across proofs. */
class cpu_backend final : public prover_backend {
 public:
  explicit cpu_backend(int threads) : threads_(threads), engine_(groth16::make_cpu_engine()) {}
  std::string_view name() const override { return "cpu"; }

  prove_output prove(const prove_input& in) override {
    prove_output out;
    out.proof = poly::with_threads(threads_, [&] {
      return groth16::prove(*engine_, in.pk, in.z, in.a, in.b, in.c, in.rs, &out.timings);
    });
    return out;
  }

 private:
  int threads_;
  std::unique_ptr<groth16::engine> engine_;
};

}  // namespace

std::unique_ptr<prover_backend> make_cpu_backend(int threads) { return std::make_unique<cpu_backend>(threads); }

}  // namespace cuzk::server
