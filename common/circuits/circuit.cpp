#include "circuits/circuit.hpp"

#include "r1cs/checking_cs.hpp"
#include "r1cs/counting_cs.hpp"

namespace cuzk::circuits {

r1cs::counts circuit::count() const {
  r1cs::counting_cs cs;
  synthesize(cs, nullptr);
  return cs.sizes();
}

std::vector<fr_t> generate_witness(const circuit& c, const inputs& in) {
  r1cs::checking_cs cs;
  c.synthesize(cs, &in);
  if (const auto& f = cs.first_failure())
    throw circuit_error(c.spec() + ": constraint " + std::to_string(f->index) + " (" + f->name +
                        ") is not satisfied by these inputs");
  std::vector<fr_t> z(cs.inputs().begin(), cs.inputs().end());
  z.insert(z.end(), cs.aux().begin(), cs.aux().end());
  return z;
}

}  // namespace cuzk::circuits
