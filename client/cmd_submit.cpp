// cuzk submit: one Submit request; prints the job id. Paths go to the server
// made absolute (it resolves them on its own host); the inputs file is read
// here and sent inline as compact JSON.
#include <cstdio>
#include <filesystem>
#include <optional>
#include <random>
#include <stdexcept>
#include <type_traits>
#include <variant>

#include <nlohmann/json.hpp>

#include "circuits/registry.hpp"
#include "client/lib/connection.hpp"
#include "client/lib/exit_codes.hpp"
#include "commands.hpp"
#include "curves/dispatch.hpp"
#include "groth16/verifier.hpp"
#include "io/snarkjs_json.hpp"
#include "io/zkey.hpp"
#include "job/circom_inputs.hpp"
#include "proto/codec.hpp"
#include "proto/limits.hpp"
#include "proto/names.hpp"
#include "r1cs/error.hpp"
#include "r1cs/input_file.hpp"
#include "r1cs/wtns_file.hpp"
#include "shm/srs_region.hpp"
#include "util/utf8.hpp"
#include "verified_proof.hpp"

namespace cuzk::cli {

namespace {

std::string absolute(const std::string& p) { return std::filesystem::absolute(p).lexically_normal().string(); }

enum class verdict { ok, does_not_verify, other_statement };

/* --circuit names a native circuit when its name (before any ':') is one cuzk circuits lists, else a circom
   circuit installed in the server's pool (cuzk circuit install). */
bool installed(const submit_args& a) {
  if (a.circuit.empty()) return false;
  const auto name = std::string_view(a.circuit).substr(0, a.circuit.find(':'));
  for (const auto& c : circuits::known_circuits())
    if (c.name == name) return false;
  return true;
}

/* The curve of the key the proof must verify under: --vk's "curve", else
   that of the client's own copy of the key file it named; nullopt (with a
   warning) when it has neither. */
std::optional<curves::curve_id> own_curve(const submit_args& a) {
  if (!a.vk.empty()) return io::curve_of(io::read_json_file(a.vk)).value_or(curves::curve_id::bls12_381);
  if (installed(a)) {
    std::fprintf(stderr, "[cuzk] warning: no --vk: the proof of circuit %s is not checked here\n", a.circuit.c_str());
    return std::nullopt;
  }
  std::error_code ec;
  if (!shm::is_key_id(a.zkey) && std::filesystem::is_regular_file(a.zkey, ec)) return io::zkey_curve_file(a.zkey);
  std::fprintf(stderr, "[cuzk] warning: no local copy of the key %s and no --vk: the proof is not checked here\n",
               a.zkey.c_str());
  return std::nullopt;
}

/* What the client checks the proofs it waited for against, on the key's curve C. */
template <class C>
struct statement {
  using fr = ff::fr<C>;
  groth16::basic_verifying_key<C> vk;
  /* the public signals the client's own inputs give: one list per
     partition, or one for every partition; nullopt when they cannot be known */
  std::optional<std::vector<std::vector<fr>>> own;

  /* --vk, else the key file's; native circuits compute their signals from the
     inputs, a circom witness holds them as wires 1..n_public */
  static statement of(const submit_args& a) {
    statement st{a.vk.empty() ? io::read_zkey_vk_file<C>(a.zkey) : io::vk_from_json<C>(io::read_json_file(a.vk)),
                 std::nullopt};
    if (installed(a)) return st;  // its witness, and so its public signals, are computed by the server
    if (!a.circuit.empty()) {
      const auto c = circuits::make_circuit<C>(a.circuit);
      const auto j = io::read_json_file(a.inputs);
      std::vector<std::vector<fr>> out;
      for (const auto& e : j.is_array() ? j : nlohmann::json::array({j}))
        out.push_back(c->public_values(*c->parse_inputs(e)));
      st.own = std::move(out);
      return st;
    }
    if (st.vk.ic.empty()) return st;
    try {
      auto z = r1cs::read_wtns_prefix<C>(r1cs::input_file(a.wtns, "wtns"), st.vk.ic.size());
      st.own = std::vector<std::vector<fr>>{{z.begin() + 1, z.end()}};
    } catch (const r1cs::format_error& e) {
      std::fprintf(stderr, "[cuzk] warning: %s: the proof's public signals are not checked here\n", e.what());
    }
    return st;
  }

  /* Whether every partition wait received (and wrote) verifies under vk and (when known) proves the client's
     own statement. */
  verdict check(const proto::proof_reply& r) const {
    if (r.partitions.empty()) return verdict::does_not_verify;
    for (std::size_t i = 0; i < r.partitions.size(); ++i) {
      const auto signals = verified_signals<C>(vk, r.partitions[i]);
      if (!signals) return verdict::does_not_verify;
      if (own && !own->empty() && *signals != (*own)[std::min(i, own->size() - 1)]) return verdict::other_statement;
    }
    return verdict::ok;
  }
};
using any_statement = std::variant<std::monostate, statement<curves::bls12_381>, statement<curves::bn254>>;

/* --wtns and --r1cs go over the connection (--upload, and always to a network server). */
bool streams(const submit_args& a) { return !a.wtns.empty() && (a.upload || a.server.endpoint.starts_with("tcp://")); }

/* The upload ids of a job's files: the job id under a prefix (ids are per client, like job ids). */
std::string upload_id(char what, const std::string& job_id) {
  return std::string(1, what) + ":" + job_id.substr(0, 61);
}

proto::submit request_from(const submit_args& a) {
  proto::submit s;
  s.job_id = a.job_id.empty() ? client::random_job_id() : a.job_id;
  if (const char* user = std::getenv("USER")) s.client = util::truncate_utf8(user, proto::max_client_bytes);
  s.priority = *proto::priority_from_name(a.priority);
  s.partitions = a.partitions;
  if (installed(a)) {
    if (!a.zkey.empty()) throw std::invalid_argument("--zkey: an installed circuit proves with its own key");
    if (a.inputs.empty()) throw std::invalid_argument("--circuit needs --inputs");
    s.work = proto::installed_work{a.circuit, job::read_circom_inputs(a.inputs, {proto::max_circuit_inputs_bytes})};
  } else if (a.zkey.empty()) {
    throw std::invalid_argument("--zkey is required (except for a circuit installed in the server's pool)");
  } else if (!a.circuit.empty()) {
    s.zkey = shm::is_key_id(a.zkey) ? a.zkey : absolute(a.zkey);
    if (a.inputs.empty()) throw std::invalid_argument("--circuit needs --inputs");
    if (!a.r1cs.empty()) throw std::invalid_argument("--r1cs goes with --wtns");
    s.work = proto::native_work{a.circuit, io::read_json_file(a.inputs).dump()};
  } else {
    s.zkey = shm::is_key_id(a.zkey) ? a.zkey : absolute(a.zkey);
    if (!a.inputs.empty()) throw std::invalid_argument("--inputs goes with --circuit");
    proto::circom_work c{absolute(a.wtns), std::nullopt};
    if (!a.r1cs.empty()) c.r1cs = absolute(a.r1cs);
    if (streams(a)) {
      if (!shm::is_key_id(a.zkey))
        throw std::invalid_argument(
            "a streamed witness names its key by the id the operator installed it under "
            "(--zkey KEY_ID): the server checks the witness against it");
      c.wtns = std::string(proto::upload_prefix) + upload_id('w', s.job_id);
      if (c.r1cs) c.r1cs = std::string(proto::upload_prefix) + upload_id('r', s.job_id);
    }
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
  any_statement st;
  if (a.wait)  // before submitting: a key file or inputs that do not parse are the caller's error
    if (const auto curve = own_curve(a))
      st = curves::visit(*curve, [&](auto c) -> any_statement { return statement<decltype(c)>::of(a); });
  const double timeout = a.timeout >= 0 ? a.timeout : a.wait ? 3600 : 10;

  int rc = client::with_exit_codes([&] {
    client::options o = connection_options(a.server);
    if (!a.wait && !a.server.request_timeout_given()) {  // the whole budget for the reply, in a few attempts
      o.attempts = 2;
      o.timeout = std::chrono::milliseconds(static_cast<long long>(timeout * 1000 / o.attempts));
    }
    client::connection c(a.server.endpoint, o);
    if (streams(a)) {
      // A job submitted before owns its uploads already: its Submit below is idempotent.
      auto send = [&](char what, proto::upload_kind kind, const std::string& file, const std::string& key) {
        try {
          c.upload(upload_id(what, s.job_id), kind, file, key);
        } catch (const client::server_error& e) {
          if (e.code() != proto::error_code::conflict) throw;
        }
      };
      send('w', proto::upload_kind::wtns, a.wtns, a.zkey);
      if (!a.r1cs.empty()) send('r', proto::upload_kind::r1cs, a.r1cs, "");
    }
    const auto acc = c.submit(s);
    std::printf("%s\n", acc.job_id.c_str());
    std::fflush(stdout);
    std::fprintf(stderr, "[cuzk] %s %s (%s)\n", acc.job_id.c_str(), acc.created ? "submitted" : "already known",
                 std::string(proto::name(acc.state)).c_str());
    return client::exit_ok;
  });
  if (rc != client::exit_ok || !a.wait) return rc;
  proto::proof_reply proofs;
  rc = run_wait({a.server, s.job_id, a.proof, a.public_path, timeout, std::nullopt, {}}, &proofs);
  if (rc != client::exit_ok || std::holds_alternative<std::monostate>(st)) return rc;
  const verdict v = std::visit(
      [&](const auto& x) {
        if constexpr (std::is_same_v<std::remove_cvref_t<decltype(x)>, std::monostate>)
          return verdict::ok;
        else
          return x.check(proofs);
      },
      st);
  if (v != verdict::ok) {
    for (std::size_t i = 0; std::filesystem::exists(partition_path(a.proof, i)); ++i) {
      std::filesystem::remove(partition_path(a.proof, i));
      std::filesystem::remove(partition_path(a.public_path, i));
    }
    if (v == verdict::does_not_verify)
      std::fprintf(stderr,
                   "cuzk: the proof of job %s does not verify under the verification key of %s; "
                   "files removed\n",
                   s.job_id.c_str(), a.vk.empty() ? a.zkey.c_str() : a.vk.c_str());
    else
      std::fprintf(stderr,
                   "cuzk: job %s: the proof's public signals are not your statement's (not the ones your "
                   "%s give); files removed\n",
                   s.job_id.c_str(), a.circuit.empty() ? "witness" : "inputs");
    return client::exit_job_failed;
  }
  std::fprintf(stderr, "[cuzk] %s: the proof verifies under %s\n", s.job_id.c_str(),
               a.vk.empty() ? a.zkey.c_str() : a.vk.c_str());
  return client::exit_ok;
}

}  // namespace cuzk::cli
