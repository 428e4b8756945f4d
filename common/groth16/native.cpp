#include "groth16/native.hpp"

#include <stdexcept>

#include "groth16/evaluations.hpp"
#include "r1cs/checking_cs.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/recording_cs.hpp"

namespace cuzk::groth16 {

proving_key setup_circuit(const circuits::circuit& c, const toxic_waste& t, h_form h, const progress_fn& progress,
                          fixed_base_engine* fb) {
  r1cs::recording_cs cs;
  c.synthesize(cs, nullptr);
  return setup(std::move(cs).finish(), t, h, progress, fb);
}

void synthesize_into(const proving_key& pk, const circuits::circuit& c, const circuits::inputs& in,
                     buffer_view buf) {
  const r1cs::counts n = c.count();
  if (n.inputs + n.aux != pk.n_vars || n.inputs != pk.n_public + 1 ||
      n.constraints + pk.n_public + 1 > pk.domain_size)
    throw std::invalid_argument("the proving key was made for another circuit (" + c.spec() + " has " +
                                std::to_string(n.inputs + n.aux) + " wires, " + std::to_string(n.inputs - 1) +
                                " public; the key has " + std::to_string(pk.n_vars) + " and " +
                                std::to_string(pk.n_public) + ")");
  if (buf.a.size() != pk.domain_size || buf.b.size() != pk.domain_size || buf.c.size() != pk.domain_size ||
      buf.z.size() != pk.n_vars)
    throw std::invalid_argument("synthesize_into: buffers are not the key's domain and witness sizes");
  std::span<fr_t> z = buf.z;
  r1cs::proving_cs cs({buf.a.first(n.constraints), buf.b.first(n.constraints), buf.c.first(n.constraints),
                       z.first(n.inputs), z.subspan(n.inputs)});
  c.synthesize(cs, &in);
  if (cs.first_unsatisfied()) {
    r1cs::checking_cs check;  // rerun for the constraint's name
    c.synthesize(check, &in);
    const auto& f = check.first_failure();
    throw circuits::circuit_error(c.spec() + ": the witness does not satisfy constraint " +
                                  std::to_string(f ? f->index : *cs.first_unsatisfied()) +
                                  (f && !f->name.empty() ? " (" + f->name + ")" : std::string()));
  }
  fill_public_rows(n.constraints, pk.n_public, z, buf.a, buf.b, buf.c);
}

}  // namespace cuzk::groth16
