#include "circuits/circuit.hpp"

#include "r1cs/checking_cs.hpp"
#include "r1cs/counting_cs.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::circuits {

template <class C>
r1cs::counts basic_circuit<C>::count() const {
  r1cs::basic_counting_cs<C> cs;
  synthesize(cs, nullptr);
  return cs.sizes();
}

namespace {

struct outgrown {};

/* counting_cs that throws outgrown once past its bounds. */
template <class C>
class bounded_counting_cs final : public r1cs::basic_constraint_system<C> {
 public:
  using typename r1cs::basic_constraint_system<C>::fr;
  using typename r1cs::basic_constraint_system<C>::lc;

  bounded_counting_cs(std::uint64_t max_constraints, std::uint64_t max_wires)
      : max_constraints_(max_constraints), max_wires_(max_wires) {}
  r1cs::variable alloc_input(const fr&) override {
    grow_wire();
    return r1cs::variable::input(static_cast<std::uint32_t>(n_.inputs++));
  }
  r1cs::variable alloc_aux(const fr&) override {
    grow_wire();
    return r1cs::variable::aux(static_cast<std::uint32_t>(n_.aux++));
  }
  bool needs_values() const override { return false; }
  r1cs::counts sizes() const override { return n_; }

 protected:
  void do_enforce(const lc&, const lc&, const lc&, const char*) override {
    if (++n_.constraints > max_constraints_) throw outgrown{};
  }

 private:
  void grow_wire() {
    if (n_.inputs + n_.aux + 1 > max_wires_) throw outgrown{};
  }
  std::uint64_t max_constraints_, max_wires_;
  r1cs::counts n_;
};

}  // namespace

template <class C>
std::optional<r1cs::counts> basic_circuit<C>::count_within(std::uint64_t max_constraints,
                                                           std::uint64_t max_wires) const {
  if (min_constraints() > max_constraints) return std::nullopt;
  bounded_counting_cs<C> cs(max_constraints, max_wires);
  try {
    synthesize(cs, nullptr);
  } catch (const outgrown&) {
    return std::nullopt;
  }
  return cs.sizes();
}

template <class C>
std::vector<ff::fr<C>> generate_witness(const basic_circuit<C>& c, const inputs& in) {
  r1cs::basic_checking_cs<C> cs;
  c.synthesize(cs, &in);
  if (const auto& f = cs.first_failure())
    throw circuit_error(c.spec() + ": constraint " + std::to_string(f->index) + " (" + f->name +
                        ") is not satisfied by these inputs");
  std::vector<ff::fr<C>> z(cs.inputs().begin(), cs.inputs().end());
  z.insert(z.end(), cs.aux().begin(), cs.aux().end());
  return z;
}

#define CUZK_INSTANTIATE(C)        \
  template class basic_circuit<C>; \
  template std::vector<ff::fr<C>> generate_witness(const basic_circuit<C>&, const inputs&);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::circuits
