#include "groth16/native.hpp"

#include <stdexcept>

#include "curves/dispatch.hpp"
#include "groth16/evaluations.hpp"
#include "r1cs/checking_cs.hpp"
#include "r1cs/proving_cs.hpp"
#include "r1cs/recording_cs.hpp"

namespace cuzk::groth16 {

template <class C>
basic_proving_key<C> setup_circuit(const circuits::basic_circuit<C>& c,
                                   const std::type_identity_t<basic_toxic_waste<C>>& t, h_form h,
                                   const progress_fn& progress, std::type_identity_t<basic_fixed_base_engine<C>>* fb) {
  r1cs::basic_recording_cs<C> cs;
  c.synthesize(cs, nullptr);
  auto pk = setup<C>(std::move(cs).finish(), t, h, progress, fb);
  pk.native = true;
  return pk;
}

template <class C>
void synthesize_into(const basic_proving_key<C>& pk, const circuits::basic_circuit<C>& c, const circuits::inputs& in,
                     std::type_identity_t<basic_buffer_view<C>> buf) {
  const r1cs::counts n = c.count();
  if (n.inputs + n.aux != pk.n_vars || n.inputs != pk.n_public + 1 || n.constraints + pk.n_public + 1 > pk.domain_size)
    throw std::invalid_argument("the proving key was made for another circuit (" + c.spec() + " has " +
                                std::to_string(n.inputs + n.aux) + " wires, " + std::to_string(n.inputs - 1) +
                                " public; the key has " + std::to_string(pk.n_vars) + " and " +
                                std::to_string(pk.n_public) + ")");
  if (buf.a.size() != pk.domain_size || buf.b.size() != pk.domain_size || buf.c.size() != pk.domain_size ||
      buf.z.size() != pk.n_vars)
    throw std::invalid_argument("synthesize_into: buffers are not the key's domain and witness sizes");
  std::span<ff::fr<C>> z = buf.z;
  r1cs::basic_proving_cs<C> cs({buf.a.first(n.constraints), buf.b.first(n.constraints), buf.c.first(n.constraints),
                                z.first(n.inputs), z.subspan(n.inputs)});
  c.synthesize(cs, &in);
  if (cs.first_unsatisfied()) {
    r1cs::basic_checking_cs<C> check;  // rerun for the constraint's name
    c.synthesize(check, &in);
    const auto& f = check.first_failure();
    throw circuits::circuit_error(c.spec() + ": the witness does not satisfy constraint " +
                                  std::to_string(f ? f->index : *cs.first_unsatisfied()) +
                                  (f && !f->name.empty() ? " (" + f->name + ")" : std::string()));
  }
  fill_public_rows<C>(n.constraints, pk.n_public, z, buf.a, buf.b, buf.c);
}

#define CUZK_GROTH16_NATIVE(C)                                                                                   \
  template basic_proving_key<C> setup_circuit<C>(const circuits::basic_circuit<C>&, const basic_toxic_waste<C>&, \
                                                 h_form, const progress_fn&, basic_fixed_base_engine<C>*);       \
  template void synthesize_into<C>(const basic_proving_key<C>&, const circuits::basic_circuit<C>&,               \
                                   const circuits::inputs&, basic_buffer_view<C>);
CUZK_CURVES(CUZK_GROTH16_NATIVE)

}  // namespace cuzk::groth16
