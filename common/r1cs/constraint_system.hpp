// The interface a native circuit is written against, once, and run in every
// mode: counting (sizes only), proving (a, b, c and the assignment into caller
// memory), setup (records the matrices) and checking (names the first
// unsatisfied constraint). A constraint enforce(A, B, C) means
//   <A, z> * <B, z> = <C, z>.
// Variable order: see variable.hpp.
#pragma once

#include <cstdint>
#include <string_view>

#include "r1cs/linear_combination.hpp"

namespace cuzk::r1cs {

/* How many of each a circuit made; inputs count the constant one. */
struct counts {
  std::uint64_t constraints = 0;
  std::uint64_t inputs = 1;
  std::uint64_t aux = 0;

  friend bool operator==(const counts&, const counts&) = default;
};

/* Over the scalar field of curve C (BLS12-381 where unnamed). */
template <class C>
class basic_constraint_system {
 public:
  using curve = C;
  using fr = ff::fr<C>;
  using lc = basic_linear_combination<C>;

  virtual ~basic_constraint_system() = default;

  /* A public input (or output); value is ignored where values are not needed. */
  virtual variable alloc_input(const fr& value) = 0;
  /* A private value. */
  virtual variable alloc_aux(const fr& value) = 0;

  /* <a,z> * <b,z> = <c,z>. label must outlive the call's mode (a literal). */
  void enforce(const lc& a, const lc& b, const lc& c, const char* label = nullptr) { do_enforce(a, b, c, label); }

  /* Nested names for constraints ("block[0]/round[17]"); only checking mode keeps them. */
  virtual void push_namespace(std::string_view /*name*/, std::int64_t /*index*/ = -1) {}
  virtual void pop_namespace() {}

  /* False in modes that ignore values (counting, setup): circuits may skip
     computing them there. */
  virtual bool needs_values() const { return true; }

  virtual counts sizes() const = 0;

 protected:
  virtual void do_enforce(const lc& a, const lc& b, const lc& c, const char* label) = 0;
};

/* RAII namespace: scope s(cs, "round", i); */
template <class C>
class scope {
 public:
  scope(basic_constraint_system<C>& cs, std::string_view name, std::int64_t index = -1) : cs_(cs) {
    cs_.push_namespace(name, index);
  }
  ~scope() { cs_.pop_namespace(); }
  scope(const scope&) = delete;
  scope& operator=(const scope&) = delete;

 private:
  basic_constraint_system<C>& cs_;
};

}  // namespace cuzk::r1cs
