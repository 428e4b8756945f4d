#include "listeners/authorized_clients.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>

#include <filesystem>
#include <fstream>
#include <set>
#include <thread>
#include <zmq.h>

#include "net/curve_keys.hpp"
#include "listeners/authorized_clients.hpp"

namespace cuzk::server {
namespace {

namespace fs = std::filesystem;

TEST(NetworkIdentity, NamesMapToUidsNoLocalAccountUses) {
  std::set<uid_t> seen;
  for (int i = 0; i < 2000; ++i) {
    const auto u = network_uid("client-" + std::to_string(i));
    EXPECT_TRUE(is_network_uid(u));
    EXPECT_NE(u, static_cast<uid_t>(-1));
    seen.insert(u);
  }
  EXPECT_EQ(seen.size(), 2000u);
  EXPECT_EQ(network_uid("alice"), network_uid("alice"));
  EXPECT_FALSE(is_network_uid(0));
  EXPECT_FALSE(is_network_uid(65534));
  for (const char* ok : {"alice", "node-7.example", "A_b"}) EXPECT_TRUE(is_client_name(ok)) << ok;
  for (const char* bad : {"", ".hidden", "a/b", "a b", "é"}) EXPECT_FALSE(is_client_name(bad)) << bad;
  EXPECT_FALSE(is_client_name(std::string(65, 'a')));
}

class AuthorizedClients : public ::testing::Test {
 protected:
  fs::path dir = fs::temp_directory_path() / ("cuzk-clients-" + std::to_string(::getpid()));
  void SetUp() override { fs::create_directories(dir); }
  void TearDown() override { fs::remove_all(dir); }
  std::string add(const std::string& name) {
    const auto k = net::make_curve_keypair();
    std::ofstream(dir / (name + ".pub")) << "public-key = \"" << k.public_key << "\"\n";
    bump();
    return binary(k.public_key);
  }
  void bump() { fs::last_write_time(dir, fs::last_write_time(dir) + std::chrono::seconds(1)); }
  static std::string binary(const std::string& z85) {
    std::string b(32, '\0');
    zmq_z85_decode(reinterpret_cast<std::uint8_t*>(b.data()), z85.c_str());
    return b;
  }
};

TEST_F(AuthorizedClients, AKeyIsKnownByItsFilesNameUntilTheFileIsRemoved) {
  const auto alice = add("alice");
  authorized_clients c(dir);
  EXPECT_EQ(c.name_of(alice), "alice");
  EXPECT_EQ(c.name_of(binary(net::make_curve_keypair().public_key)), std::nullopt);
  const auto bob = add("bob");
  EXPECT_EQ(c.name_of(bob), "bob") << "a client added while serving";
  fs::remove(dir / "bob.pub");
  bump();
  EXPECT_EQ(c.name_of(bob), std::nullopt) << "a removed client is revoked";
  EXPECT_EQ(c.name_of(alice), "alice");
  // A key file rewritten in place (the directory itself unchanged) is read within a second.
  const auto k2 = net::make_curve_keypair();
  const auto t = fs::last_write_time(dir);
  std::ofstream(dir / "alice.pub", std::ios::trunc) << "public-key = \"" << k2.public_key << "\"\n";
  fs::last_write_time(dir, t);
  std::this_thread::sleep_for(std::chrono::milliseconds(1100));
  EXPECT_EQ(c.name_of(binary(k2.public_key)), "alice");
  EXPECT_EQ(c.name_of(alice), std::nullopt) << "the replaced key still opens the door";
}

TEST_F(AuthorizedClients, ABadDirectoryIsRefusedAtStartAndKeepsTheLastGoodSetAfter) {
  add("alice");
  std::ofstream(dir / "junk.pub") << "not a key\n";
  EXPECT_THROW(authorized_clients{dir}, std::runtime_error);
  fs::remove(dir / "junk.pub");
  const auto alice_key = [&] {
    std::ifstream f(dir / "alice.pub");
    std::string line;
    std::getline(f, line);
    return binary(line.substr(line.find('"') + 1, 40));
  }();
  authorized_clients c(dir);
  std::ofstream(dir / ".x.pub") << "public-key = \"x\"\n";  // a bad name
  bump();
  EXPECT_EQ(c.name_of(alice_key), "alice") << "a typo never opens or closes the door";
  EXPECT_THROW(authorized_clients{dir}, std::runtime_error);
  EXPECT_THROW(authorized_clients{dir / "missing"}, std::runtime_error);
}

TEST_F(AuthorizedClients, ABadFileNeverHoldsBackARevocationAndOnlyItselfWaits) {
  const auto alice = add("alice");
  const auto bob = add("bob");
  authorized_clients c(dir);
  std::ofstream(dir / "junk.pub") << "not a key\n";
  bump();
  EXPECT_EQ(c.name_of(alice), "alice");
  fs::remove(dir / "alice.pub");
  bump();
  EXPECT_EQ(c.name_of(alice), std::nullopt) << "a bad file froze the directory";
  EXPECT_EQ(c.name_of(bob), "bob");
  const auto carol = add("carol");
  EXPECT_EQ(c.name_of(carol), "carol") << "a valid addition waits for nothing";
  // A file added later with a key already authorized takes nothing from its holder.
  std::ifstream in(dir / "bob.pub");
  std::string line;
  std::getline(in, line);
  std::ofstream(dir / "bob2.pub") << line << "\n";
  bump();
  EXPECT_EQ(c.name_of(bob), "bob");
}

}  // namespace
}  // namespace cuzk::server
