// How cluster jobs are named on a node, and the connection string's liveness settings.
#include "cluster/cluster_names.hpp"

#include <gtest/gtest.h>

#include "cluster/cluster_store.hpp"
#include "util/hex.hpp"

namespace cuzk::server {
namespace {

TEST(ClusterNames, ALocalJobIdNamesItsRowAndClaim) {
  EXPECT_EQ(local_job_id(42, 3), "cluster:42:3");
  EXPECT_EQ(cluster_id_of(local_job_id(42, 3)), 42);
  EXPECT_EQ(cluster_id_of("cluster:9223372036854775807:4294967295"), 9223372036854775807LL);
  for (const char* bad : {"cluster:42", "cluster:", "cluster:x:1", "cluster:1:", "cluster:1:2:3", "job-1",
                          "cluster:1:-2", "Cluster:1:2", "cluster:1:99999999999"})
    EXPECT_FALSE(cluster_id_of(bad)) << bad;
}

TEST(ClusterNames, AnOwnerNameMapsToTheUidItsLocalJobHas) {
  EXPECT_EQ(local_uid_of("uid:1000"), 1000u);
  EXPECT_EQ(local_uid_of("net:alice"), network_uid("alice"));
  EXPECT_TRUE(is_network_uid(*local_uid_of("net:alice")));
  for (const char* bad : {"uid:", "uid:x", "uid:-1", "uid:4294967296", "alice", ""})
    EXPECT_FALSE(local_uid_of(bad)) << bad;
}

TEST(ClusterNames, LivenessSettingsAreAddedOnlyWhereTheOperatorSetNone) {
  EXPECT_EQ(with_liveness("host=db dbname=cuzk"),
            "host=db dbname=cuzk connect_timeout=5 keepalives_idle=5 keepalives_interval=2 keepalives_count=3 "
            "tcp_user_timeout=10000");
  EXPECT_EQ(with_liveness("postgresql://cuzk@db/cuzk"),
            "postgresql://cuzk@db/cuzk?connect_timeout=5&keepalives_idle=5&keepalives_interval=2&keepalives_count=3"
            "&tcp_user_timeout=10000");
  const auto own = with_liveness("postgresql://db/cuzk?sslmode=require&connect_timeout=30");
  EXPECT_NE(own.find("connect_timeout=30"), std::string::npos);
  EXPECT_EQ(own.find("connect_timeout=5"), std::string::npos);
  EXPECT_NE(own.find("&keepalives_idle=5"), std::string::npos);
}

TEST(Hex, RoundTripsAndRefusesWhatIsNotHex) {
  const std::string bytes("\x00\x01\xfe\xff\x7f", 5);
  EXPECT_EQ(util::to_hex(bytes), "0001feff7f");
  EXPECT_EQ(util::from_hex("0001FEff7f"), bytes);
  EXPECT_FALSE(util::from_hex("abc"));
  EXPECT_FALSE(util::from_hex("zz"));
  EXPECT_EQ(util::from_hex(""), std::string());
}

}  // namespace
}  // namespace cuzk::server
