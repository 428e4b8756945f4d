// Envelope I/O over real DEALER and ROUTER sockets: replies reach the peer
// that asked, a peer that is gone is unreachable, and frames of the wrong
// shape or size come out as decode errors, not exceptions.
#include <chrono>
#include <thread>

#include <gtest/gtest.h>

#include "net/endpoint.hpp"
#include "net/envelope_io.hpp"
#include "net/options.hpp"
#include "proto/limits.hpp"
#include "temp_dir.hpp"

namespace cuzk::net {
namespace {

using namespace std::chrono_literals;

struct NetEnvelopeIo : testing::Test {
  test::temp_dir dir;
  zmq::context_t ctx;
  zmq::socket_t router{ctx, zmq::socket_type::router};
  zmq::socket_t dealer{ctx, zmq::socket_type::dealer};
  std::string endpoint = dir.ipc("cuzk.sock");

  void SetUp() override {
    configure_router(router);
    bind_endpoint(router, endpoint);
    configure_dealer(dealer);
    dealer.connect(endpoint);
  }

  /* Waits (up to 5 s) for a message, as a server loop's poll would. */
  std::optional<routed> next_routed() {
    zmq::pollitem_t item{router.handle(), 0, ZMQ_POLLIN, 0};
    if (zmq::poll(&item, 1, 5000ms) == 0) return std::nullopt;
    return receive_routed(router);
  }
  std::optional<decoded> next_reply() {
    zmq::pollitem_t item{dealer.handle(), 0, ZMQ_POLLIN, 0};
    if (zmq::poll(&item, 1, 5000ms) == 0) return std::nullopt;
    return receive(dealer);
  }
  void send_when_connected(const proto::message& m) {
    // ZMQ_IMMEDIATE: would_block until the connection completes.
    for (int i = 0; i < 500; ++i) {
      if (send(dealer, m) == send_result::sent) return;
      std::this_thread::sleep_for(10ms);
    }
    FAIL() << "the dealer never connected";
  }
};

TEST_F(NetEnvelopeIo, ARequestReachesTheRouterAndTheReplyReachesTheDealer) {
  send_when_connected({9, proto::fetch{"job-1"}});
  auto in = next_routed();
  ASSERT_TRUE(in);
  ASSERT_TRUE(in->msg) << in->msg.error().reason;
  EXPECT_EQ(in->msg->request_id, 9u);
  EXPECT_EQ(std::get<proto::fetch>(in->msg->body).job_id, "job-1");

  ASSERT_EQ(send_to(router, in->peer, {9, proto::accepted{"job-1", true, proto::job_state::queued}}),
            send_result::sent);
  auto reply = next_reply();
  ASSERT_TRUE(reply);
  ASSERT_TRUE(*reply);
  EXPECT_EQ(std::get<proto::accepted>((*reply)->body).job_id, "job-1");
}

TEST_F(NetEnvelopeIo, ReceivingWithNothingQueuedIsAnEmptyOptional) {
  EXPECT_FALSE(receive_routed(router));
  EXPECT_FALSE(receive(dealer));
}

TEST_F(NetEnvelopeIo, ADealerWithNoConnectionWouldBlock) {
  zmq::socket_t lonely(ctx, zmq::socket_type::dealer);
  configure_dealer(lonely);
  lonely.connect(dir.ipc("nobody.sock"));
  EXPECT_EQ(send(lonely, {1, proto::bye{1}}), send_result::would_block);
}

TEST_F(NetEnvelopeIo, SendingToAPeerThatIsGoneIsUnreachable) {
  EXPECT_EQ(send_to(router, "no-such-peer", {1, proto::bye{1}}), send_result::unreachable);
}

TEST_F(NetEnvelopeIo, ExtraFramesAreAMalformedMessageAndTheSocketStaysInStep) {
  auto frame = proto::encode({1, proto::fetch{"x"}});
  for (int i = 0; i < 500 && !dealer.send(zmq::buffer(frame), zmq::send_flags::dontwait | zmq::send_flags::sndmore);
       ++i)
    std::this_thread::sleep_for(10ms);
  (void)dealer.send(zmq::str_buffer(""), zmq::send_flags::sndmore);
  (void)dealer.send(zmq::buffer(frame), zmq::send_flags::none);
  auto in = next_routed();
  ASSERT_TRUE(in);
  ASSERT_FALSE(in->msg);
  EXPECT_EQ(in->msg.error().code, proto::error_code::malformed);
  EXPECT_NE(in->msg.error().reason.find("4 frames"), std::string::npos) << in->msg.error().reason;

  send_when_connected({2, proto::fetch{"y"}});
  auto next = next_routed();
  ASSERT_TRUE(next && next->msg);
  EXPECT_EQ(next->msg->request_id, 2u);
}

TEST_F(NetEnvelopeIo, AFrameOverTheProtocolLimitIsTooLargeAndGetsAnErrorReply) {
  std::vector<std::uint8_t> big(proto::max_frame_bytes + 1, 0x55);
  for (int i = 0; i < 500 && !dealer.send(zmq::buffer(big), zmq::send_flags::dontwait); ++i)
    std::this_thread::sleep_for(10ms);
  auto in = next_routed();
  ASSERT_TRUE(in);
  ASSERT_FALSE(in->msg);
  EXPECT_EQ(in->msg.error().code, proto::error_code::too_large);
  ASSERT_EQ(send_to(router, in->peer, proto::error_message(in->msg.error())), send_result::sent);
  auto reply = next_reply();
  ASSERT_TRUE(reply && *reply);
  EXPECT_EQ(std::get<proto::error_reply>((*reply)->body).code, proto::error_code::too_large);
}

TEST_F(NetEnvelopeIo, AFrameOverTheHardLimitIsDroppedByLibzmqAndThePeerReconnects) {
  std::vector<std::uint8_t> huge(proto::zmq_max_message_bytes + 1, 0x55);
  for (int i = 0; i < 500 && !dealer.send(zmq::buffer(huge), zmq::send_flags::dontwait); ++i)
    std::this_thread::sleep_for(10ms);
  zmq::pollitem_t item{router.handle(), 0, ZMQ_POLLIN, 0};
  EXPECT_EQ(zmq::poll(&item, 1, 300ms), 0) << "libzmq must not deliver it";
  // The DEALER reconnects by itself; later messages get through (the first
  // ones may still go down the dropped connection, so keep trying).
  for (int attempt = 0; attempt < 50; ++attempt) {
    (void)send(dealer, {3, proto::bye{1}});
    if (zmq::poll(&item, 1, 100ms) == 0) continue;
    auto in = receive_routed(router);
    ASSERT_TRUE(in && in->msg);
    EXPECT_EQ(in->msg->request_id, 3u);
    return;
  }
  FAIL() << "the dealer never got through again";
}

}  // namespace
}  // namespace cuzk::net
