// BN254 beside BLS12-381 in one GPU service (issue 20): a circom circuit
// compiled with circom's default prime under a key from a snarkjs bn128
// ceremony (CUZK_GPU_CIRCOM_BN254=STEM names STEM.zkey and STEM.wtns, made by
// scripts/gpu-pack.sh), BN254 native jobs and BLS12-381 ones, all through one
// server with --backend cuda: every proof verifies under its own curve's key
// and is the CPU backend's byte for byte (fixed blinding). With
// CUZK_GPU_PROOFS=DIR the circom proof is written there for `snarkjs groth16
// verify` where node is (scripts/gpu-verify.sh).
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>
#include <nlohmann/json.hpp>

#include "circuits/registry.hpp"
#include "gpu_test.hpp"
#include "harness.hpp"
#include "io/zkey.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;
namespace fs = std::filesystem;
using bn = curves::bn254;

/* One job and the check its proof must pass. */
struct case_t {
  proto::submit submit;
  std::function<bool(const std::string& proof, const std::string& pub)> verifies;
};

template <class C>
std::function<bool(const std::string&, const std::string&)> verifier(
    std::shared_ptr<const groth16::basic_proving_key<C>> pk) {
  return [pk](const std::string& proof, const std::string& pub) { return verifies<C>(*pk, proof, pub); };
}

/* The circom job's files, copied where the test server allows files (the temporary directory). */
std::string allowed_copy(const std::string& file) {
  const fs::path dir = fs::temp_directory_path() / ("cuzk-test-bn254-circom-" + std::to_string(::getpid()));
  fs::create_directories(dir);
  const auto to = dir / fs::path(file).filename();
  fs::copy_file(file, to, fs::copy_options::overwrite_existing);
  return to.string();
}

std::vector<case_t> mixed_cases(const std::string& stem, std::uint64_t seed) {
  std::vector<case_t> cases;
  auto circom_pk = std::make_shared<const groth16::basic_proving_key<bn>>(io::read_zkey_file<bn>(stem + ".zkey"));
  proto::submit circom;
  circom.job_id = "bn254-circom";
  circom.client = "bn254_service_test";
  circom.zkey = allowed_copy(stem + ".zkey");
  circom.work = proto::circom_work{allowed_copy(stem + ".wtns"), std::nullopt};
  cases.push_back({circom, verifier<bn>(circom_pk)});
  std::uint64_t i = 0;
  for (const std::string spec : {"chain:size=1500", "poseidon-merkle:depth=2", "sha256:bytes=3"}) {
    const auto& key = key_for<bn>(spec);
    proto::submit s;
    s.job_id = "bn254-native-" + std::to_string(i);
    s.client = "bn254_service_test";
    s.zkey = key.path;
    s.work = proto::native_work{spec, circuits::make_circuit<bn>(spec)->random_inputs(seed + i++).dump()};
    cases.push_back({s, verifier<bn>(key.pk)});
  }
  for (const std::string spec : {"chain:size=1500", "poseidon-merkle:depth=2"}) {
    auto s = native_submit("bls12-381-native-" + std::to_string(i), spec, seed + i, "bn254_service_test");
    ++i;
    cases.push_back({s, verifier<curves::bls12_381>(key_for(spec).pk)});
  }
  for (auto& c : cases) c.submit.blinding = proto::blinding{"12345", "67890"};
  return cases;
}

/* Every case through one server of backend `be`: the proofs (JSON, in case order), each verified. */
std::vector<std::pair<std::string, std::string>> prove_all(const std::vector<case_t>& cases, const std::string& be) {
  service svc({"4x4096", "2x32768"});
  svc.backend = be;
  auto server = svc.start_server();
  auto w1 = svc.start_worker("worker@1");
  auto w2 = svc.start_worker("worker@2");
  auto c = svc.connect();
  for (const auto& k : cases) c.submit(k.submit);
  std::vector<std::pair<std::string, std::string>> out;
  for (const auto& k : cases) {
    auto r = c.wait(k.submit.job_id, 180s);
    const auto* pr = std::get_if<proto::proof_reply>(&r);
    if (!pr || pr->partitions.size() != 1) {
      ADD_FAILURE() << k.submit.job_id << " (" << be << ") did not give one proof: "
                    << (std::holds_alternative<proto::job_status>(r) ? std::get<proto::job_status>(r).error : "");
      out.emplace_back();
      continue;
    }
    const auto& p = pr->partitions[0];
    EXPECT_TRUE(k.verifies(p.proof_json, p.public_json)) << k.submit.job_id << " (" << be << ") does not verify";
    out.emplace_back(p.proof_json, p.public_json);
  }
  EXPECT_EQ(server->terminate(), 0);
  EXPECT_NE(server_logs(svc).find("backend=" + be), std::string::npos) << "not proven by the " << be << " backend";
  return out;
}

TEST(DeviceServiceBn254, ACeremonyKeysCircomJobAndNativeJobsOfBothCurvesMatchTheCpuBackendByteForByte) {
  CUZK_REQUIRE_GPU();
  const char* stem = std::getenv("CUZK_GPU_CIRCOM_BN254");
  ASSERT_TRUE(stem && fs::exists(std::string(stem) + ".zkey"))
      << "CUZK_GPU_CIRCOM_BN254 names no STEM.zkey / STEM.wtns (scripts/gpu-pack.sh makes them)";
  const auto cases = mixed_cases(stem, test::seed());
  const auto cpu = prove_all(cases, "cpu");
  const auto gpu = prove_all(cases, "cuda");
  ASSERT_EQ(gpu.size(), cases.size());
  for (std::size_t i = 0; i < cases.size(); ++i)
    EXPECT_EQ(gpu[i], cpu[i]) << cases[i].submit.job_id << ": the CUDA backend's proof differs from the CPU backend's";
  EXPECT_NE(gpu[0].first.find("\"bn128\""), std::string::npos)
      << "the circom proof does not name its curve: " << gpu[0].first;
  if (const char* dir = std::getenv("CUZK_GPU_PROOFS")) {
    fs::create_directories(dir);
    std::ofstream(fs::path(dir) / "service-bn254-circom.cuda.proof.json") << gpu[0].first;
    std::ofstream(fs::path(dir) / "service-bn254-circom.cuda.public.json") << gpu[0].second;
    fs::copy_file(std::string(stem) + ".vk.json", fs::path(dir) / "service-bn254-circom.vk.json",
                  fs::copy_options::overwrite_existing);
  }
}

}  // namespace
}  // namespace cuzk::test
