// Streamed files and a second uid (DESIGN §9, issue 22): another client can
// neither read, name, extend nor take over a client's upload.
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>

#include "client/lib/errors.hpp"
#include "harness.hpp"
#include "hostile.hpp"
#include "http_get.hpp"
#include "proto/names.hpp"
#include "run.hpp"
#include "seed.hpp"
#include "shm/srs_region.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string circuit = "chain:size=64";

/* The Error nobody gets for this message on a fresh connection ("" when it got another reply or none). */
std::string refusal_as_nobody(const std::string& endpoint, const proto::body& b) {
  const auto out = fs::temp_directory_path() / ("cuzk-upload-refusal-" + std::to_string(::getpid()));
  std::filesystem::remove(out);
  const pid_t child = fork_as_nobody([&] {
    raw_peer p(endpoint);
    p.send(b, 7);
    auto m = p.receive(10000ms);
    const auto* e = m ? std::get_if<proto::error_reply>(&m->body) : nullptr;
    if (!e) return 1;
    std::ofstream(out) << proto::name(e->code) << ": " << e->message;
    return 0;
  });
  EXPECT_EQ(wait_child(child, 30s), 0) << "nobody got no error reply";
  const auto text = read_all(out);
  std::filesystem::remove(out);
  return text;
}

TEST(UploadAccess, AnotherUidCanNeitherReadNameExtendNorReplaceAClientsUpload) {
  REQUIRE_SECOND_UID();
  service svc({"2x4096"});
  const auto spool = svc.dir() / "spool";
  const auto key_id = load_srs(svc, key_for(circuit).path);
  auto server = svc.start_server({}, {"--client-group", "nogroup", "--spool-dir", spool.string()});
  auto c = svc.connect();
  const auto wtns = witness_file(svc.dir(), "mine.wtns", circuit, seed());
  const auto size = fs::file_size(wtns);
  c.upload("u1", proto::upload_kind::wtns, wtns, key_id);

  EXPECT_EQ(fs::status(spool).permissions() & fs::perms::all, fs::perms::owner_all) << "the spool is the service's";
  proto::submit s;
  s.job_id = "steal";
  s.zkey = key_id;
  s.work = proto::circom_work{"upload:u1", std::nullopt};
  const auto named = refusal_as_nobody(svc.endpoint(), s);
  EXPECT_NE(named.find("you have no upload u1"), std::string::npos) << named;
  const auto extended =
      refusal_as_nobody(svc.endpoint(), proto::upload{"u1", proto::upload_kind::wtns, size, size - 1, "x", ""});
  EXPECT_NE(extended.find("no upload u1 in progress"), std::string::npos) << extended;

  // nobody's own upload of the same id is its own file: root's stays whole and provable.
  const pid_t child = fork_as_nobody([&] {
    raw_peer p(svc.endpoint());
    p.send(proto::upload{"u1", proto::upload_kind::r1cs, 10, 0, "0123456789", ""}, 1);
    auto m = p.receive(10000ms);
    return m && std::holds_alternative<proto::upload_ack>(m->body) ? 0 : 1;
  });
  EXPECT_EQ(wait_child(child, 30s), 0);
  auto worker = svc.start_worker("w1");
  proto::submit mine = s;
  mine.job_id = "mine";
  EXPECT_TRUE(c.submit(mine).created);
  const auto r = c.wait("mine", 120s);
  ASSERT_TRUE(std::holds_alternative<proto::proof_reply>(r));
  const auto& part = std::get<proto::proof_reply>(r).partitions.at(0);
  EXPECT_TRUE(verifies(*key_for(circuit).pk, part.proof_json, part.public_json));
  EXPECT_EQ(server->terminate(), 0);
}

TEST(UploadAccess, OneByteUploadsLeaveAtMostTheFilesAllowedAClient) {
  REQUIRE_SECOND_UID();
  service svc({"2x4096"});
  const auto spool = svc.dir() / "spool";
  auto server =
      svc.start_server({}, {"--client-group", "nogroup", "--spool-dir", spool.string(), "--metrics", "127.0.0.1:0"});
  const auto out = fs::temp_directory_path() / ("cuzk-spool-files-" + std::to_string(::getpid()));  // nobody writes it
  std::filesystem::remove(out);
  const pid_t child = fork_as_nobody([&] {  // 70 complete uploads of one byte each, none ever submitted
    raw_peer p(svc.endpoint());
    int acked = 0, busy = 0;
    std::string why;
    for (int i = 0; i < 70; ++i) {
      p.send(proto::upload{"b" + std::to_string(i), proto::upload_kind::r1cs, 1, 0, "x", ""}, std::uint64_t(i + 1));
      auto m = p.receive(10000ms);
      if (m && std::holds_alternative<proto::upload_ack>(m->body)) ++acked;
      if (const auto* e = m ? std::get_if<proto::error_reply>(&m->body) : nullptr;
          e && e->code == proto::error_code::busy)
        ++busy, why = e->message;
    }
    std::ofstream(out) << acked << " " << busy << "\n" << why;
    return 0;
  });
  ASSERT_EQ(wait_child(child, 60s), 0);
  const auto text = read_all(out);
  std::filesystem::remove(out);
  EXPECT_EQ(text.substr(0, text.find('\n')), "64 6")
      << "one client left more files than --max-spool-files-per-client (64)";
  EXPECT_NE(text.find("spooled files no job names yet, the limit per client is 64"), std::string::npos) << text;
  const auto files = std::distance(fs::directory_iterator(spool), fs::directory_iterator{});
  EXPECT_LE(files, 64);
  const auto metrics = http_request(metrics_port(svc.dir()), "/metrics").body;
  EXPECT_NE(metrics.find("\ncuzk_spool_files 64\n"), std::string::npos) << metrics;
  auto c = svc.connect();  // another client still uploads
  std::ofstream(svc.dir() / "one.r1cs") << "y";
  c.upload("mine", proto::upload_kind::r1cs, svc.dir() / "one.r1cs", "");
  EXPECT_EQ(server->terminate(), 0);
}

TEST(UploadAccess, AWitnessUploadTellsNothingOfAKeyTheClientMayNotName) {
  REQUIRE_SECOND_UID();
  service svc({"2x4096"});
  const auto spool = svc.dir() / "spool";
  auto server = svc.start_server({}, {"--client-group", "nogroup", "--spool-dir", spool.string()});
  // root's private key file brings the key into the pool: nobody may not name it
  const auto path = svc.dir() / "private.zkey";
  fs::copy_file(key_for(circuit).path, path);
  ::chmod(path.c_str(), 0600);
  auto c = svc.connect();
  auto mine = native_submit("mine", circuit, seed(), "root");
  mine.zkey = path.string();
  ASSERT_TRUE(c.submit(mine).created);
  const auto ids = shm::list_srs(svc.pool());
  ASSERT_EQ(ids.size(), 1u);
  const auto& id = ids[0];
  // a real witness of that key's circuit: its header would pass the size check
  const auto wtns = read_all(witness_file(svc.dir(), "w.wtns", circuit, seed()));
  const auto upload_for = [&](const std::string& key) {
    return proto::upload{"w", proto::upload_kind::wtns, wtns.size(), 0, wtns, key};
  };
  const std::string unknown = "0123456789abcdef0123456789abcdef";
  const auto theirs = refusal_as_nobody(svc.endpoint(), upload_for(id));
  const auto none = refusal_as_nobody(svc.endpoint(), upload_for(unknown));
  EXPECT_NE(none.find("holds no key"), std::string::npos) << none;
  auto replaced = [](std::string s, const std::string& what) {
    if (auto at = s.find(what); at != std::string::npos) s.replace(at, what.size(), "ID");
    return s;
  };
  EXPECT_EQ(replaced(theirs, id), replaced(none, unknown)) << "the upload told nobody that the pool holds key " << id;
  c.upload("own", proto::upload_kind::wtns, svc.dir() / "w.wtns", id);  // its owner may
  EXPECT_EQ(server->terminate(), 0);
}

}  // namespace
}  // namespace cuzk::test
