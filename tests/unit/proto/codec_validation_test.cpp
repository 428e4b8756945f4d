// Every rule of docs/protocol.md "Validation": a valid message with one field
// broken is refused as malformed, and the reason names the field.
#include <cmath>
#include <functional>

#include <gtest/gtest.h>

#include "proto/codec.hpp"
#include "proto/limits.hpp"

namespace cuzk::proto {
namespace {

struct broken {
  const char* name;   // the test's name: what is wrong
  const char* field;  // what the reason must mention
  std::function<body()> make;
};

submit valid_native() {
  return {"job-1",
          "alice",
          priority::high,
          2,
          "/keys/chain.zkey",
          native_work{"chain:size=1024", "{\"x\": \"1\"}"},
          blinding{"1", "2"}};
}
submit valid_by_key_id() {  // a key installed by the operator (cuzk-shm load-srs)
  return {
      "job-3",     "", priority::normal, 1, "0123456789abcdef0123456789abcdef", native_work{"chain:size=1024", "{}"},
      std::nullopt};
}
submit valid_circom() {
  return {"job-2", "", priority::low, 1, "/k.zkey", circom_work{"/w.wtns", "/c.r1cs"}, std::nullopt};
}
job_status valid_status() { return {"job-1", job_state::running, "", 1, 2, priority::normal, "", {{}}}; }
ready valid_ready() { return {3, 1234, "worker@3", 1 << 20}; }
status_reply valid_gpus() {
  status_reply r;
  r.gpus = {{0,
             "NVIDIA H200",
             2,
             0.97,
             141ULL << 30,
             20ULL << 30,
             130ULL << 30,
             {"ab12", "cd34"},
             9ULL << 30,
             10,
             0,
             {"h 11@22 l 0 a 0 b1 0 b2 0", "none"},
             3ULL << 30,
             0,
             {}}};
  r.hung_timeout_ms = 60000;
  return r;
}
assign valid_assign() { return {7, 9, 1, 2, 0, "ab12", "{\"circuit\": \"chain\"}"}; }

template <class T, class F>
std::function<body()> with(T base, F change) {
  return [base, change]() mutable {
    change(base);
    return body{base};
  };
}

const std::vector<broken>& cases() {
  static const std::vector<broken> all = {
      {"SubmitWithoutJobId", "Submit.job_id", with(valid_native(), [](submit& s) { s.job_id = ""; })},
      {"SubmitJobIdOf64Bytes", "Submit.job_id", with(valid_native(), [](submit& s) { s.job_id.assign(64, 'a'); })},
      {"SubmitJobIdWithSlash", "Submit.job_id", with(valid_native(), [](submit& s) { s.job_id = "a/b"; })},
      {"SubmitJobIdWithSpace", "Submit.job_id", with(valid_native(), [](submit& s) { s.job_id = "a b"; })},
      {"SubmitJobIdNotAscii", "Submit.job_id", with(valid_native(), [](submit& s) { s.job_id = "caf\xc3\xa9"; })},
      {"SubmitClientNotUtf8", "Submit.client", with(valid_native(), [](submit& s) { s.client = "bob\xff"; })},
      {"SubmitClientOverlongUtf8", "Submit.client", with(valid_native(), [](submit& s) { s.client = "\xc0\xaf"; })},
      {"SubmitClientSurrogate", "Submit.client", with(valid_native(), [](submit& s) { s.client = "\xed\xa0\x80"; })},
      {"SubmitClientOf64Bytes", "Submit.client", with(valid_native(), [](submit& s) { s.client.assign(64, 'c'); })},
      {"SubmitClientWithNewline", "Submit.client", with(valid_native(), [](submit& s) { s.client = "a\nb"; })},
      {"SubmitOfUnknownPriority", "Submit.priority",
       with(valid_native(), [](submit& s) { s.priority = static_cast<priority>(7); })},
      {"SubmitOfZeroPartitions", "Submit.partitions", with(valid_native(), [](submit& s) { s.partitions = 0; })},
      {"SubmitOf17Partitions", "Submit.partitions", with(valid_native(), [](submit& s) { s.partitions = 17; })},
      {"SubmitWithoutZkey", "Submit.zkey", with(valid_native(), [](submit& s) { s.zkey = ""; })},
      {"SubmitRelativeZkey", "Submit.zkey", with(valid_native(), [](submit& s) { s.zkey = "keys/a.zkey"; })},
      {"SubmitZkeyPathOf1024Bytes", "Submit.zkey",
       with(valid_native(), [](submit& s) { s.zkey = "/" + std::string(1023, 'p'); })},
      {"SubmitZkeyIdInUppercase", "Submit.zkey",
       with(valid_native(), [](submit& s) { s.zkey = "0123456789ABCDEF0123456789ABCDEF"; })},
      {"SubmitZkeyWithNul", "Submit.zkey", with(valid_native(), [](submit& s) { s.zkey = std::string("/a\0b", 4); })},
      {"SubmitWithoutCircuit", "Submit.native.circuit",
       with(valid_native(), [](submit& s) { std::get<native_work>(s.work).circuit = ""; })},
      {"SubmitCircuitWithSpace", "Submit.native.circuit",
       with(valid_native(), [](submit& s) { std::get<native_work>(s.work).circuit = "chain: size=1"; })},
      {"SubmitCircuitOf257Bytes", "Submit.native.circuit",
       with(valid_native(), [](submit& s) { std::get<native_work>(s.work).circuit.assign(257, 'c'); })},
      {"SubmitWithoutInputs", "Submit.native.inputs_json",
       with(valid_native(), [](submit& s) { std::get<native_work>(s.work).inputs_json = ""; })},
      {"SubmitInputsOver2048Bytes", "Submit.native.inputs_json",
       with(valid_native(), [](submit& s) { std::get<native_work>(s.work).inputs_json.assign(2049, ' '); })},
      {"SubmitInputsNotUtf8", "Submit.native.inputs_json",
       with(valid_native(), [](submit& s) { std::get<native_work>(s.work).inputs_json = "{\"\xfe\"}"; })},
      {"SubmitRelativeWtns", "Submit.circom.wtns",
       with(valid_circom(), [](submit& s) { std::get<circom_work>(s.work).wtns = "w.wtns"; })},
      {"SubmitRelativeR1cs", "Submit.circom.r1cs",
       with(valid_circom(), [](submit& s) { std::get<circom_work>(s.work).r1cs = "c.r1cs"; })},
      {"SubmitBlindingNotDecimal", "Submit.blinding.r",
       with(valid_native(), [](submit& s) { s.blinding->r = "0x12"; })},
      {"SubmitBlindingOf79Digits", "Submit.blinding.s",
       with(valid_native(), [](submit& s) { s.blinding->s.assign(79, '9'); })},
      {"SubmitBlindingWithoutS", "Submit.blinding.s", with(valid_native(), [](submit& s) { s.blinding->s = ""; })},
      {"StatusRequestForABadJobId", "StatusRequest.job_id", [] { return body{status_request{"a/b"}}; }},
      {"StatusRequestForAnOwnerWithoutAJobId", "StatusRequest.owner_uid",
       [] { return body{status_request{std::nullopt, 1000}}; }},
      {"StatusRequestForCapacityAndAJob", "StatusRequest.capacity_only",
       [] { return body{status_request{"j", std::nullopt, true}}; }},
      {"StatusRequestForTheClusterAndAJob", "StatusRequest.cluster",
       [] { return body{status_request{"j", std::nullopt, false, true}}; }},
      {"ClusterViewWithTooManyNodes", "StatusReply.cluster.nodes", [] {
         status_reply r;
         r.cluster = cluster_view{"n", true, "", 1000, std::vector<cluster_node_status>(max_cluster_nodes + 1), 0};
         return body{r};
       }},
      {"ClusterNodeWithABadKeyId", "StatusReply.cluster.nodes[0].key_ids[0]", [] {
         status_reply r;
         r.cluster = cluster_view{"n", true, "", 1000, {{"a", true, 0, 0, 1, {"not a key"}}}, 0};
         return body{r};
       }},
      {"CapacityWithMoreFreeSlotsThanSlots", "StatusReply.capacity.classes[0].free", [] {
         status_reply r;
         r.capacity = capacity{{}, {{0, 1024, 1024, 1, 2}}, 0, 0, true, "", 0, 1, {}};
         return body{r};
       }},
      {"CapacityWithANegativeWait", "StatusReply.capacity", [] {
         status_reply r;
         r.capacity = capacity{{}, {}, 0, -1, true, "", 0, 1, {}};
         return body{r};
       }},
      {"CapacityWithACircuitOfAnUnknownGenerator", "StatusReply.capacity.circuits[0].generator", [] {
         status_reply r;
         r.capacity = capacity{{}, {}, 0, 0, true, "", 0, 1, {{"c", "python", "0123456789abcdef0123456789abcdef"}}};
         return body{r};
       }},
      {"InstalledWorkWithAKey", "Submit.zkey", [] {
         submit s{"job", "c", priority::normal, 1, "/k.zkey", installed_work{"c", "{}"}, std::nullopt};
         return body{s};
       }},
      {"FetchWithoutJobId", "Fetch.job_id", [] { return body{fetch{""}}; }},
      {"WaitWithoutJobId", "Wait.job_id", [] { return body{wait_request{"", 10}}; }},
      {"WaitOverTenMinutes", "Wait.timeout_ms", [] { return body{wait_request{"j", max_wait_ms + 1}}; }},
      {"AcceptedWithoutJobId", "Accepted.job_id", [] { return body{accepted{"", true, job_state::queued}}; }},
      {"AcceptedOfStateZero", "Accepted.state", [] { return body{accepted{"j", true, job_state{}}}; }},
      {"JobStatusOfStateFive", "JobStatus.state",
       with(valid_status(), [](job_status& s) { s.state = static_cast<job_state>(5); })},
      {"JobStatusOfNoPartitions", "JobStatus.partitions",
       with(valid_status(), [](job_status& s) { s.partitions.clear(); })},
      {"JobStatusOf17Partitions", "JobStatus.partitions",
       with(valid_status(), [](job_status& s) { s.partitions.resize(17); })},
      {"JobStatusOfPartitionStateSeven", "JobStatus.partitions",
       with(valid_status(), [](job_status& s) { s.partitions[0].state = static_cast<partition_state>(7); })},
      {"JobStatusErrorOver1024Bytes", "JobStatus.error",
       with(valid_status(), [](job_status& s) { s.error.assign(1025, 'e'); })},
      {"JobStatusErrorNotUtf8", "JobStatus.error", with(valid_status(), [](job_status& s) { s.error = "\x80"; })},
      {"ProofReplyOfNoPartitions", "ProofReply.partitions", [] { return body{proof_reply{"j", {}}}; }},
      {"ProofReplyWithoutProof", "ProofReply.partitions[0].proof_json",
       [] { return body{proof_reply{"j", {{"", "[]", std::nullopt}}}}; }},
      {"ProofReplyPublicNotUtf8", "ProofReply.partitions[1].public_json",
       [] { return body{proof_reply{"j", {{"{}", "[]", std::nullopt}, {"{}", "[\xff]", std::nullopt}}}}; }},
      {"ProofReplyPhasesOfAnUnknownState", "ProofReply.partitions[0].phases.state",
       [] {
         proof_reply r{"j", {{"{}", "[]", partition_status{}}}};
         r.partitions[0].phases->state = static_cast<partition_state>(9);
         return body{r};
       }},
      {"ProofReplyProofOver16KiB", "ProofReply.partitions[0].proof_json",
       [] { return body{proof_reply{"j", {{std::string(16 * 1024 + 1, ' '), "[]", std::nullopt}}}}; }},
      {"StatusReplyWithABadJob", "StatusReply.jobs[1].job_id", [] {
         status_reply r;
         r.jobs = {valid_status(), valid_status()};
         r.jobs[1].job_id = "";
         return body{r};
       }},
      {"StatusReplySlotOfStateZero", "StatusReply.slots[0].state",
       [] { return body{status_reply{{}, {{0, 0, slot_state{}, 0, 0}}, {}, 0, {}, 0, std::nullopt, {}}}; }},
      {"StatusReplySlotOwnerPastTheLeaseTable", "StatusReply.slots[0].owner",
       [] { return body{status_reply{{}, {{0, 0, slot_state::free, 0, no_owner + 1}}, {}, 0, {}, 0, std::nullopt, {}}}; }},
      {"StatusReplyWorkerWithoutALease", "StatusReply.workers[0].lease",
       [] { return body{status_reply{{}, {}, {{no_owner, "w", 1, worker_state::idle, 0}}, 0, {}, 0, std::nullopt, {}}}; }},
      {"StatusReplyWorkerNameOf24Bytes", "StatusReply.workers[0].name",
       [] {
         return body{status_reply{{}, {}, {{1, std::string(24, 'w'), 1, worker_state::idle, 0}}, 0, {}, 0, std::nullopt, {}}};
       }},
      {"StatusReplyKeyOfAnUnknownHostCopy", "StatusReply.keys[0].host_copy",
       [] {
         status_reply r;
         r.keys.push_back({"0123456789abcdef0123456789abcdef", "maybe", 0, 0});
         return body{r};
       }},
      {"StatusReplyWorkerOfStateFour", "StatusReply.workers[0].state",
       [] { return body{status_reply{{}, {}, {{1, "w", 1, static_cast<worker_state>(4), 0}}, 0, {}, 0, std::nullopt, {}}}; }},
      {"JobStatusPartitionGpuBelowMinusOne", "JobStatus.partitions[0].gpu",
       with(valid_status(), [](job_status& s) { s.partitions[0].gpu = -2; })},
      {"JobStatusPartitionGpuOf64", "JobStatus.partitions[0].gpu",
       with(valid_status(), [](job_status& s) { s.partitions[0].gpu = static_cast<std::int32_t>(max_gpus); })},
      {"StatusReplyGpuOfNegativeDevice", "StatusReply.gpus[0].device",
       with(valid_gpus(), [](status_reply& r) { r.gpus[0].device = -1; })},
      {"StatusReplyGpuNameNotUtf8", "StatusReply.gpus[0].name",
       with(valid_gpus(), [](status_reply& r) { r.gpus[0].name = "H\xff"; })},
      {"StatusReplyGpuBusyOverOne", "StatusReply.gpus[0].busy_ratio",
       with(valid_gpus(), [](status_reply& r) { r.gpus[0].busy_ratio = 1.01; })},
      {"StatusReplyGpuBusyNaN", "StatusReply.gpus[0].busy_ratio",
       with(valid_gpus(), [](status_reply& r) { r.gpus[0].busy_ratio = std::nan(""); })},
      {"StatusReplyGpuFreeOverTotal", "StatusReply.gpus[0].mem_free",
       with(valid_gpus(), [](status_reply& r) { r.gpus[0].mem_free = r.gpus[0].mem_total + 1; })},
      {"StatusReplyGpuKeyIdWithSpace", "StatusReply.gpus[0].resident_keys[1]",
       with(valid_gpus(), [](status_reply& r) { r.gpus[0].resident_keys[1] = "ab 12"; })},
      {"StatusReplyGpuOfTooManyKeys", "StatusReply.gpus[0].resident_keys",
       with(valid_gpus(), [](status_reply& r) { r.gpus[0].resident_keys.assign(max_resident_keys + 1, "k"); })},
      {"StatusReplyGpuShiftsWithoutKeys", "StatusReply.gpus[0].resident_shifts",
       with(valid_gpus(), [](status_reply& r) { r.gpus[0].resident_shifts.assign(r.gpus[0].resident_keys.size() + 1, "h 1@9"); })},
      {"StatusReplyGpuShiftsNotUtf8", "StatusReply.gpus[0].resident_shifts[0]",
       with(valid_gpus(), [](status_reply& r) { r.gpus[0].resident_shifts = {"h\xff"}; })},
      {"StatusReplyGpuShiftedOverResident", "StatusReply.gpus[0].shifted_bytes",
       with(valid_gpus(), [](status_reply& r) { r.gpus[0].shifted_bytes = r.gpus[0].resident_bytes + 1; })},
      {"StatusReplyOfTooManyGpus", "StatusReply.gpus",
       with(valid_gpus(), [](status_reply& r) { r.gpus.resize(max_gpus + 1, r.gpus[0]); })},
      {"ErrorOfCodeZero", "Error.code", [] { return body{error_reply{error_code{}, "x", 0}}; }},
      {"ErrorOfCodeThirteen", "Error.code", [] { return body{error_reply{static_cast<error_code>(13), "x", 0}}; }},
      {"ErrorMessageOver1024Bytes", "Error.message",
       [] { return body{error_reply{error_code::internal, std::string(1025, 'm'), 0}}; }},
      {"ReadyWithoutALease", "Ready.lease", with(valid_ready(), [](ready& r) { r.lease = no_owner; })},
      {"ReadyWithoutPid", "Ready.pid", with(valid_ready(), [](ready& r) { r.pid = 0; })},
      {"ReadyWithoutName", "Ready.name", with(valid_ready(), [](ready& r) { r.name = ""; })},
      {"ReadyNameOf24Bytes", "Ready.name", with(valid_ready(), [](ready& r) { r.name.assign(24, 'n'); })},
      {"ReadyOfCapacityZero", "Ready.capacity", with(valid_ready(), [](ready& r) { r.capacity = 0; })},
      {"ReadyCapacityNotAPowerOfTwo", "Ready.capacity", with(valid_ready(), [](ready& r) { r.capacity = 3 << 10; })},
      {"AssignOfPartition16", "Assign.partition", with(valid_assign(), [](assign& a) { a.partition = 16; })},
      {"AssignKeyIdWithSpace", "Assign.key_id", with(valid_assign(), [](assign& a) { a.key_id = "ab 12"; })},
      {"AssignWithoutSpec", "Assign.spec", with(valid_assign(), [](assign& a) { a.spec = ""; })},
      {"AssignSpecOver2048Bytes", "Assign.spec", with(valid_assign(), [](assign& a) { a.spec.assign(2049, ' '); })},
      {"SynthFailedWithoutError", "SynthFailed.error", [] { return body{synth_failed{1, 2, ""}}; }},
      {"HeartbeatWithoutALease", "Heartbeat.lease", [] { return body{heartbeat{no_owner, 0, 0}}; }},
      {"ByeWithoutALease", "Bye.lease", [] { return body{bye{70000}}; }},
      {"UploadPastItsSize", "Upload.offset",
       [] { return body{upload{"u1", upload_kind::wtns, 10, 8, "abc", std::string(32, 'a')}}; }},
      {"UploadWithoutData", "Upload.data", [] { return body{upload{"u1", upload_kind::r1cs, 10, 0, "", ""}}; }},
      {"UploadChunkOver128KiB", "Upload.data",
       [] { return body{upload{"u1", upload_kind::r1cs, 1 << 20, 0, std::string(131073, 'x'), ""}}; }},
      {"UploadOfAWitnessWithoutItsKey", "Upload.zkey", [] { return body{upload{"u1", upload_kind::wtns, 10, 0, "abc", ""}}; }},
      {"UploadIdWithASlash", "Upload.upload_id",
       [] { return body{upload{"a/b", upload_kind::r1cs, 10, 0, "abc", ""}}; }},
      {"CircomNamingABadUpload", "Submit.circom.wtns", with(valid_circom(), [](submit& m) {
         m.work = circom_work{"upload:", std::nullopt};
       })},
  };
  return all;
}

class ProtoValidation : public testing::TestWithParam<broken> {};

TEST_P(ProtoValidation, IsRefusedAsMalformedNamingTheField) {
  const message m{77, GetParam().make()};
  auto d = decode(encode(m));
  ASSERT_FALSE(d) << "decoded a message with " << GetParam().name;
  EXPECT_EQ(d.error().code, error_code::malformed);
  EXPECT_NE(d.error().reason.find(GetParam().field), std::string::npos) << d.error().reason;
  EXPECT_EQ(d.error().request_id, 77u) << "the reply must echo the request id";
  EXPECT_TRUE(check(m)) << "check() must refuse what decode() refuses";
}

INSTANTIATE_TEST_SUITE_P(EachRule, ProtoValidation, testing::ValuesIn(cases()),
                         [](const testing::TestParamInfo<broken>& i) { return std::string(i.param.name); });

TEST(ProtoValidationBases, TheUnbrokenMessagesPass) {
  for (const body& b : {body{valid_native()}, body{valid_by_key_id()}, body{valid_circom()}, body{valid_status()},
                        body{valid_ready()}, body{valid_assign()}, body{valid_gpus()}}) {
    auto d = decode(encode(message{1, b}));
    EXPECT_TRUE(d) << d.error().reason;
  }
}

}  // namespace
}  // namespace cuzk::proto
