#include <memory>
#include <tuple>
#include <type_traits>
#include <variant>

#include "backend/backend.hpp"
#include "poly/threads.hpp"

namespace cuzk::server {

namespace {

template <class C>
using engine_ptr = std::unique_ptr<groth16::basic_engine<C>>;

/* groth16::prove on a CPU engine per curve, which reads the slot's a, b, c
   and keeps its NTT scratch across proofs. */
class cpu_backend final : public prover_backend {
 public:
  explicit cpu_backend(int threads) : threads_(threads) {
    std::apply([](auto&... e) { ((e = groth16::make_cpu_engine<typename std::decay_t<decltype(*e)>::curve>()), ...); },
               engines_);
  }
  std::string_view name() const override { return "cpu"; }

 private:
  any_output prove_any(any_input in) override {
    return std::visit([&](auto* p) -> any_output { return run(*p); }, in);
  }

  template <class C>
  basic_prove_output<C> run(const basic_prove_input<C>& in) {
    basic_prove_output<C> out;
    auto& e = *std::get<engine_ptr<C>>(engines_);
    out.proof = poly::with_threads(threads_, [&] { return groth16::prove(e, in, &out.timings); });
    return out;
  }

  int threads_;
  curves::all::tuple<engine_ptr> engines_;
};

}  // namespace

std::unique_ptr<prover_backend> make_cpu_backend(int threads) { return std::make_unique<cpu_backend>(threads); }

}  // namespace cuzk::server
