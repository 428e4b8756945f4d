// The keys a plan is for, read as cheaply as their sizes allow: a .zkey's
// headers (io::read_zkey_shape), a pool's SRS region by key id, or a native
// circuit counted as cuzk setup's first pass counts it.
#pragma once

#include <stdexcept>
#include <string>

#include "client/plan/node_plan.hpp"
#include "curves/curve_id.hpp"

namespace cuzk::plan {

/* A key that cannot be planned for; the message is one sentence naming it. */
class key_error : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

key_input key_from_file(const std::string& path);
key_input key_from_pool(const std::string& pool, const std::string& key_id);
/* the odd-coset key cuzk setup --circuit SPEC would write */
key_input key_from_circuit(const std::string& spec, curves::curve_id curve);

}  // namespace cuzk::plan
