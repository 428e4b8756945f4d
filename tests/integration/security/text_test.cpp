// Client text that reaches the operator (issue 19): a job error that quotes a
// long multi-byte path crosses the job table's bound, and a client name holds
// bidi overrides and C1 controls. The operator's `cuzk status` (plain and
// --json) still answers, with valid UTF-8 and none of those characters raw,
// and so does the pool's `cuzk-shm status --json`; the server's and worker's
// logs carry none of them either.
#include <fcntl.h>
#include <gtest/gtest.h>
#include <sys/stat.h>

#include <fstream>
#include <nlohmann/json.hpp>

#include "harness.hpp"
#include "hostile.hpp"
#include "r1cs/wtns_file.hpp"
#include "run.hpp"
#include "seed.hpp"
#include "shm/layout.hpp"
#include "util/utf8.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string circuit = "chain:size=64";
const std::string rlo = "\xe2\x80\xae", lri = "\xe2\x81\xa6", csi_c1 = "\xc2\x9b", nel_c1 = "\xc2\x85";

/* Why `text` would hurt a terminal or a protobuf reader, or empty: bytes that are not
   UTF-8, C0 controls other than newline and tab, DEL, C1 controls, bidi overrides. */
std::string hostile_in(const std::string& text) {
  for (std::size_t i = 0; i < text.size();) {
    char32_t cp = 0;
    const auto n = util::utf8_sequence(text, i, &cp);
    if (n == 0) return "a byte that is not UTF-8 at " + std::to_string(i);
    if ((cp < 0x20 && cp != '\n' && cp != '\t') || (cp >= 0x7f && cp <= 0x9f) || (cp >= 0x202a && cp <= 0x202e) ||
        (cp >= 0x2066 && cp <= 0x2069))
      return "U+" + std::to_string(static_cast<unsigned>(cp)) + " (decimal) raw at " + std::to_string(i);
    i += n;
  }
  return "";
}

std::string all_logs(const service& svc) {
  std::string out;
  for (const auto& e : fs::directory_iterator(svc.dir()))
    if (e.path().extension() == ".log") out += read_all(e.path());
  return out;
}

TEST(Text, AnErrorCutInsideACharacterAndBidiClientNamesLeaveStatusAndLogsReadable) {
  service svc({"2x4096"});
  auto server = svc.start_server();
  const auto& key = key_for(circuit);

  // A witness under directories whose names are hostile text, then many CJK characters:
  // "the witness PATH changed after the job was submitted" is well over the job table's
  // error bound, and the bound falls inside a three-byte character.
  const fs::path named = svc.dir() / (rlo + "gpj.exe" + lri + csi_c1 + "31m" + nel_c1);
  std::string han;
  for (int i = 0; i < 80; ++i) han += "\xe4\xb8\xad";  // 中, 240 bytes: a name stays under 255
  const std::string head = "the witness " + (named / han).string() + "/";
  const std::string pad((shm::error_bytes - 1 - head.size()) % 3 == 0 ? 1 : 0, 'a');
  const fs::path dir = named / han / (pad + han);
  fs::create_directories(dir);
  const fs::path wtns = dir / "w.wtns";
  ASSERT_LT(head.size() + pad.size(), shm::error_bytes - 1);
  ASSERT_GT(head.size() + pad.size() + han.size(), shm::error_bytes);
  ASSERT_NE((shm::error_bytes - 1 - head.size() - pad.size()) % 3, 0u);  // the old cut: inside a character
  std::vector<ff::fr_t> z(key.pk->n_vars, ff::fr_t::one());
  const auto bytes = r1cs::write_wtns(z);
  std::ofstream(wtns, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));

  auto c = svc.connect();
  proto::submit s;
  s.job_id = "hostile-text";
  s.client = "ev" + rlo + "il" + csi_c1 + "2J" + lri;
  s.zkey = key.path;
  s.work = proto::circom_work{wtns.string(), std::nullopt};
  ASSERT_TRUE(c.submit(s).created);
  // The witness changes after the submission: the worker's error quotes the whole path.
  const timespec times[2] = {{0, UTIME_OMIT}, {1'000'000'000, 0}};
  ASSERT_EQ(::utimensat(AT_FDCWD, wtns.c_str(), times, 0), 0);
  auto worker = svc.start_worker("w1");
  try {
    const auto out = c.wait(s.job_id, 60s);
    const auto* st = std::get_if<proto::job_status>(&out);
    ASSERT_NE(st, nullptr) << "the job did not fail";
    EXPECT_EQ(st->state, proto::job_state::failed);
    EXPECT_EQ(st->error.rfind("the witness ", 0), 0u) << st->error;
    EXPECT_EQ(hostile_in(st->error), "") << st->error;
    EXPECT_EQ(hostile_in(st->client), "") << st->client;
  } catch (const std::exception& e) {
    ADD_FAILURE() << "the failed job's status cannot be read: " << e.what();
  }

  const auto json = run_cli("", {"status", "--endpoint", svc.endpoint(), "--json"});
  EXPECT_EQ(json.rc, 0) << json.out << json.err;
  EXPECT_EQ(hostile_in(json.out), "") << json.out;
  const auto parsed = nlohmann::json::parse(json.out, nullptr, false);
  ASSERT_FALSE(parsed.is_discarded()) << json.out;
  ASSERT_EQ(parsed["jobs"].size(), 1u) << json.out;
  const auto& job = parsed["jobs"][0];
  EXPECT_EQ(job["job_id"], s.job_id);
  EXPECT_EQ(job["error"].get<std::string>().rfind("the witness ", 0), 0u) << json.out;
  EXPECT_NE(job["error"].get<std::string>().find("\xe4\xb8\xad"), std::string::npos) << "the CJK text is kept\n"
                                                                                     << json.out;

  const auto plain = run_cli("", {"status", "--endpoint", svc.endpoint()});
  EXPECT_EQ(plain.rc, 0) << plain.out << plain.err;
  EXPECT_EQ(hostile_in(plain.out), "") << plain.out;
  EXPECT_NE(plain.out.find("\\u{202e}gpj.exe\\u{2066}\\u{009b}31m"), std::string::npos) << plain.out;

  const auto one = run_cli("", {"status", "--endpoint", svc.endpoint(), "--job-id", s.job_id});
  EXPECT_EQ(one.rc, 1) << "a failed job's status exits 1\n" << one.out << one.err;
  EXPECT_EQ(hostile_in(one.out + one.err), "") << one.out << one.err;
  EXPECT_NE(one.out.find("by ev\\u{202e}il\\u{009b}2J\\u{2066}"), std::string::npos) << one.out;

  const auto pool = run(shell_quote(shm_bin()) + " status --json --name " + svc.pool());
  EXPECT_EQ(pool.rc, 0) << pool.out << pool.err;
  EXPECT_EQ(hostile_in(pool.out), "") << pool.out;
  EXPECT_NE(pool.out.find("the witness "), std::string::npos) << pool.out;

  const auto logs = all_logs(svc);
  EXPECT_NE(logs.find("changed after"), std::string::npos) << "the error was not logged\n" << logs;
  EXPECT_EQ(hostile_in(logs), "") << logs;
  EXPECT_TRUE(server->running());
}

}  // namespace
}  // namespace cuzk::test
