// `cuzk submit --wait` against a server that lies (issue 19): a raw ZeroMQ
// ROUTER answers Submit with Accepted and Wait with a *valid* proof under the
// client's own key, but of another statement (other inputs). The CLI must
// refuse it, exit 1 and leave no proof file; the proof of its own statement
// it accepts.
#include <gtest/gtest.h>
#include <zmq.hpp>

#include <atomic>
#include <fstream>
#include <nlohmann/json.hpp>
#include <thread>

#include "circuits/registry.hpp"
#include "groth16/native.hpp"
#include "harness.hpp"
#include "io/snarkjs_json.hpp"
#include "proto/codec.hpp"
#include "r1cs/wtns_file.hpp"
#include "run.hpp"
#include "seed.hpp"

namespace cuzk::test {
namespace {

using namespace std::chrono_literals;

const std::string circuit = "chain:size=64";

/* The witness and a proof of the circuit on these inputs, under the test key. */
struct proven {
  std::vector<ff::fr_t> z;
  proto::partition_proof proof;
};

proven prove(const std::string& inputs_json) {
  const auto& pk = *key_for(circuit).pk;
  auto c = circuits::make_circuit(circuit);
  groth16::basic_prover_buffers<curves::bls12_381> buf(pk);
  groth16::synthesize_into(pk, *c, *c->parse_inputs(nlohmann::json::parse(inputs_json)), buf);
  const auto p = groth16::prove(pk, buf.z, buf.a, buf.b, buf.c);
  const std::vector<ff::fr_t> pub(buf.z.begin() + 1, buf.z.begin() + 1 + pk.n_public);
  return {buf.z, {io::proof_to_json(p).dump(), io::public_to_json(pub).dump(), std::nullopt}};
}

/* A ROUTER on an ipc endpoint that accepts every Submit and answers every
   Wait or Fetch with `reply`, until destroyed. */
class fake_server {
 public:
  fake_server(const std::string& endpoint, proto::partition_proof reply) : reply_(std::move(reply)) {
    s_.set(zmq::sockopt::linger, 0);
    s_.bind(endpoint);
    thread_ = std::thread([this] { serve(); });
  }
  ~fake_server() {
    stop_ = true;
    thread_.join();
  }

 private:
  void serve() {
    while (!stop_) {
      zmq::pollitem_t item{s_.handle(), 0, ZMQ_POLLIN, 0};
      if (zmq::poll(&item, 1, 50ms) <= 0) continue;
      zmq::message_t id, frame;
      if (!s_.recv(id) || !id.more() || !s_.recv(frame)) continue;
      auto m = proto::decode({static_cast<const std::uint8_t*>(frame.data()), frame.size()});
      if (!m) continue;
      proto::body answer;
      if (const auto* sub = std::get_if<proto::submit>(&m->body))
        answer = proto::accepted{sub->job_id, true, proto::job_state::queued};
      else if (const auto* w = std::get_if<proto::wait_request>(&m->body))
        answer = proto::proof_reply{w->job_id, {reply_}};
      else if (const auto* f = std::get_if<proto::fetch>(&m->body))
        answer = proto::proof_reply{f->job_id, {reply_}};
      else
        continue;
      const auto bytes = proto::encode(proto::message{m->request_id, answer});
      s_.send(id, zmq::send_flags::sndmore);
      s_.send(zmq::buffer(bytes), zmq::send_flags::none);
    }
  }

  proto::partition_proof reply_;
  zmq::context_t ctx_;
  zmq::socket_t s_{ctx_, zmq::socket_type::router};
  std::atomic<bool> stop_{false};
  std::thread thread_;
};

void write_text(const fs::path& p, const std::string& text) { std::ofstream(p) << text; }

/* cuzk submit --wait of `work` (--circuit ... --inputs ... or --wtns ...) against the fake server. */
run_result submit_wait(const temp_dir& dir, const std::string& endpoint, const std::vector<std::string>& work) {
  std::string cmd = "timeout 60 " + cli_bin() + " submit --endpoint " + endpoint + " --zkey " + key_for(circuit).path +
                    " --job-id mine --wait --proof " + (dir.path / "p.json").string() + " --public " +
                    (dir.path / "pub.json").string() + " --timeout 20";
  for (const auto& w : work) cmd += " " + w;
  return run(cmd);
}

TEST(SubmitWait, AValidProofOfAnotherStatementIsRefusedForNativeInputsAndForAWitness) {
  temp_dir dir;
  const std::string mine = inputs_for(circuit, test::seed()), theirs = inputs_for(circuit, test::seed() + 1);
  const auto own = prove(mine), other = prove(theirs);
  ASSERT_NE(own.proof.public_json, other.proof.public_json);
  write_text(dir.path / "in.json", mine);
  const auto wtns = dir.write("mine.wtns", r1cs::write_wtns(own.z));
  const std::vector<std::vector<std::string>> works = {
      {"--circuit", circuit, "--inputs", (dir.path / "in.json").string()}, {"--wtns", wtns.string()}};
  for (const auto& work : works) {
    const std::string endpoint = "ipc://" + (dir.path / "fake.sock").string();
    {
      fake_server liar(endpoint, other.proof);
      const auto r = submit_wait(dir, endpoint, work);
      EXPECT_EQ(r.rc, 1) << work[0] << "\n" << r.out << r.err;
      EXPECT_NE(r.err.find("the proof's public signals are not your statement's"), std::string::npos) << work[0] << "\n"
                                                                                                      << r.err;
      EXPECT_FALSE(fs::exists(dir.path / "p.json")) << work[0];
      EXPECT_FALSE(fs::exists(dir.path / "pub.json")) << work[0];
    }
    {
      fake_server honest(endpoint, own.proof);
      const auto r = submit_wait(dir, endpoint, work);
      EXPECT_EQ(r.rc, 0) << work[0] << "\n" << r.out << r.err;
      EXPECT_TRUE(fs::exists(dir.path / "p.json")) << work[0];
      fs::remove(dir.path / "p.json");
      fs::remove(dir.path / "pub.json");
    }
  }
}

// `cuzk wait --vk` (issue 37: a stored proof is checked by whoever reads it): a proof whose signals were
// rewritten is refused and nothing is written; the true one is written.
TEST(SubmitWait, WaitWithAVerificationKeyWritesOnlyAProofThatVerifies) {
  temp_dir dir;
  const auto own = prove(inputs_for(circuit, test::seed())), other = prove(inputs_for(circuit, test::seed() + 1));
  const auto vk = dir.path / "vk.json";
  ASSERT_EQ(run(cli_bin() + " export-vk --zkey " + key_for(circuit).path + " --vk " + vk.string()).rc, 0);
  const std::string endpoint = "ipc://" + (dir.path / "fake.sock").string();
  const std::string wait = "timeout 60 " + cli_bin() + " wait --endpoint " + endpoint + " --job-id mine --proof " +
                           (dir.path / "p.json").string() + " --public " + (dir.path / "pub.json").string() +
                           " --timeout 20 --vk " + vk.string();
  {
    fake_server rewritten(endpoint,
                          proto::partition_proof{own.proof.proof_json, other.proof.public_json, std::nullopt});
    const auto r = run(wait);
    EXPECT_EQ(r.rc, 1) << r.out << r.err;
    EXPECT_NE(r.err.find("does not verify under"), std::string::npos) << r.err;
    EXPECT_FALSE(fs::exists(dir.path / "p.json"));
    EXPECT_FALSE(fs::exists(dir.path / "pub.json"));
  }
  {
    fake_server honest(endpoint, own.proof);
    const auto r = run(wait);
    EXPECT_EQ(r.rc, 0) << r.out << r.err;
    EXPECT_TRUE(fs::exists(dir.path / "p.json"));
  }
}

}  // namespace
}  // namespace cuzk::test
