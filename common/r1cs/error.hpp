// Errors of the r1cs layer: malformed .r1cs/.wtns files, buffers too small for
// a circuit, circuits that misuse the constraint system.
#pragma once

#include <stdexcept>
#include <string>

namespace cuzk::r1cs {

class error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

/* A .r1cs or .wtns file that is not what it claims; the message names the
   file kind and the section ("r1cs: section 2 (constraints): ..."). */
class format_error : public error {
 public:
  using error::error;
};

/* Caller-provided memory too small for the circuit. */
class capacity_error : public error {
 public:
  using error::error;
};

}  // namespace cuzk::r1cs
