// Host memory (issue 24 item 1): a native circuit's key (cuzk setup
// --circuit marks it) keeps its A/B coefficients in its .zkey, but the server
// releases them from the key's SRS region, which the server and workers map;
// its jobs still prove, a witness without its .r1cs is refused with a
// sentence, and a restart or a second load of the file finds the region as it
// is.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <cstdlib>

#include "client/lib/errors.hpp"
#include "harness.hpp"
#include "io/zkey.hpp"
#include "io/zkey_layout.hpp"
#include "seed.hpp"
#include "shm/shm_dir.hpp"
#include "shm/srs_region.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string circuit = "chain:size=20000";

std::uint64_t allocated(const std::string& pool, const std::string& key) {
  struct stat st {};
  EXPECT_EQ(::stat(shm::shm_path(pool + ".srs." + key).c_str(), &st), 0);
  return static_cast<std::uint64_t>(st.st_blocks) * 512;
}

proto::submit native_job(const std::string& id, const std::string& key_id) {
  auto s = native_submit(id, circuit, seed() + std::hash<std::string>{}(id), "host-memory");
  s.zkey = key_id;
  return s;
}

TEST(HostMemory, ANativeKeysCoefficientsLeaveItsRegionAndItsJobsStillProve) {
  service svc({"2x32768"});
  const auto zkey = svc.dir() / "native.zkey";
  ASSERT_EQ(std::system((cli_bin() + " setup --circuit " + circuit + " --zkey " + zkey.string() + " > " +
                         (svc.dir() / "setup.log").string() + " 2>&1")
                            .c_str()),
            0)
      << read_all(svc.dir() / "setup.log");
  const auto shape = io::read_zkey_shape_file(zkey);
  ASSERT_TRUE(shape.native) << "cuzk setup --circuit did not mark the key native";
  ASSERT_GT(shape.n_coefs, 0u) << "the file keeps the coefficients (snarkjs reads them)";
  const std::uint64_t coefs = shape.n_coefs * io::zkey_coef_bytes;

  const auto key_id = load_srs(svc, zkey.string());
  const auto full = allocated(svc.pool(), key_id);
  auto server = svc.start_server({}, {"--key", key_id});
  auto worker = svc.start_worker("w1");
  ASSERT_TRUE(eventually([&] { return server_logs(svc).find("A/B coefficients released") != std::string::npos; }, 60s))
      << server_logs(svc);
  auto region = shm::srs_region::open(svc.pool(), key_id);
  ASSERT_TRUE(region);
  EXPECT_EQ(region->released_bytes(), coefs);
  EXPECT_LE(allocated(svc.pool(), key_id) + coefs - 2 * 4096, full) << "the region still holds the coefficients' pages";

  auto c = svc.connect();
  const auto pk = io::read_zkey_file(zkey);
  auto prove = [&](const std::string& id) {
    ASSERT_TRUE(c.submit(native_job(id, key_id)).created);
    const auto out = c.wait(id, 120s);
    const auto* pr = std::get_if<proto::proof_reply>(&out);
    ASSERT_NE(pr, nullptr) << id << "\n" << server_logs(svc);
    EXPECT_TRUE(verifies(pk, pr->partitions.at(0).proof_json, pr->partitions.at(0).public_json)) << id;
  };
  prove("n1");

  // a witness without its .r1cs would need the coefficients: refused with the reason
  proto::submit w;
  w.job_id = "w1";
  w.client = "host-memory";
  w.zkey = key_id;
  w.work = proto::circom_work{witness_file(svc.dir(), "w.wtns", circuit, seed()).string(), std::nullopt};
  try {
    c.submit(w);
    ADD_FAILURE() << "a witness without its .r1cs was accepted for a native key";
  } catch (const client::server_error& e) {
    EXPECT_EQ(e.code(), proto::error_code::bad_request);
    EXPECT_NE(std::string(e.what()).find("made for a native circuit"), std::string::npos) << e.what();
  }

  // a restart verifies what remains and proves again; loading the file again finds the same region
  EXPECT_EQ(server->terminate(), 0);
  server = svc.start_server({}, {"--key", key_id});
  prove("n2");
  EXPECT_EQ(load_srs(svc, zkey.string()), key_id);
  EXPECT_EQ(shm::srs_region::open(svc.pool(), key_id)->released_bytes(), coefs);
  EXPECT_EQ(server->terminate(), 0);
}

TEST(HostMemory, AServerWhosePoolAndKeysDoNotFitTheHostRefusesToStartNamingTheSizes) {
  service svc({"2x32768"});
  const auto key_id = load_srs(svc, key_for(circuit).path);
  // CUZK_HOST_MEMORY plays a host this small: the pool alone is larger
  auto server = svc.start_server({{"CUZK_HOST_MEMORY", std::to_string(4u << 20)}}, {"--key", key_id});
  const auto st = server->wait_exit(60s);
  ASSERT_TRUE(st) << "the server started on a host too small for its pool";
  EXPECT_NE(WEXITSTATUS(*st), 0);
  const auto log = server_logs(svc);
  EXPECT_NE(log.find("and the SRS regions of its 1 key(s)"), std::string::npos) << log;
  EXPECT_NE(log.find("of memory, and the host has"), std::string::npos) << log;
  // the same pool on this host starts
  auto ok = svc.start_server({}, {"--key", key_id});
  auto c = svc.connect();
  EXPECT_NO_THROW(c.status());
  EXPECT_EQ(ok->terminate(), 0);
}

}  // namespace
}  // namespace cuzk::test
