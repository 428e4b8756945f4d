#include "r1cs/proving_cs.hpp"

#include <algorithm>
#include <string>

#include "r1cs/error.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::r1cs {

namespace {

[[noreturn]] void overflow(const char* what, std::size_t capacity) {
  throw capacity_error(std::string("proving: the circuit needs more than ") + std::to_string(capacity) + " " + what);
}

}  // namespace

template <class C>
basic_proving_cs<C>::basic_proving_cs(const basic_proving_buffers<C>& out) : out_(out) {
  if (out_.inputs.empty()) overflow("input entries (the constant one needs one)", 0);
  out_.inputs[0] = fr::one();
}

template <class C>
variable basic_proving_cs<C>::alloc_input(const fr& value) {
  if (n_.inputs >= out_.inputs.size()) overflow("input entries", out_.inputs.size());
  out_.inputs[n_.inputs] = value;
  return variable::input(static_cast<std::uint32_t>(n_.inputs++));
}

template <class C>
variable basic_proving_cs<C>::alloc_aux(const fr& value) {
  if (n_.aux >= out_.aux.size()) overflow("aux entries", out_.aux.size());
  out_.aux[n_.aux] = value;
  return variable::aux(static_cast<std::uint32_t>(n_.aux++));
}

template <class C>
auto basic_proving_cs<C>::value(variable v) const -> fr {
  if (v.type == variable::kind::input) {
    if (v.index >= n_.inputs) throw error("circuit used input " + std::to_string(v.index) + " before allocating it");
    return out_.inputs[v.index];
  }
  if (v.index >= n_.aux) throw error("circuit used aux " + std::to_string(v.index) + " before allocating it");
  return out_.aux[v.index];
}

template <class C>
void basic_proving_cs<C>::do_enforce(const lc& a, const lc& b, const lc& c, const char*) {
  const std::uint64_t i = n_.constraints;
  if (i >= out_.a.size() || i >= out_.b.size() || i >= out_.c.size())
    overflow("a/b/c entries", std::min({out_.a.size(), out_.b.size(), out_.c.size()}));
  auto val = [this](variable v) { return value(v); };
  const fr av = a.evaluate(val), bv = b.evaluate(val), cv = c.evaluate(val);
  out_.a[i] = av;
  out_.b[i] = bv;
  out_.c[i] = cv;
  if (!bad_ && !(av * bv == cv)) bad_ = i;
  ++n_.constraints;
}

#define CUZK_INSTANTIATE(C) template class basic_proving_cs<C>;
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::r1cs
