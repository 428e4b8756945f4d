#include <memory>

#include "backend/backend.hpp"
#include "poly/threads.hpp"

namespace cuzk::server {

namespace {

/* groth16::prove on a CPU engine per curve, which reads the slot's a, b, c
   and keeps its NTT scratch across proofs. */
class cpu_backend final : public prover_backend {
 public:
  explicit cpu_backend(int threads)
      : threads_(threads), bls_(groth16::make_cpu_engine<curves::bls12_381>()),
        bn_(groth16::make_cpu_engine<curves::bn254>()) {}
  std::string_view name() const override { return "cpu"; }

  basic_prove_output<curves::bls12_381> prove(const basic_prove_input<curves::bls12_381>& in) override {
    return run(*bls_, in);
  }
  basic_prove_output<curves::bn254> prove(const basic_prove_input<curves::bn254>& in) override {
    return run(*bn_, in);
  }

 private:
  template <class C>
  basic_prove_output<C> run(groth16::basic_engine<C>& e, const basic_prove_input<C>& in) {
    basic_prove_output<C> out;
    out.proof = poly::with_threads(threads_, [&] {
      return groth16::prove(e, in.pk, in.z, in.a, in.b, in.c, in.rs, &out.timings, in.stop);
    });
    return out;
  }

  int threads_;
  std::unique_ptr<groth16::basic_engine<curves::bls12_381>> bls_;
  std::unique_ptr<groth16::basic_engine<curves::bn254>> bn_;
};

}  // namespace

std::unique_ptr<prover_backend> make_cpu_backend(int threads) { return std::make_unique<cpu_backend>(threads); }

}  // namespace cuzk::server
