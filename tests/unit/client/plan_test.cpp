// cuzk plan's node planner (client/plan): the pool is the layout cuzk-shm
// creates, residency is device_context's rule, and what does not fit says so
// with its sizes.
#include <gtest/gtest.h>

#include <filesystem>
#include <unistd.h>

#include "circuits/registry.hpp"
#include "client/plan/key_source.hpp"
#include "client/plan/node_plan.hpp"
#include "client/plan/phase_timings.hpp"
#include "client/plan/plan_output.hpp"
#include "groth16/native.hpp"
#include "io/zkey.hpp"
#include "shm/layout_plan.hpp"
#include "shm/region.hpp"
#include "io/zkey_layout.hpp"
#include "shm/srs_region.hpp"

namespace cuzk::plan {
namespace {

key_input square_key(std::string name, unsigned log_n, curves::curve_id c = curves::curve_id::bls12_381) {
  const std::uint64_t n = std::uint64_t(1) << log_n;
  key_input k;
  k.name = std::move(name);
  k.source = "file";
  k.dims = sizing::key_dims::of(c, n, 1, n);
  k.n_public = 1;
  k.zkey_bytes = 1000 * n;
  return k;
}

node_inputs h200s(unsigned gpus, std::vector<key_input> keys) {
  node_inputs in;
  in.keys = std::move(keys);
  for (unsigned g = 0; g < gpus; ++g) in.gpus.push_back({"NVIDIA H200", 139 * GiB});
  in.host_ram = 1024 * GiB;
  in.cpu_cores = 16;
  return in;
}

bool mentions(const std::vector<std::string>& lines, const std::string& a, const std::string& b = "") {
  for (const std::string& s : lines)
    if (s.find(a) != std::string::npos && s.find(b) != std::string::npos) return true;
  return false;
}

TEST(NodePlan, KeysOfOneDomainShareAClassSizedForTheWorkers) {
  key_input small = square_key("k1", 20), wide = square_key("k2", 20);
  wide.dims.n_vars = wide.dims.a = wide.dims.b1 = wide.dims.b2 = (1u << 20) + 5;
  const node_plan p = plan_node(h200s(2, {small, wide, square_key("k3", 22)}));
  ASSERT_EQ(p.classes.size(), 2u);
  EXPECT_EQ(p.classes[0].domain, 1u << 20);
  EXPECT_EQ(p.classes[0].witness, (1u << 20) + 5);
  EXPECT_EQ(p.classes[1].domain, 1u << 22);
  /* 2 GPUs x 2 proving workers, one synth worker each, and 2 waiting */
  EXPECT_EQ(p.synth_workers, 4u);
  EXPECT_EQ(p.classes[0].count, 4u + 4u + 2u);
  EXPECT_EQ(p.keys[2].slot_class, 1u);
}

TEST(NodePlan, ThePoolIsTheLayoutCuzkShmCreates) {
  const node_plan p = plan_node(h200s(1, {square_key("k", 20)}));
  std::vector<shm::slot_class_config> cfg;
  for (const class_plan& c : p.classes) cfg.push_back({c.count, c.domain, c.witness});
  std::string why;
  const auto layout = shm::detail::plan_layout(cfg, p.leases, p.jobs, &why);
  ASSERT_TRUE(layout) << why;
  EXPECT_EQ(p.pool_bytes, layout->end);
  EXPECT_EQ(p.layout_hash, layout->hash);
  EXPECT_EQ(p.classes[0].slot_bytes, layout->classes[0].slot_bytes);
  EXPECT_EQ(p.shm_bytes, p.pool_bytes + shm::srs_region_bytes(1000u << 20));
  const nlohmann::json j = to_json(p);
  EXPECT_EQ(j["pool"]["slots"][0]["constraints"].get<std::uint64_t>(), 1u << 20);
  EXPECT_EQ(j["pool"]["slots"][0]["count"].get<std::uint64_t>(), p.classes[0].count);
  EXPECT_EQ(j["pool"]["leases"].get<std::uint32_t>(), p.leases);
}

TEST(NodePlan, ANativeKeysRegionIsCountedWithoutTheCoefficientsTheServerReleases) {
  key_input native = square_key("native", 20), circom = square_key("circom", 20);
  native.n_coefs = circom.n_coefs = 3u << 20;
  native.native = true;
  const node_plan p = plan_node(h200s(1, {native, circom}));
  EXPECT_EQ(p.keys[0].host.srs_region, shm::srs_region_bytes((1000u << 20) - (3u << 20) * io::zkey_coef_bytes));
  EXPECT_EQ(p.keys[1].host.srs_region, shm::srs_region_bytes(1000u << 20));
}

TEST(NodePlan, HostMemoryIsReportedPerHostCopyPolicyAndTheChosenOneIsChecked) {
  key_input file = square_key("file", 20), id = square_key("id", 20);
  id.source = "key id";
  node_inputs in = h200s(1, {file, id});
  node_plan p = plan_node(in);
  const std::uint64_t points = sizing::bases_bytes(file.dims);
  EXPECT_EQ(p.keys[0].host.srs_region_drop, shm::srs_region_bytes((1000u << 20) - points));
  EXPECT_TRUE(p.keys[0].host.drop_refused.empty());
  EXPECT_EQ(p.keys[1].host.srs_region_drop, p.keys[1].host.srs_region) << "an installed key has no file to drop to";
  EXPECT_NE(p.keys[1].host.drop_refused.find("installed in the pool"), std::string::npos);
  EXPECT_EQ(p.host_bytes - p.host_bytes_drop, p.keys[0].host.srs_region - p.keys[0].host.srs_region_drop);
  // a host between the two totals: keep does not fit (and the sentence says drop would), drop does
  in.host_ram = (p.host_bytes + p.host_bytes_drop) / 2;
  p = plan_node(in);
  EXPECT_TRUE(mentions(p.does_not_fit, "host_copy = keep", "with host_copy = drop")) << to_text(p);
  in.host_copy_drop = true;
  p = plan_node(in);
  EXPECT_TRUE(p.does_not_fit.empty()) << to_text(p);
  EXPECT_EQ(to_json(p)["host"]["needed_bytes_drop"].get<std::uint64_t>(), p.host_bytes_drop);
  // the CPU backend proves from host memory: nothing to drop
  in.gpus.clear();
  p = plan_node(in);
  EXPECT_EQ(p.host_bytes_drop, p.host_bytes);
}

TEST(NodePlan, OnHugePagesThePoolLeavesDevShmAndCountsPages) {
  node_inputs in = h200s(1, {square_key("k", 20)});
  in.hugepages = "/dev/hugepages";
  const node_plan p = plan_node(in);
  EXPECT_EQ(p.pool_bytes % (2u << 20), 0u);
  EXPECT_EQ(p.hugepages_2m, p.pool_bytes / (2u << 20));
  EXPECT_EQ(p.shm_bytes, p.srs_bytes);
  EXPECT_EQ(to_json(p)["pool"]["hugepages"].get<std::string>(), "/dev/hugepages");
}

TEST(NodePlan, AKeyAboveTheBudgetIsStreamedAndTheWorkersThatWouldFitAreNamed) {
  node_inputs in = h200s(1, {square_key("big", 24)});
  const std::uint64_t key = sizing::key_footprint(in.keys[0].dims), work = sizing::working_bytes(in.keys[0].dims);
  in.budget = key + work + work / 2;  // one worker's buffers fit, not two
  const node_plan p = plan_node(in);
  ASSERT_EQ(p.gpus.size(), 1u);
  EXPECT_FALSE(p.gpus[0].keys[0].resident);
  EXPECT_EQ(p.gpus[0].keys[0].workers_fit, 1u);
  EXPECT_TRUE(mentions(p.does_not_fit, "big does not stay resident", "--workers-per-gpu 1"));
  /* streamed: the bases' copy is added to every proof */
  EXPECT_GT(p.keys[0].proof_seconds, gpu_proof_time(curves::curve_id::bls12_381, 24, "NVIDIA H200", false).seconds);
}

TEST(NodePlan, ResidencyFollowsTheServersRuleCopiesAndAll) {
  node_inputs in = h200s(1, {square_key("k", 24)});
  const node_plan p = plan_node(in);
  const residency& r = p.gpus[0].keys[0];
  ASSERT_TRUE(r.resident);
  const sizing::key_dims& d = in.keys[0].dims;
  const std::uint64_t budget = sizing::device_budget(139 * GiB, in.reserve, 0, 1);
  const sizing::key_copies sh =
      sizing::plan_key_copies(d, sizing::copies_allowance(d, 2, budget, 0, 139 * GiB, in.reserve), -1);
  EXPECT_EQ(r.copies, sh.describe());
  EXPECT_EQ(r.footprint, sizing::key_footprint(d, sh));
  EXPECT_LE(r.footprint + 2 * r.working_each, budget);
  EXPECT_TRUE(p.does_not_fit.empty()) << p.does_not_fit.front();
}

TEST(NodePlan, TwoKeysWhoseCopiesFillTheBudgetEvictEachOther) {
  const node_plan p = plan_node(h200s(1, {square_key("first", 24), square_key("second", 24)}));
  EXPECT_TRUE(mentions(p.does_not_fit, "first and second do not stay resident together", "--msm-copies 0"));
  EXPECT_EQ(p.gpus[0].resident_at_end, std::vector<std::string>{"second"});
  node_inputs in = h200s(1, {square_key("first", 24), square_key("second", 24)});
  in.msm_copies = 0;
  const node_plan q = plan_node(in);
  EXPECT_TRUE(q.does_not_fit.empty());
  EXPECT_EQ(q.gpus[0].resident_at_end.size(), 2u);
}

TEST(NodePlan, TooLittleRamOrShmIsNamedWithItsSizes) {
  node_inputs in = h200s(1, {square_key("k", 24)});
  in.host_ram = 4 * GiB;
  in.shm_size = GiB;
  const node_plan p = plan_node(in);
  EXPECT_TRUE(mentions(p.does_not_fit, "host RAM: the pool (", "the host has 4.00 GiB"));
  EXPECT_TRUE(mentions(p.does_not_fit, "/dev/shm", "/dev/shm holds 1.00 GiB"));
  EXPECT_NE(to_text(p).find("does not fit"), std::string::npos);
}

TEST(NodePlan, PartitionsPerMinuteAddUpOverGpusAndNameTheirSource) {
  node_inputs in = h200s(1, {square_key("k", 22)});
  in.msm_copies = 0;
  const node_plan one = plan_node(in);
  in.gpus.push_back(in.gpus[0]);
  const node_plan two = plan_node(in);
  EXPECT_NEAR(one.keys[0].proof_seconds, 0.272, 1e-9);  // measured: BLS12-381 chain 2^22 on the H200
  EXPECT_NEAR(one.keys[0].partitions_per_minute, 60 / 0.272, 1e-6);
  EXPECT_NEAR(two.keys[0].partitions_per_minute, 2 * 60 / 0.272, 1e-6);
  EXPECT_NE(one.keys[0].timings_source.find("docs/benchmarks.md"), std::string::npos);
  EXPECT_NE(one.keys[0].timings_source.find("measured at this size"), std::string::npos);
}

TEST(PhaseTimings, InterpolatesBetweenMeasuredDomainsAndScalesCpuCores) {
  const double t21 = gpu_proof_time(curves::curve_id::bls12_381, 21, "H200", false).seconds;
  EXPECT_GT(t21, 0.0884);
  EXPECT_LT(t21, 0.272);
  EXPECT_NE(gpu_proof_time(curves::curve_id::bn254, 26, "A100", true).source.find("no measurement on 'A100'"),
            std::string::npos);
  /* the table of the nearest core count: 16 cores for 12, the 2-core VM's for 4 */
  const proof_time c12 = cpu_proof_time(curves::curve_id::bls12_381, 20, 12);
  EXPECT_NEAR(c12.seconds, 6.88 * 16 / 12, 1e-9);
  EXPECT_NE(c12.source.find("scaled from 16 to 12 cores"), std::string::npos);
  const proof_time c4 = cpu_proof_time(curves::curve_id::bls12_381, 14, 4);
  EXPECT_NEAR(c4.seconds, 0.530 / 2, 1e-9);
  EXPECT_NE(c4.source.find("measured at this size"), std::string::npos);
}

TEST(KeySource, AKeyFilesShapeIsTheKeysOwn) {
  const auto c = circuits::make_circuit("chain:size=100");
  const auto pk = groth16::setup_circuit(*c, groth16::basic_toxic_waste<curves::bls12_381>::from_seed("plan"));
  const std::string path = ::testing::TempDir() + "plan_key_" + std::to_string(::getpid()) + ".zkey";
  io::write_zkey_file(path, pk);
  const key_input k = key_from_file(path);
  EXPECT_EQ(k.dims.n_vars, pk.n_vars);
  EXPECT_EQ(k.dims.domain, pk.domain_size);
  EXPECT_EQ(k.dims.c, pk.c.size());
  EXPECT_EQ(k.dims.h, pk.h_query.size());
  EXPECT_EQ(k.zkey_bytes, std::filesystem::file_size(path));
  /* the circuit's plan counts the key setup would write */
  const key_input counted = key_from_circuit("chain:size=100", curves::curve_id::bls12_381);
  EXPECT_EQ(counted.dims.n_vars, k.dims.n_vars);
  EXPECT_EQ(counted.dims.domain, k.dims.domain);
  EXPECT_EQ(counted.zkey_bytes, k.zkey_bytes);
  EXPECT_EQ(counted.n_coefs, k.n_coefs);
  std::filesystem::remove(path);
}

TEST(KeySource, UnreadableFilesUnknownIdsAndCircuitsAreSentences) {
  EXPECT_THROW(
      {
        try {
          key_from_file("/nonexistent/key.zkey");
        } catch (const key_error& e) {
          EXPECT_NE(std::string(e.what()).find("cannot read the key file /nonexistent/key.zkey"), std::string::npos);
          throw;
        }
      },
      key_error);
  EXPECT_THROW(key_from_pool("", "0123456789abcdef0123456789abcdef"), key_error);
  EXPECT_THROW(key_from_pool("p", "not-an-id"), key_error);
  EXPECT_THROW(key_from_circuit("nosuch:size=1", curves::curve_id::bls12_381), key_error);
  EXPECT_THROW(plan_node({}), std::invalid_argument);
}

}  // namespace
}  // namespace cuzk::plan
