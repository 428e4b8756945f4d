// The codec's one mapping, both directions, of the facts that are more than a field copy: a priority (the wire
// numbers it otherwise), a proof's phase timings (each timing to PartitionTimings' field <name>_us) and a GPU's
// status. encode.cpp and decode.cpp use it; the generated classes stay inside the codec.
#pragma once

#include "proto/cuzk.pb.h"
#include "proto/message.hpp"

namespace cuzk::proto {

wire::Priority to_wire(priority p);
/* A value Priority lacks becomes 255, which check() refuses naming the field. */
priority priority_from_wire(int v);

void put(wire::PartitionTimings& w, const partition_timings& t);
partition_timings from_wire(const wire::PartitionTimings& w);

/* Not the server's own fields (busy_seconds, resident_key_bytes): they stay off the wire. */
void put(wire::GpuStatus& w, const gpu_status& g);
gpu_status from_wire(const wire::GpuStatus& w);

}  // namespace cuzk::proto
