#include "r1cs/checking_cs.hpp"

#include "r1cs/error.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::r1cs {

template <class C>
variable basic_checking_cs<C>::alloc_input(const fr& value) {
  inputs_.push_back(value);
  return variable::input(static_cast<std::uint32_t>(n_.inputs++));
}

template <class C>
variable basic_checking_cs<C>::alloc_aux(const fr& value) {
  aux_.push_back(value);
  return variable::aux(static_cast<std::uint32_t>(n_.aux++));
}

template <class C>
void basic_checking_cs<C>::push_namespace(std::string_view name, std::int64_t index) {
  std::string s(name);
  if (index >= 0) {
    s += '[';
    s += std::to_string(index);
    s += ']';
  }
  path_.push_back(std::move(s));
}

template <class C>
void basic_checking_cs<C>::pop_namespace() {
  if (path_.empty()) throw error("checking: pop_namespace without a namespace");
  path_.pop_back();
}

template <class C>
auto basic_checking_cs<C>::value(variable v) const -> fr {
  const auto& values = v.type == variable::kind::input ? inputs_ : aux_;
  if (v.index >= values.size())
    throw error(std::string("circuit used ") + (v.type == variable::kind::input ? "input " : "aux ") +
                std::to_string(v.index) + " before allocating it");
  return values[v.index];
}

template <class C>
void basic_checking_cs<C>::do_enforce(const lc& a, const lc& b, const lc& c, const char* label) {
  const std::uint64_t i = n_.constraints++;
  auto val = [this](variable v) { return value(v); };
  const fr av = a.evaluate(val), bv = b.evaluate(val), cv = c.evaluate(val);
  if (failure_ || av * bv == cv) return;
  std::string name;
  for (const auto& p : path_) {
    if (!name.empty()) name += '/';
    name += p;
  }
  if (label) {
    if (!name.empty()) name += '/';
    name += label;
  }
  failure_ = failure{i, std::move(name), av, bv, cv};
}

#define CUZK_INSTANTIATE(C) template class basic_checking_cs<C>;
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::r1cs
