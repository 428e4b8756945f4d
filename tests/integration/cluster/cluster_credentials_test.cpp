// Where a node's database password may be (issue 37, label cluster): never
// on the command line or in a configuration file others may read (the
// server refuses to start, saying where it goes instead); a file only the
// service's user reads (--cluster-database-file) is accepted, and the node
// joins the cluster with it against a real PostgreSQL.
#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include <fstream>

#include "cluster/cluster_store.hpp"
#include "harness.hpp"
#include "pg_server.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string circuit = "chain:size=64";

void write_text(const fs::path& p, const std::string& s, mode_t mode) {
  std::ofstream(p) << s;
  ::chmod(p.c_str(), mode);
}

/* The server started with these arguments exits 1 within 30 s, its log saying `says`. */
void refused(service& svc, const std::vector<std::string>& args, const std::string& says) {
  auto server = svc.start_server({}, args);
  const auto status = server->wait_exit(30s);
  ASSERT_TRUE(status) << "the server started\n" << server_logs(svc);
  EXPECT_TRUE(WIFEXITED(*status) && WEXITSTATUS(*status) == 1) << server_logs(svc);
  EXPECT_NE(server_logs(svc).find(says), std::string::npos) << server_logs(svc);
  EXPECT_EQ(server_logs(svc).find("s3cret"), std::string::npos) << "the password was quoted\n" << server_logs(svc);
}

TEST(ClusterCredentials, APasswordOnlyComesFromAFileOnlyTheServiceReads) {
  pg_server pg;
  service svc({"1x4096"});
  const auto key_id = load_srs(svc, key_for(circuit).path);
  const std::string with_password = pg.conninfo() + " password=s3cret";
  const std::vector<std::string> node{"--cluster-node", "n1", "--key", key_id};
  auto args = [&](std::vector<std::string> a) {
    a.insert(a.end(), node.begin(), node.end());
    return a;
  };
  refused(svc, args({"--cluster-database", with_password}), "every local user reads a command line");
  refused(svc, args({"--cluster-database=" + pg.conninfo() + "?password=s3cret"}), "--cluster-database-file");
  const auto config = svc.dir() / "cuzk.toml";
  write_text(config, "[cluster]\ndatabase = \"" + with_password + "\"\n", 0644);
  refused(svc, args({"--config", config.string()}), "others may read that file");
  const auto secret = svc.dir() / "database";
  write_text(secret, with_password + "\n", 0644);
  refused(svc, args({"--cluster-database-file", secret.string()}), "chmod 600");
  ::chmod(secret.c_str(), 0600);
  auto server = svc.start_server({}, args({"--cluster-database-file", secret.string()}));
  auto c = svc.connect(20s);
  auto s = native_submit("j1", circuit, seed(), "credentials");
  s.zkey = key_id;
  EXPECT_TRUE(c.submit(s).created) << server_logs(svc);
  EXPECT_TRUE(server::cluster_store(pg.conninfo()).find("uid:" + std::to_string(::getuid()), "j1"))
      << "the node did not record the job in the cluster database\n"
      << server_logs(svc);
  // The same string without its password may stay on the command line (a libpq passfile holds the password).
  EXPECT_EQ(server->terminate(), 0);
  server = svc.start_server({}, args({"--cluster-database", pg.conninfo()}));
  EXPECT_EQ(svc.connect(20s).status("j1").job_id, "j1") << server_logs(svc);
}

}  // namespace
}  // namespace cuzk::test
