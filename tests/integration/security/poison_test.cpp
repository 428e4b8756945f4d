// Poison input against the real service (issue 19): a .r1cs that claims a
// gigabyte is refused at Submit by its header, and a job whose synthesis ends
// its worker (killed, as for memory) fails after --max-synth-crashes instead
// of taking every worker that starts, while another client's job proves.
#include <gtest/gtest.h>
#include <fcntl.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <fstream>

#include "client/lib/errors.hpp"
#include "harness.hpp"
#include "hostile.hpp"
#include "r1cs/binfile.hpp"
#include "r1cs/wtns_file.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string circuit = "chain:size=64";

proto::submit circom_job(const std::string& id, const fs::path& wtns, const fs::path& r1cs) {
  proto::submit s;
  s.job_id = id;
  s.client = "poison_test";
  s.zkey = key_for(circuit).path;
  s.work = proto::circom_work{wtns.string(), r1cs.string()};
  return s;
}

std::string refusal(client::connection& c, const proto::submit& s) {
  try {
    c.submit(s);
  } catch (const client::server_error& e) {
    return e.what();
  }
  return "";
}

TEST(Poison, AnR1csClaimingAGigabyteIsRefusedAtSubmitByItsHeaderAndNoWorkerDies) {
  service svc({"2x4096"});
  auto server = svc.start_server();
  auto worker = svc.start_worker("w1");
  const auto& pk = *key_for(circuit).pk;
  // a witness of the key's length: the only thing Submit checked of a circom job before
  std::vector<ff::fr_t> z(pk.n_vars, ff::fr_t::one());
  write_bytes(svc.dir() / "w.wtns", r1cs::write_wtns(z));
  constexpr std::uint64_t gib = std::uint64_t{1} << 30;
  auto c = svc.connect();
  // 2^30 / 12 empty constraints: what 1 GiB of zeros holds
  const auto many = sparse_r1cs(svc.dir() / "many.r1cs", pk, static_cast<std::uint32_t>(gib / 12), gib);
  auto why = refusal(c, circom_job("many", svc.dir() / "w.wtns", many));
  EXPECT_NE(why.find("declares 89478485 constraints, more than the " +
                     std::to_string(pk.domain_size - pk.n_public - 1) + " the key's domain holds"),
            std::string::npos)
      << why;
  // a few constraints, but a constraints section of a gigabyte
  const auto big = sparse_r1cs(svc.dir() / "big.r1cs", pk, 4, gib);
  why = refusal(c, circom_job("big", svc.dir() / "w.wtns", big));
  EXPECT_NE(why.find("section 2 (constraints): is 1073741824 bytes, more than 4 constraints over " +
                     std::to_string(pk.n_vars) + " wires can take"),
            std::string::npos)
      << why;
  // nothing reached a worker, which is alive and proves the next job
  EXPECT_TRUE(worker->running());
  c.submit(native_submit("after", circuit, test::seed(), "poison_test"));
  auto out = c.wait("after", 120s);
  EXPECT_TRUE(std::holds_alternative<proto::proof_reply>(out)) << server_logs(svc);
  EXPECT_TRUE(worker->running());
}

TEST(Poison, AJobWhoseSynthesisEndsItsWorkerFailsAfterTheBoundWhileAnotherClientsJobProves) {
  service svc({"1x4096"});
  auto server = svc.start_server();
  auto poisoner = svc.connect(), other = svc.connect();
  poisoner.submit(native_submit("poison", circuit, test::seed(), "poisoner"));
  other.submit(native_submit("innocent", circuit, test::seed() + 1, "other"));
  // Each worker is killed (SIGKILL, as the kernel kills for memory) in the
  // synthesis of the oldest job; a new one starts once the partition is back in the queue.
  for (std::uint32_t n = 1; n <= 3; ++n) {
    auto doomed = svc.start_worker("doomed" + std::to_string(n), {{"CUZK_FAILPOINT", "worker.synthesized"}});
    const auto st = doomed->wait_exit(60s);
    ASSERT_TRUE(st && WIFSIGNALED(*st) && WTERMSIG(*st) == SIGKILL) << "worker " << n << " did not die in synthesis";
    ASSERT_TRUE(eventually(
        [&] {
          const auto s = poisoner.status("poison");
          return s.partitions.at(0).syntheses == n && s.partitions.at(0).state != proto::partition_state::synthesizing;
        },
        20s))
        << server_logs(svc);
  }
  const auto s = poisoner.status("poison");
  EXPECT_EQ(s.state, proto::job_state::failed) << "requeued after its worker died 3 times";
  EXPECT_NE(s.error.find("synthesis of partition 0 ended its worker 3 times (last: worker doomed3"), std::string::npos)
      << s.error;
  EXPECT_NE(s.error.find("the job's input is refused"), std::string::npos) << s.error;
  EXPECT_EQ(other.status("innocent").partitions.at(0).syntheses, 0u) << "a doomed worker took the other client's job";
  auto healthy = svc.start_worker("healthy");
  auto out = other.wait("innocent", 120s);
  const auto* pr = std::get_if<proto::proof_reply>(&out);
  ASSERT_NE(pr, nullptr) << server_logs(svc);
  EXPECT_TRUE(verifies(*key_for(circuit).pk, pr->partitions.at(0).proof_json, pr->partitions.at(0).public_json));
  EXPECT_EQ(poisoner.status("poison").partitions.at(0).syntheses, 3u) << "the poison job was synthesized again";
  EXPECT_TRUE(server->running());
}

}  // namespace
}  // namespace cuzk::test
