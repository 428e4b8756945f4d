// cuzk submit: one Submit request; prints the job id. Paths go to the server
// made absolute (it resolves them on its own host); the inputs file is read
// here and sent inline as compact JSON.
#include <cstdio>
#include <filesystem>
#include <random>
#include <stdexcept>

#include <nlohmann/json.hpp>

#include "client/lib/connection.hpp"
#include "client/lib/exit_codes.hpp"
#include "commands.hpp"
#include "io/snarkjs_json.hpp"
#include "proto/codec.hpp"
#include "proto/names.hpp"

namespace cuzk::cli {

namespace {

/* 8-4-4-4-12 hex digits, version 4 (random) layout. */
std::string random_job_id() {
  std::random_device rd;
  std::mt19937_64 g((std::uint64_t(rd()) << 32) ^ rd());
  std::uint64_t hi = g(), lo = g();
  hi = (hi & ~0xf000ULL) | 0x4000ULL;                    // version 4
  lo = (lo & ~(3ULL << 62)) | (2ULL << 62);              // variant 10
  char s[37];
  std::snprintf(s, sizeof s, "%08llx-%04llx-%04llx-%04llx-%012llx", (unsigned long long)(hi >> 32),
                (unsigned long long)((hi >> 16) & 0xffff), (unsigned long long)(hi & 0xffff),
                (unsigned long long)(lo >> 48), (unsigned long long)(lo & 0xffffffffffffULL));
  return s;
}

std::string absolute(const std::string& p) { return std::filesystem::absolute(p).lexically_normal().string(); }

proto::submit request_from(const submit_args& a) {
  proto::submit s;
  s.job_id = a.job_id.empty() ? random_job_id() : a.job_id;
  if (const char* user = std::getenv("USER")) s.client = std::string(user).substr(0, 63);
  s.priority = *proto::priority_from_name(a.priority);
  s.partitions = a.partitions;
  s.zkey = absolute(a.zkey);
  if (!a.circuit.empty()) {
    if (a.inputs.empty()) throw std::invalid_argument("--circuit needs --inputs");
    if (!a.r1cs.empty()) throw std::invalid_argument("--r1cs goes with --wtns");
    s.work = proto::native_work{a.circuit, io::read_json_file(a.inputs).dump()};
  } else {
    if (!a.inputs.empty()) throw std::invalid_argument("--inputs goes with --circuit");
    proto::circom_work c{absolute(a.wtns), std::nullopt};
    if (!a.r1cs.empty()) c.r1cs = absolute(a.r1cs);
    s.work = c;
  }
  if (!a.blinding.empty()) {
    auto comma = a.blinding.find(',');
    if (comma == std::string::npos) throw std::invalid_argument("--blinding expects R,S: two decimal numbers");
    s.blinding = proto::blinding{a.blinding.substr(0, comma), a.blinding.substr(comma + 1)};
  }
  if (auto why = proto::check(proto::message{0, s})) throw std::invalid_argument(*why);
  return s;
}

}  // namespace

int run_submit(const submit_args& a) {
  if (a.wait && (a.proof.empty() || a.public_path.empty()))
    throw std::invalid_argument("--wait needs --proof and --public");
  if (!a.wait && (!a.proof.empty() || !a.public_path.empty()))
    throw std::invalid_argument("--proof and --public go with --wait");
  const proto::submit s = request_from(a);
  const double timeout = a.timeout >= 0 ? a.timeout : a.wait ? 3600 : 10;

  int rc = client::with_exit_codes([&] {
    client::options o;
    if (!a.wait) {  // the whole budget for the reply, in a few attempts
      o.attempts = 2;
      o.timeout = std::chrono::milliseconds(static_cast<long long>(timeout * 1000 / o.attempts));
    }
    client::connection c(a.endpoint, o);
    const auto acc = c.submit(s);
    std::printf("%s\n", acc.job_id.c_str());
    std::fflush(stdout);
    std::fprintf(stderr, "[cuzk] %s %s (%s)\n", acc.job_id.c_str(), acc.created ? "submitted" : "already known",
                 std::string(proto::name(acc.state)).c_str());
    return client::exit_ok;
  });
  if (rc != client::exit_ok || !a.wait) return rc;
  return run_wait({a.endpoint, s.job_id, a.proof, a.public_path, timeout});
}

}  // namespace cuzk::cli
