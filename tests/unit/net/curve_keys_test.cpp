#include "net/curve_keys.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <zmq.h>

#include <fstream>

#include "temp_dir.hpp"

namespace cuzk::net {
namespace {

namespace fs = std::filesystem;

TEST(CurveKeys, AWrittenKeypairReadsBackWithTheSecretOwnerOnly) {
  test::temp_dir d;
  const auto k = make_curve_keypair();
  EXPECT_TRUE(is_curve_key(k.public_key));
  EXPECT_TRUE(is_curve_key(k.secret_key));
  // libzmq agrees the public key is the secret key's
  char derived[41];
  ASSERT_EQ(zmq_curve_public(derived, k.secret_key.c_str()), 0);
  EXPECT_EQ(k.public_key, derived);

  const auto secret = d.path() / "client.key";
  write_curve_keys(secret, k);
  EXPECT_EQ(fs::status(secret).permissions() & fs::perms::all, fs::perms::owner_read | fs::perms::owner_write);
  const auto back = read_curve_secret(secret);
  EXPECT_EQ(back.public_key, k.public_key);
  EXPECT_EQ(back.secret_key, k.secret_key);
  EXPECT_EQ(read_curve_public(d.path() / "client.key.pub"), k.public_key);
  EXPECT_THROW(write_curve_keys(secret, make_curve_keypair()), std::runtime_error) << "overwrote a key file";
}

TEST(CurveKeys, MalformedFilesAreRefusedNamingTheFile) {
  test::temp_dir d;
  const auto k = make_curve_keypair();
  auto write = [&](const std::string& name, const std::string& text) {
    std::ofstream(d.path() / name) << text;
    return d.path() / name;
  };
  const auto bad = write("bad.pub", "public-key = \"too-short\"\n");
  try {
    (void)read_curve_public(bad);
    ADD_FAILURE();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("bad.pub"), std::string::npos) << e.what();
  }
  EXPECT_THROW((void)read_curve_public(write("junk.pub", "public-key " + k.public_key + "\n")), std::runtime_error);
  EXPECT_THROW((void)read_curve_public(write("none.pub", "# nothing\n")), std::runtime_error);
  EXPECT_THROW((void)read_curve_secret(write("pub-only.key", "public-key = \"" + k.public_key + "\"\n")),
               std::runtime_error);
  // A secret key file handed over as a public one is refused (it would leak to the clients directory).
  const auto secret = d.path() / "s.key";
  write_curve_keys(secret, k);
  EXPECT_THROW((void)read_curve_public(secret), std::runtime_error);
  EXPECT_FALSE(is_curve_key(std::string(40, '"')));
}

}  // namespace
}  // namespace cuzk::net
