// A native circuit over the scalar field of curve C: parameters fixed at
// construction ("chain:size=65536"), inputs read from JSON, and one
// synthesize() that every constraint-system mode runs (counting, setup,
// proving into a slot, checking). Every circuit is written once and
// instantiated for every curve (basic_circuit<C>, ...).
#pragma once

#include <cstdint>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include <nlohmann/json_fwd.hpp>

#include "curves/bn254.hpp"
#include "ff/fr.hpp"
#include "r1cs/constraint_system.hpp"

namespace cuzk::circuits {

using ff::fr_t;

/* Unknown circuit, bad parameter, malformed inputs; the message says which. */
class circuit_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/* Parsed, validated inputs of one circuit; each circuit derives its own. */
class inputs {
 public:
  virtual ~inputs() = default;
};

template <class C>
class basic_circuit {
 public:
  using curve = C;
  using fr = ff::fr<C>;
  using constraint_system = r1cs::basic_constraint_system<C>;

  virtual ~basic_circuit() = default;

  /* "chain", "poseidon-merkle", "sha256" */
  virtual std::string name() const = 0;
  /* Every parameter, canonical: "chain:size=65536". */
  virtual std::string spec() const = 0;

  /* circuit_error names the field that is missing or wrong. */
  virtual std::unique_ptr<inputs> parse_inputs(const nlohmann::json& j) const = 0;
  /* Valid inputs drawn from seed (tests, benchmarks, examples). */
  virtual nlohmann::json random_inputs(std::uint64_t seed) const = 0;
  /* The public signals, outputs first, computed natively (no constraints). */
  virtual std::vector<fr> public_values(const inputs& in) const = 0;

  /* Allocates and constrains everything. in == nullptr where the mode needs
     no values (counting, setup): placeholder values are used. */
  virtual void synthesize(constraint_system& cs, const inputs* in) const = 0;
  /* At most the constraints synthesize() makes, from the parameters alone: the size checked before any
     allocation proportional to it (a hostile sha256:bytes=16777216 is refused without expanding it). */
  virtual std::uint64_t min_constraints() const = 0;

  /* Sizes from a counting run, to size a slot. */
  r1cs::counts count() const;
  /* The same, but the run stops (nullopt) as soon as it exceeds either bound:
     checking a hostile size against a key costs at most the key's size. */
  std::optional<r1cs::counts> count_within(std::uint64_t max_constraints, std::uint64_t max_wires) const;
};

/* The inputs as the circuit's own type; circuit_error if they belong to another. */
template <class T>
const T& inputs_as(const inputs& in, const std::string& who) {
  const T* p = dynamic_cast<const T*>(&in);
  if (!p) throw circuit_error(who + ": these inputs were parsed for another circuit");
  return *p;
}

/* The full assignment z = [1, public..., private...] from a checking run;
   circuit_error names the first unsatisfied constraint if there is one. */
template <class C>
std::vector<ff::fr<C>> generate_witness(const basic_circuit<C>& c, const inputs& in);

}  // namespace cuzk::circuits
