// The cuzk CLI run as a process: its service commands against a fake server
// (what they print, write and exit with), and a native circuit's setup and
// proof on BN254.
#include <sys/wait.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <sstream>

#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include "../net/temp_dir.hpp"
#include "fake_server.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

struct run_result {
  int rc;
  std::string out, err;
};

std::string slurp(const std::filesystem::path& p) {
  std::ifstream f(p);
  std::stringstream s;
  s << f.rdbuf();
  return s.str();
}

struct ClientCli : testing::Test {
  temp_dir dir;
  std::string endpoint = dir.ipc("cuzk.sock");

  run_result cuzk(const std::string& args) {
    const auto out = dir.path() / "stdout", err = dir.path() / "stderr";
    const std::string cmd =
        "cd " + dir.path().string() + " && " + CUZK_CLI + " " + args + " >" + out.string() + " 2>" + err.string();
    const int status = std::system(cmd.c_str());
    return {WIFEXITED(status) ? WEXITSTATUS(status) : -1, slurp(out), slurp(err)};
  }
  std::string inputs() {
    std::ofstream(dir.path() / "in.json") << "{\n  \"x\": \"3\"\n}\n";
    return "in.json";
  }
};

TEST_F(ClientCli, SubmitPrintsTheJobIdAndSendsAbsolutePathsAndCompactInputs) {
  fake_server server(endpoint);
  auto r = cuzk("submit --endpoint " + endpoint + " --zkey k.zkey --circuit chain:size=4 --inputs " + inputs() +
                " --job-id job-7 --priority high --partitions 2");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(r.out, "job-7\n");
  const auto s = server.last_submit();
  EXPECT_EQ(s.zkey, (dir.path() / "k.zkey").string());
  EXPECT_EQ(s.priority, proto::priority::high);
  EXPECT_EQ(s.partitions, 2u);
  EXPECT_EQ(std::get<proto::native_work>(s.work).inputs_json, "{\"x\":\"3\"}");
}

TEST_F(ClientCli, SubmitWithoutAJobIdMakesAUuid) {
  fake_server server(endpoint);
  auto r = cuzk("submit --endpoint " + endpoint + " --zkey /k.zkey --wtns w.wtns --r1cs c.r1cs --blinding 1,2");
  ASSERT_EQ(r.rc, 0) << r.err;
  ASSERT_EQ(r.out.size(), 37u) << r.out;
  EXPECT_EQ(r.out[14], '4');
  const auto s = server.last_submit();
  EXPECT_EQ(std::get<proto::circom_work>(s.work).r1cs, (dir.path() / "c.r1cs").string());
  EXPECT_EQ(s.blinding, (proto::blinding{"1", "2"}));
}

TEST_F(ClientCli, SubmitAndWaitWritesOneProofAndPublicFilePerPartition) {
  fake_server server(endpoint);
  server.complete_on_submit(true);
  std::filesystem::create_directory(dir.path() / "out");
  auto r = cuzk("submit --endpoint " + endpoint + " --zkey /k.zkey --wtns /w.wtns --partitions 3 --job-id j" +
                " --wait --proof out/proof.json --public out/public.json --timeout 5");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(slurp(dir.path() / "out/proof.json"), "{\"pi_a\": [\"0\"]}\n");
  EXPECT_EQ(slurp(dir.path() / "out/proof.2.json"), "{\"pi_a\": [\"2\"]}\n");
  EXPECT_EQ(slurp(dir.path() / "out/public.1.json"), "[\"101\"]\n");
}

TEST_F(ClientCli, WaitOnAFailedJobPrintsTheErrorAndExitsOne) {
  fake_server server(endpoint);
  ASSERT_EQ(cuzk("submit --endpoint " + endpoint + " --zkey /k.zkey --wtns /w.wtns --job-id bad").rc, 0);
  server.fail("bad", "the witness does not satisfy constraint 3");
  auto r = cuzk("wait --endpoint " + endpoint + " --job-id bad --proof p.json --public q.json --timeout 5");
  EXPECT_EQ(r.rc, 1);
  EXPECT_NE(r.err.find("constraint 3"), std::string::npos) << r.err;
}

TEST_F(ClientCli, WaitThatTimesOutExitsThree) {
  fake_server server(endpoint);
  ASSERT_EQ(cuzk("submit --endpoint " + endpoint + " --zkey /k.zkey --wtns /w.wtns --job-id slow").rc, 0);
  auto r = cuzk("wait --endpoint " + endpoint + " --job-id slow --proof p.json --public q.json --timeout 0.2");
  EXPECT_EQ(r.rc, 3);
  EXPECT_NE(r.err.find("still queued"), std::string::npos) << r.err;
}

TEST_F(ClientCli, WaitOnAnUnknownJobExitsTwo) {
  fake_server server(endpoint);
  auto r = cuzk("wait --endpoint " + endpoint + " --job-id nobody --proof p.json --public q.json");
  EXPECT_EQ(r.rc, 2);
  EXPECT_NE(r.err.find("unknown_job"), std::string::npos) << r.err;
}

TEST_F(ClientCli, StatusPrintsTablesOrJson) {
  fake_server server(endpoint);
  ASSERT_EQ(cuzk("submit --endpoint " + endpoint + " --zkey /k.zkey --wtns /w.wtns --job-id j1").rc, 0);
  auto table = cuzk("status --endpoint " + endpoint);
  ASSERT_EQ(table.rc, 0) << table.err;
  EXPECT_NE(table.out.find("j1"), std::string::npos) << table.out;
  EXPECT_NE(table.out.find("worker@1"), std::string::npos) << table.out;
  /* a GPU's resident key and its shifted MSM copies */
  EXPECT_NE(table.out.find("key ab12  copies h 11@22 l 11@22 a 11@22 b1 11@22 b2 9@20"), std::string::npos)
      << table.out;
  EXPECT_NE(table.out.find("shifted copies 99.0 GiB"), std::string::npos) << table.out;
  auto js = cuzk("status --endpoint " + endpoint + " --json");
  ASSERT_EQ(js.rc, 0) << js.err;
  auto j = nlohmann::json::parse(js.out);
  EXPECT_EQ(j["jobs"][0]["job_id"], "j1");
  EXPECT_EQ(j["slots"][1]["state"], "assigned");
  EXPECT_EQ(j["workers"][0]["pid"], 4242);
  EXPECT_EQ(j["gpus"][0]["resident_shifts"][0], "h 11@22 l 11@22 a 11@22 b1 11@22 b2 9@20");
  EXPECT_EQ(j["gpus"][0]["shifted_bytes"], 99ULL << 30);
  auto one = cuzk("status --endpoint " + endpoint + " --job-id j1 --json");
  ASSERT_EQ(one.rc, 0) << one.err;
  EXPECT_EQ(nlohmann::json::parse(one.out)["state"], "queued");
}

TEST_F(ClientCli, NoServerExitsThree) {
  auto r = cuzk("submit --endpoint " + endpoint + " --zkey /k.zkey --wtns /w.wtns --timeout 0.4");
  EXPECT_EQ(r.rc, 3);
  EXPECT_NE(r.err.find("no reply"), std::string::npos) << r.err;
}

TEST_F(ClientCli, EveryCommandHonoursRequestTimeoutAgainstADeadServer) {
  for (const std::string cmd : {"status", "submit --zkey /k.zkey --wtns /w.wtns"}) {
    const auto t0 = std::chrono::steady_clock::now();
    auto r = cuzk(cmd + " --endpoint " + endpoint + " --request-timeout 0.5");
    const auto took = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    EXPECT_EQ(r.rc, 3) << cmd << ": " << r.err;
    EXPECT_NE(r.err.find("no reply"), std::string::npos) << cmd << ": " << r.err;
    EXPECT_GE(took, 1.4) << cmd << ": fewer than 3 attempts of 0.5 s";
    EXPECT_LT(took, 4.0) << cmd << ": --request-timeout 0.5 was not honoured (3 attempts: 1.5 s)";
  }
}

TEST_F(ClientCli, KeygenMakesTheDirectoriesOfItsFileOwnerOnly) {
  auto r = cuzk("keygen --out keys/alice/alice.key");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_TRUE(std::filesystem::exists(dir.path() / "keys/alice/alice.key.pub"));
  for (const auto* d : {"keys", "keys/alice"})
    EXPECT_EQ(std::filesystem::status(dir.path() / d).permissions() & std::filesystem::perms::all,
              std::filesystem::perms::owner_all)
        << d;
}

TEST_F(ClientCli, KeygenApiPrintsATokenOnceAndKeepsOnlyItsHash) {
  auto r = cuzk("keygen --api alice --api-dir api-keys.d");
  ASSERT_EQ(r.rc, 0) << r.err;
  const std::string token = r.out.substr(0, r.out.find('\n'));
  EXPECT_TRUE(token.starts_with("cuzk_")) << r.out;
  std::string stored;
  std::getline(std::ifstream(dir.path() / "api-keys.d/alice"), stored);
  EXPECT_TRUE(stored.starts_with("sha256:")) << stored;
  EXPECT_EQ(stored.find(token.substr(5)), std::string::npos);
  EXPECT_EQ(cuzk("keygen --api alice --api-dir api-keys.d").rc, 2) << "a second key of one name";
  EXPECT_EQ(cuzk("keygen --api alice --out x.key").rc, 2) << "--api and --out together";
  EXPECT_EQ(cuzk("keygen").rc, 2);
}

TEST_F(ClientCli, BadInputExitsTwoWithoutContactingTheServer) {
  fake_server server(endpoint);
  EXPECT_EQ(cuzk("submit --endpoint " + endpoint + " --zkey /k.zkey --wtns /w.wtns --job-id a/b").rc, 2);
  EXPECT_EQ(cuzk("submit --endpoint " + endpoint + " --zkey /k.zkey --circuit chain").rc, 2);
  EXPECT_EQ(cuzk("submit --endpoint " + endpoint + " --zkey /k.zkey --wtns /w.wtns --blinding 12").rc, 2);
  EXPECT_EQ(cuzk("submit --endpoint " + endpoint + " --zkey /k.zkey --wtns /w.wtns --partitions 17").rc, 2);
  EXPECT_EQ(cuzk("wait --endpoint " + endpoint + " --job-id x").rc, 2) << "--proof and --public are required";
  EXPECT_EQ(server.requests("submit"), 0);
}

/* The curve of a native circuit's key is --curve's; prove reads it from the key. */
TEST_F(ClientCli, ANativeCircuitSetUpOnBn254ProvesAndItsProofVerifies) {
  const std::string circuit = " --circuit chain:size=50";
  auto r = cuzk("setup" + circuit + " --curve bn254 --zkey bn.zkey");
  ASSERT_EQ(r.rc, 0) << r.err;
  r = cuzk("inputs" + circuit + " --curve bn254 --seed " + std::to_string(seed()) + " --out in.json");
  ASSERT_EQ(r.rc, 0) << r.err;
  r = cuzk("prove --zkey bn.zkey" + circuit + " --inputs in.json --proof proof.json --public public.json");
  ASSERT_EQ(r.rc, 0) << r.err;
  EXPECT_NE(r.err.find("BN254"), std::string::npos) << r.err;
  ASSERT_EQ(cuzk("export-vk --zkey bn.zkey --vk vk.json").rc, 0);
  EXPECT_EQ(nlohmann::json::parse(slurp(dir.path() / "proof.json"))["curve"], "bn128");
  EXPECT_EQ(nlohmann::json::parse(slurp(dir.path() / "vk.json"))["curve"], "bn128");
  r = cuzk("verify --vk vk.json --public public.json --proof proof.json");
  EXPECT_EQ(r.rc, 0) << r.out << r.err;
  auto pub = nlohmann::json::parse(slurp(dir.path() / "public.json"));
  pub[0] = pub[0].get<std::string>() == "1" ? "2" : "1";
  std::ofstream(dir.path() / "other.json") << pub.dump();
  EXPECT_EQ(cuzk("verify --vk vk.json --public other.json --proof proof.json").rc, 1);
  // the same inputs are BN254 field elements: a BLS12-381 key of the circuit proves them too
  ASSERT_EQ(cuzk("setup" + circuit + " --zkey bls.zkey").rc, 0);
  r = cuzk("prove --zkey bls.zkey" + circuit + " --inputs in.json --proof bls.proof.json --public bls.public.json");
  EXPECT_EQ(r.rc, 0) << r.err;
  EXPECT_EQ(nlohmann::json::parse(slurp(dir.path() / "bls.proof.json"))["curve"], "bls12381");
  EXPECT_EQ(cuzk("setup" + circuit + " --curve bn256x --zkey x.zkey").rc, 2);
}

}  // namespace
}  // namespace cuzk::test
