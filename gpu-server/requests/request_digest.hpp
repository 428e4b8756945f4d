// What makes two Submits the same request: a resubmitted job id must carry
// the same key, work, partitions and blinding (the priority and a circom
// job's .r1cs, which only names a failing constraint, may change), else it
// is a conflict rather than someone else's proof.
#pragma once

#include <array>
#include <cstdint>

#include "proto/message.hpp"

namespace cuzk::server {

/* XXH3-128 (shm::content_hash) over the request's fields, each length-prefixed. */
std::array<std::uint8_t, 16> request_digest(const proto::submit& s);

}  // namespace cuzk::server
