#include <cstdio>
#include <filesystem>
#include <memory>
#include <optional>
#include <stdexcept>

#include "circuits/registry.hpp"
#include "commands.hpp"
#include "curves/dispatch.hpp"
#include "engines/select.hpp"
#include "groth16/native.hpp"
#include "io/zkey.hpp"
#include "io/zkey_setup.hpp"
#include "shm/shm_dir.hpp"
#include "shm/srs_region.hpp"
#include "r1cs/r1cs_file.hpp"

namespace cuzk::cli {

namespace {

/* The key written straight into an SRS region: no file, no copy, the
   matrices and points never held whole (io/zkey_setup.hpp). */
template <class C>
int setup_into_pool(const setup_args& a, const groth16::basic_toxic_waste<C>& t, groth16::h_form h,
                    const groth16::progress_fn& report, groth16::basic_fixed_base_engine<C>& fb) {
  if (a.circuit.empty())
    throw std::invalid_argument("--pool needs a native --circuit (an .r1cs key goes through --zkey)");
  // Only the service (or the operator) may write the service's directory: refuse
  // anyone else before the setup's work rather than at its end.
  std::string dir_why;
  if (auto d = shm::check_shm_dir(true, &dir_why); !d && d.error() != shm::error::not_found)
    throw std::invalid_argument("--pool " + a.pool + ": " + dir_why);
  if (!std::filesystem::exists(shm::shm_path(a.pool + ".lock")))
    throw std::invalid_argument("--pool " + a.pool + ": no such pool (create it first: cuzk-shm create --name " +
                                a.pool + ")");
  auto c = circuits::make_circuit<C>(a.circuit);
  progress("setup for " + c->spec() + " into pool " + a.pool);
  io::basic_zkey_setup<C> s(*c, t, h, report, &fb);
  const auto& l = s.layout();
  progress("key of " + std::to_string(l.size) + " bytes: " + std::to_string(l.n_vars) + " wires, domain " +
           std::to_string(l.domain_size) + ", " + std::to_string(l.n_coefs) + " coefficients");
  std::string why;
  auto region = shm::srs_region::create(
      a.pool, l.size,
      [&](std::span<std::uint8_t> out) {
        s.write(out);
        progress("hashing the key for its id");
      },
      &why);
  if (!region)
    throw std::runtime_error("--pool " + a.pool + ": " +
                             (why.empty() ? std::string(shm::to_string(region.error())) : why));
  char line[160];
  std::snprintf(line, sizeof line, "fixed-base multiplications on %s: %.3f s", fb.name().c_str(), fb.seconds());
  progress(line);
  if (!a.seed.empty())
    std::fprintf(stderr, "cuzk: warning: --seed makes the toxic waste reproducible; for tests only\n");
  progress("done: SRS region " + a.pool + ".srs." + region->key_id());
  std::printf("%s\n", region->key_id().c_str());
  return 0;
}

template <class C>
int setup_on(const setup_args& a) {
  using namespace groth16;
  const auto t = a.seed.empty() ? basic_toxic_waste<C>::random() : basic_toxic_waste<C>::from_seed(a.seed);
  const h_form h = a.h_form == "coefficient" ? h_form::coefficient : h_form::odd_coset;
  auto report = [](std::string_view what, std::uint64_t done, std::uint64_t total) {
    progress("setup: " + std::string(what) + " (" + std::to_string(done) + "/" + std::to_string(total) + ")");
  };
  std::string note;
  auto fb = engines::make_fixed_base<C>(a.backend, &note);
  if (!note.empty()) progress(note);
  progress("fixed-base multiplications on " + fb->name() + ", curve " + std::string(curves::display_name(C::id)));
  basic_proving_key<C> pk;
  if (!a.r1cs.empty()) {
    progress("reading " + a.r1cs);
    auto f = r1cs::read_r1cs_file<C>(a.r1cs);
    progress("setup for " + std::to_string(f.m.n_constraints()) + " constraints, " + std::to_string(f.m.n_wires) +
             " wires");
    pk = setup(f.m, t, h, report, fb.get());
  } else {
    if (!a.pool.empty()) return setup_into_pool<C>(a, t, h, report, *fb);
    auto c = circuits::make_circuit<C>(a.circuit);
    progress("setup for " + c->spec());
    pk = setup_circuit<C>(*c, t, h, report, fb.get());
  }
  char line[160];
  std::snprintf(line, sizeof line, "fixed-base multiplications on %s: %.3f s", fb->name().c_str(), fb->seconds());
  progress(line);
  progress("writing " + a.zkey);
  io::write_zkey_file(a.zkey, pk);
  if (a.seed.empty() == false)
    std::fprintf(stderr, "cuzk: warning: --seed makes the toxic waste reproducible; for tests only\n");
  progress("done: domain 2^" + std::to_string(pk.log_domain()) + ", " + std::to_string(pk.n_public) +
           " public signals");
  return 0;
}

/* The curve: the .r1cs's prime where there is one (a --curve beside it must
   agree), else --curve (native circuits), else BLS12-381. */
curves::curve_id curve_of(const setup_args& a) {
  std::optional<curves::curve_id> asked;
  if (!a.curve.empty()) asked = curve_option(a.curve);
  if (a.r1cs.empty()) return asked.value_or(curves::curve_id::bls12_381);
  const auto file = r1cs::read_r1cs_shape(r1cs::input_file(a.r1cs, "r1cs")).curve;
  if (asked && *asked != file)
    throw std::invalid_argument("--curve " + a.curve + " but " + a.r1cs + " is over " +
                                std::string(curves::display_name(file)) + "'s scalar field (circom --prime " +
                                std::string(curves::snarkjs_name(file)) + ")");
  return file;
}

}  // namespace

int run_setup(const setup_args& a) {
  if (!a.r1cs.empty() && !a.pool.empty())
    throw std::invalid_argument("--pool needs a native --circuit (an .r1cs key goes through --zkey)");
  return curves::visit(curve_of(a), [&](auto curve) { return setup_on<decltype(curve)>(a); });
}

}  // namespace cuzk::cli
