// The codec's one mapping of a proof's phase timings, a GPU's status and a priority (common/proto/wire_map.cpp):
// every phase has its PartitionTimings field and every field its phase, every GpuStatus field is written and
// read back, every priority crosses the wire and back.
#include <gtest/gtest.h>

#include <google/protobuf/descriptor.h>
#include <google/protobuf/reflection.h>

#include <set>
#include <string>

#include "proto/codec.hpp"
#include "proto/wire_map.hpp"

namespace cuzk::proto {
namespace {

namespace pb = google::protobuf;

/* The fields of a wire message that put() left at their default (a field nobody maps). */
std::vector<std::string> unset_fields(const pb::Message& m) {
  std::vector<std::string> out;
  const auto* d = m.GetDescriptor();
  for (int i = 0; i < d->field_count(); ++i) {
    const auto* f = d->field(i);
    if (f->is_repeated() ? m.GetReflection()->FieldSize(m, f) == 0 : !m.GetReflection()->HasField(m, f))
      out.push_back(f->name());
  }
  return out;
}

partition_timings distinct_timings() {
  partition_timings t;
  for (std::size_t i = 0; i < groth16::n_timings; ++i) t.us[i] = 1000 * (i + 1) + 7;
  return t;
}

TEST(WireMap, EveryPhaseHasItsFieldAndEveryFieldItsPhase) {
  const auto* d = wire::PartitionTimings::descriptor();
  ASSERT_EQ(static_cast<std::size_t>(d->field_count()), groth16::n_timings) << "a field that names no phase";
  for (std::size_t i = 0; i < groth16::n_timings; ++i) {
    const std::string field = std::string(groth16::timing_names[i]) + "_us";
    const auto* f = d->FindFieldByName(field);
    ASSERT_NE(f, nullptr) << "phase " << groth16::timing_names[i] << " has no field " << field;
    EXPECT_EQ(f->type(), pb::FieldDescriptor::TYPE_UINT64) << field;
  }
}

TEST(WireMap, TheNamesTableCoversEveryPhaseOnce) {
  std::set<std::string_view> seen;
  for (std::size_t i = 0; i < groth16::n_timings; ++i) {
    const auto t = static_cast<groth16::timing>(i);
    EXPECT_FALSE(name(t).empty());
    EXPECT_EQ(name(t), groth16::timing_names[i]);
    EXPECT_TRUE(seen.insert(name(t)).second) << name(t) << " twice";
  }
  EXPECT_EQ(name(groth16::timing::msm_b_g2), "msm_b_g2");
  EXPECT_EQ(name(groth16::timing::total), "total");
}

TEST(WireMap, EveryPhaseRoundTripsThroughTheWire) {
  const auto t = distinct_timings();
  wire::PartitionTimings w;
  put(w, t);
  EXPECT_EQ(unset_fields(w), std::vector<std::string>{});
  EXPECT_EQ(w.msm_b_g2_us(), t[groth16::timing::msm_b_g2]);
  EXPECT_EQ(w.cpu_prep_us(), t[groth16::timing::cpu_prep]);
  EXPECT_EQ(from_wire(w), t);
  /* and inside a whole frame */
  job_status js;
  js.job_id = "j";
  js.partitions.resize(1);
  js.partitions[0].state = partition_state::done;
  js.partitions[0].timings = t;
  const auto back = decode(encode(message{1, js}));
  ASSERT_TRUE(back) << back.error().reason;
  EXPECT_EQ(std::get<job_status>(back->body).partitions[0].timings, t);
}

TEST(WireMap, EveryGpuStatusFieldIsWrittenAndReadBack) {
  gpu_status g;
  g.device = 3;
  g.name = "NVIDIA H200";
  g.workers = 2;
  g.busy_ratio = 0.5;
  g.mem_total = 141ULL << 30;
  g.mem_free = 20ULL << 30;
  g.budget = 130ULL << 30;
  g.resident_keys = {"ab12", "cd34"};
  g.resident_bytes = 40ULL << 30;
  g.proofs = 17;
  g.faults = 1;
  g.resident_shifts = {"h 11@22", "none"};
  g.shifted_bytes = 5ULL << 30;
  g.busy_seconds = 12.5;
  g.resident_key_bytes = {30ULL << 30, 10ULL << 30};
  wire::GpuStatus w;
  put(w, g);
  EXPECT_EQ(unset_fields(w), std::vector<std::string>{}) << "a GpuStatus field put() does not write";
  gpu_status expected = g;  // the server's own fields stay off the wire
  expected.busy_seconds = 0;
  expected.resident_key_bytes.clear();
  EXPECT_EQ(from_wire(w), expected);
}

TEST(WireMap, EveryPriorityCrossesTheWireAndBackAndNormalIsItsZero) {
  std::set<int> wire_values;
  for (const auto p : priorities_by_rank) {
    EXPECT_EQ(priority_from_wire(to_wire(p)), p) << name(p);
    EXPECT_TRUE(wire_values.insert(to_wire(p)).second) << name(p);
  }
  EXPECT_EQ(to_wire(priority::normal), 0) << "the default a client that says nothing gets";
  EXPECT_EQ(static_cast<int>(priority_from_wire(7)), 255) << "refused by check()";
  EXPECT_EQ(wire_values.size(), static_cast<std::size_t>(wire::Priority_descriptor()->value_count()));
}

}  // namespace
}  // namespace cuzk::proto
