#include "r1cs/proving_cs.hpp"

#include <algorithm>
#include <string>

#include "r1cs/error.hpp"

namespace cuzk::r1cs {

namespace {

[[noreturn]] void overflow(const char* what, std::size_t capacity) {
  throw capacity_error(std::string("proving: the circuit needs more than ") + std::to_string(capacity) + " " + what);
}

}  // namespace

proving_cs::proving_cs(const proving_buffers& out) : out_(out) {
  if (out_.inputs.empty()) overflow("input entries (the constant one needs one)", 0);
  out_.inputs[0] = fr_t::one();
}

variable proving_cs::alloc_input(const fr_t& value) {
  if (n_.inputs >= out_.inputs.size()) overflow("input entries", out_.inputs.size());
  out_.inputs[n_.inputs] = value;
  return variable::input(static_cast<std::uint32_t>(n_.inputs++));
}

variable proving_cs::alloc_aux(const fr_t& value) {
  if (n_.aux >= out_.aux.size()) overflow("aux entries", out_.aux.size());
  out_.aux[n_.aux] = value;
  return variable::aux(static_cast<std::uint32_t>(n_.aux++));
}

fr_t proving_cs::value(variable v) const {
  if (v.type == variable::kind::input) {
    if (v.index >= n_.inputs) throw error("circuit used input " + std::to_string(v.index) + " before allocating it");
    return out_.inputs[v.index];
  }
  if (v.index >= n_.aux) throw error("circuit used aux " + std::to_string(v.index) + " before allocating it");
  return out_.aux[v.index];
}

void proving_cs::do_enforce(const lc& a, const lc& b, const lc& c, const char*) {
  const std::uint64_t i = n_.constraints;
  if (i >= out_.a.size() || i >= out_.b.size() || i >= out_.c.size())
    overflow("a/b/c entries", std::min({out_.a.size(), out_.b.size(), out_.c.size()}));
  auto val = [this](variable v) { return value(v); };
  const fr_t av = a.evaluate(val), bv = b.evaluate(val), cv = c.evaluate(val);
  out_.a[i] = av;
  out_.b[i] = bv;
  out_.c[i] = cv;
  if (!bad_ && !(av * bv == cv)) bad_ = i;
  ++n_.constraints;
}

}  // namespace cuzk::r1cs
