// What a client cannot name and where a password cannot be (issue 37): the
// reserved cluster job ids, a claim known by its record's origin and not by
// its name, and the database password's places.
#include "cluster/cluster_credentials.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <fstream>

#include "cluster/cluster_names.hpp"

namespace cuzk::server {
namespace {

TEST(ClusterClaims, AClaimIsARecordTheNodeMarkedNotANameAClientChose) {
  EXPECT_TRUE(reserved_job_id("cluster:1:1"));
  EXPECT_TRUE(reserved_job_id("cluster:"));
  EXPECT_FALSE(reserved_job_id("my-cluster:1:1"));
  EXPECT_FALSE(reserved_job_id("Cluster:1:1"));
  shm::job_record rec;
  std::memset(static_cast<void*>(&rec), 0, sizeof rec);
  std::strcpy(rec.job_id, "cluster:7:1");
  EXPECT_FALSE(cluster_id_of(rec)) << "a client's record under a claim's name";
  rec.origin = static_cast<std::uint8_t>(shm::job_origin::cluster);
  EXPECT_EQ(cluster_id_of(rec), 7);
  std::strcpy(rec.job_id, "job-1");
  EXPECT_FALSE(cluster_id_of(rec));
}

TEST(ClusterCredentials, APasswordIsFoundInEitherFormOfConnectionString) {
  for (const char* with : {"host=db password=x", "password = x host=db", "host=db PASSWORD=x",
                           "postgresql://cuzk:x@db/cuzk", "postgres://cuzk:@db/cuzk", "postgresql://db/cuzk?password=x",
                           "postgresql://db/cuzk?sslmode=require&password=x"})
    EXPECT_TRUE(holds_password(with)) << with;
  for (const char* without : {"host=db user=cuzk dbname=cuzk", "postgresql://cuzk@db/cuzk", "postgresql://db:5432/cuzk",
                              "postgresql://cuzk@db:5432/cuzk?passfile=/etc/cuzk/pgpass", "host=db passfile=/x"})
    EXPECT_FALSE(holds_password(without)) << without;
  EXPECT_TRUE(database_refusal("host=db password=x", true, ""));
  EXPECT_FALSE(database_refusal("host=db passfile=/etc/cuzk/pgpass", true, ""));
}

TEST(ClusterCredentials, ACredentialFileIsReadOnlyWhenNoOneElseMayReadIt) {
  char dir[] = "/tmp/cuzk-cred-XXXXXX";
  ASSERT_TRUE(::mkdtemp(dir));
  const std::string p = std::string(dir) + "/database";
  std::ofstream(p) << "host=db password=x\nignored\n";
  std::string conninfo;
  for (mode_t m : {0644, 0640, 0604, 0660}) {
    ::chmod(p.c_str(), m);
    const auto why = read_credential_file(p, conninfo);
    ASSERT_TRUE(why) << std::oct << m;
    EXPECT_NE(why->find("chmod 600"), std::string::npos) << *why;
  }
  ::chmod(p.c_str(), 0600);
  EXPECT_FALSE(read_credential_file(p, conninfo));
  EXPECT_EQ(conninfo, "host=db password=x");
  const std::string config = std::string(dir) + "/cuzk.toml";
  std::ofstream(config) << "[cluster]\n";
  ::chmod(config.c_str(), 0644);
  EXPECT_TRUE(database_refusal("host=db password=x", false, config));
  ::chmod(config.c_str(), 0600);
  EXPECT_FALSE(database_refusal("host=db password=x", false, config));
  EXPECT_TRUE(read_credential_file(std::string(dir) + "/none", conninfo));
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace cuzk::server
