// A key's a, b, c (domain_size elements each) and z (n_vars) inside a slot's
// payload: the memory workers synthesize into and the server proves from.
#pragma once

#include "groth16/keys.hpp"
#include "groth16/native.hpp"
#include "shm/slot_table.hpp"

namespace cuzk::job {

/* job_error when the slot is smaller than the key needs. Fr elements of
   either curve are 32 bytes: a slot holds a key of either. */
template <class C>
groth16::basic_buffer_view<C> slot_buffers(const shm::slot_payload& p, const groth16::basic_proving_key<C>& pk);

}  // namespace cuzk::job
