#include "r1cs/recording_cs.hpp"

#include <algorithm>
#include <string>

#include "r1cs/error.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::r1cs {

namespace {

// Until finish() knows the input count, aux j is stored as wire aux_tag | j.
constexpr std::uint32_t aux_tag = 0x80000000u;

}  // namespace

template <class C>
variable basic_recording_cs<C>::alloc_input(const fr&) {
  if (n_.inputs >= aux_tag) throw error("setup: more than 2^31 inputs");
  return variable::input(static_cast<std::uint32_t>(n_.inputs++));
}

template <class C>
variable basic_recording_cs<C>::alloc_aux(const fr&) {
  if (n_.aux >= aux_tag) throw error("setup: more than 2^31 aux variables");
  return variable::aux(static_cast<std::uint32_t>(n_.aux++));
}

template <class C>
void basic_recording_cs<C>::record(const lc& x, basic_sparse_rows<C>& rows) {
  scratch_.clear();
  for (const auto& t : x.terms()) {
    const bool aux = t.var.type == variable::kind::aux;
    if (t.var.index >= (aux ? n_.aux : n_.inputs))
      throw error(std::string("setup: constraint ") + std::to_string(n_.constraints) + " uses " +
                  (aux ? "aux " : "input ") + std::to_string(t.var.index) + " before allocating it");
    scratch_.push_back({aux ? (aux_tag | t.var.index) : t.var.index, t.coeff});
  }
  merge_by_wire(scratch_);
  for (const auto& t : scratch_) rows.push(t);
  rows.end_row();
}

template <class C>
void basic_recording_cs<C>::do_enforce(const lc& a, const lc& b, const lc& c, const char*) {
  record(a, m_.a);
  record(b, m_.b);
  record(c, m_.c);
  ++n_.constraints;
}

template <class C>
basic_matrices<C> basic_recording_cs<C>::finish() && {
  if (n_.inputs + n_.aux > 0xffffffffu) throw error("setup: more than 2^32 - 1 wires");
  const auto n_inputs = static_cast<std::uint32_t>(n_.inputs);
  for (basic_sparse_rows<C>* rows : {&m_.a, &m_.b, &m_.c})
    for (auto& t : rows->all_terms())
      if (t.wire & aux_tag) t.wire = n_inputs + (t.wire & ~aux_tag);
  m_.n_wires = static_cast<std::uint32_t>(n_.inputs + n_.aux);
  m_.n_public = n_inputs - 1;
  return std::move(m_);
}

#define CUZK_INSTANTIATE(C) template class basic_recording_cs<C>;
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::r1cs
