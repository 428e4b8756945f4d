#include <sys/stat.h>

#include <gtest/gtest.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>

#include <fstream>

#include "net/endpoint.hpp"
#include "net/peer.hpp"
#include "temp_dir.hpp"

namespace cuzk::net {
namespace {

TEST(NetEndpoint, IpcPathIsTheTextAfterTheScheme) {
  EXPECT_EQ(ipc_path("ipc:///run/cuzk/cuzk.sock"), "/run/cuzk/cuzk.sock");
  EXPECT_EQ(ipc_path("ipc://rel.sock"), "rel.sock");
  EXPECT_FALSE(ipc_path("ipc://@abstract"));
  EXPECT_FALSE(ipc_path("tcp://127.0.0.1:5555"));
  EXPECT_FALSE(ipc_path("ipc://"));
}

TEST(NetEndpoint, BindingAnIpcEndpointMakesTheSocketFileGroupReadWrite) {
  test::temp_dir dir;
  zmq::context_t ctx;
  zmq::socket_t router(ctx, zmq::socket_type::router);
  bind_endpoint(router, dir.ipc("cuzk.sock"));
  struct stat st {};
  ASSERT_EQ(::stat((dir.path() / "cuzk.sock").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0660u);
}

TEST(NetEndpoint, TheModeCanBeChosen) {
  test::temp_dir dir;
  zmq::context_t ctx;
  zmq::socket_t router(ctx, zmq::socket_type::router);
  bind_endpoint(router, dir.ipc("open.sock"), 0600);
  struct stat st {};
  ASSERT_EQ(::stat((dir.path() / "open.sock").c_str(), &st), 0);
  EXPECT_EQ(st.st_mode & 0777, 0600u);
}

TEST(NetEndpoint, BindingOverASocketALiveProcessAnswersOnIsRefused) {
  test::temp_dir dir;
  zmq::context_t ctx;
  zmq::socket_t first(ctx, zmq::socket_type::router), second(ctx, zmq::socket_type::router);
  bind_endpoint(first, dir.ipc("live.sock"));
  EXPECT_TRUE(ipc_answers((dir.path() / "live.sock").string()));
  EXPECT_THROW(bind_endpoint(second, dir.ipc("live.sock")), std::runtime_error);
}

TEST(NetEndpoint, AStaleSocketFileNobodyAnswersOnIsReplaced) {
  test::temp_dir dir;
  const auto path = (dir.path() / "stale.sock").string();
  sockaddr_un a{};
  a.sun_family = AF_UNIX;
  std::memcpy(a.sun_path, path.c_str(), path.size() + 1);
  const int fd = ::socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_EQ(::bind(fd, reinterpret_cast<const sockaddr*>(&a), sizeof a),
            0);  // bound, never listening: a dead server's file
  ::close(fd);
  EXPECT_FALSE(ipc_answers(path));
  zmq::context_t ctx;
  zmq::socket_t s(ctx, zmq::socket_type::router);
  EXPECT_NO_THROW(bind_endpoint(s, dir.ipc("stale.sock")));
  EXPECT_TRUE(ipc_answers(path));
}

TEST(NetEndpoint, BindingOverAFileThatIsNotASocketIsRefused) {
  test::temp_dir dir;
  { std::ofstream(dir.path() / "plain.sock") << "x"; }
  zmq::context_t ctx;
  zmq::socket_t s(ctx, zmq::socket_type::router);
  EXPECT_THROW(bind_endpoint(s, dir.ipc("plain.sock")), std::runtime_error);
}

// An abstract socket has no file to chown: a group there would limit nobody (issue 19).
TEST(NetEndpoint, AGroupForAnEndpointWithoutASocketFileIsRefusedNotIgnored) {
  zmq::context_t ctx;
  zmq::socket_t s(ctx, zmq::socket_type::router);
  const std::string abstract = "ipc://@cuzk-endpoint-test-" + std::to_string(::getpid());
  try {
    bind_endpoint(s, abstract, 0660, ::getgid());
    ADD_FAILURE() << "bound " << abstract << " with a group";
  } catch (const std::invalid_argument& e) {
    EXPECT_NE(std::string(e.what()).find(abstract + " has no socket file whose group could be set"), std::string::npos)
        << e.what();
  }
  EXPECT_NO_THROW(bind_endpoint(s, abstract));  // without a group it binds, and was not bound before
}

TEST(NetEndpoint, TheGroupCanBeSetAndUnknownGroupsAreNamed) {
  test::temp_dir dir;
  zmq::context_t ctx;
  zmq::socket_t s(ctx, zmq::socket_type::router);
  bind_endpoint(s, dir.ipc("grp.sock"), 0660, ::getgid());
  struct stat st {};
  ASSERT_EQ(::stat((dir.path() / "grp.sock").c_str(), &st), 0);
  EXPECT_EQ(st.st_gid, ::getgid());
  EXPECT_EQ(group_id("0"), 0u);
  try {
    group_id("no-such-group-cuzk");
    ADD_FAILURE();
  } catch (const std::runtime_error& e) {
    EXPECT_NE(std::string(e.what()).find("no-such-group-cuzk"), std::string::npos);
  }
}

TEST(NetPeer, PeerAddressesCarryUidGidAndPid) {
  const auto c = parse_peer_address("localhost:1000:100:4242");
  ASSERT_TRUE(c);
  EXPECT_EQ(c->uid, 1000u);
  EXPECT_EQ(c->gid, 100u);
  EXPECT_EQ(c->pid, 4242);
  EXPECT_FALSE(parse_peer_address("127.0.0.1"));
  EXPECT_FALSE(parse_peer_address("x:1:2:"));
  EXPECT_FALSE(parse_peer_address("x:a:2:3"));
}

TEST(NetPeer, AnIpcMessageCarriesTheSendersCredentials) {
  test::temp_dir dir;
  zmq::context_t ctx;
  zmq::socket_t router(ctx, zmq::socket_type::router), dealer(ctx, zmq::socket_type::dealer);
  bind_endpoint(router, dir.ipc("peer.sock"));
  dealer.connect(dir.ipc("peer.sock"));
  dealer.send(zmq::str_buffer("hi"), zmq::send_flags::none);
  zmq::message_t id, body;
  ASSERT_TRUE(router.recv(id));
  ASSERT_TRUE(router.recv(body));
  const auto c = peer_of(body);
  ASSERT_TRUE(c);
  EXPECT_EQ(c->uid, ::getuid());
  EXPECT_EQ(c->gid, ::getgid());
  EXPECT_EQ(c->pid, ::getpid());
}

TEST(NetPeer, ReadPermissionFollowsOwnerGroupAndOther) {
  const peer_credentials nobody{65534, 65534, 1};
  EXPECT_TRUE(may_read(nobody, 65534, 0, 0400));
  EXPECT_FALSE(may_read(nobody, 65534, 0, 0040));  // the owner's bits decide for the owner
  EXPECT_TRUE(may_read(nobody, 0, 65534, 0040));
  EXPECT_FALSE(may_read(nobody, 0, 0, 0640));
  EXPECT_TRUE(may_read(nobody, 0, 0, 0644));
  EXPECT_TRUE(may_read(peer_credentials{0, 0, 1}, 1, 1, 0));
}

TEST(NetEndpoint, BindingToADirectoryThatDoesNotExistThrows) {
  zmq::context_t ctx;
  zmq::socket_t router(ctx, zmq::socket_type::router);
  EXPECT_THROW(bind_endpoint(router, "ipc:///nonexistent-cuzk-dir/x.sock"), zmq::error_t);
}

}  // namespace
}  // namespace cuzk::net
