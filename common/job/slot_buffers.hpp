// A key's a, b, c (domain_size elements each) and z (n_vars) inside a slot's
// payload: the memory workers synthesize into and the server proves from.
#pragma once

#include "groth16/keys.hpp"
#include "groth16/native.hpp"
#include "shm/slot_table.hpp"

namespace cuzk::job {

/* job_error when the slot is smaller than the key needs. */
groth16::buffer_view slot_buffers(const shm::slot_payload& p, const groth16::proving_key& pk);

}  // namespace cuzk::job
