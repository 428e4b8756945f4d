#include <sys/stat.h>

#include <gtest/gtest.h>

#include "net/endpoint.hpp"
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

TEST(NetEndpoint, BindingToADirectoryThatDoesNotExistThrows) {
  zmq::context_t ctx;
  zmq::socket_t router(ctx, zmq::socket_type::router);
  EXPECT_THROW(bind_endpoint(router, "ipc:///nonexistent-cuzk-dir/x.sock"), zmq::error_t);
}

}  // namespace
}  // namespace cuzk::net
