// A Submit's preparation, on the pool (never the loop): resolve the key
// (key_store), size the work against it (a counting run bounded by the key's
// domain), and check a circom witness's and constraint system's headers
// through descriptors opened under the witness policy.
#include "requests/preparation.hpp"

#include <fcntl.h>
#include <spdlog/spdlog.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <map>
#include <mutex>
#include <optional>
#include <tuple>

#include <nlohmann/json.hpp>

#include "circuits/registry.hpp"
#include "groth16/prover.hpp"
#include "job/circom_inputs.hpp"
#include "job/circuit_store.hpp"
#include "job/file_identity.hpp"
#include "job/result.hpp"
#include "job/spec.hpp"
#include "job/synthesize.hpp"
#include "r1cs/error.hpp"
#include "r1cs/input_file.hpp"
#include "r1cs/r1cs_file.hpp"
#include "r1cs/wtns_file.hpp"
#include "curves/dispatch.hpp"
#include "r1cs/binfile.hpp"
#include "shm/srs_region.hpp"
#include "util/utf8.hpp"

namespace cuzk::server {

namespace {

using nlohmann::json;

/* A native circuit's sizes depend on its spec alone: each (spec, domain, wires) is counted once
   (44 s at 2^27) and remembered, the 256 most recent over curve C. */
template <class C>
std::optional<r1cs::counts> counted(const circuits::basic_circuit<C>& c, std::uint64_t domain, std::uint64_t wires) {
  using key_t = std::tuple<std::string, std::uint64_t, std::uint64_t>;
  static std::mutex mu;
  static std::map<key_t, std::pair<std::optional<r1cs::counts>, std::uint64_t>> memo;  // (counts, last use)
  static std::uint64_t uses = 0;
  const key_t k{c.spec(), domain, wires};
  {
    std::lock_guard lk(mu);
    if (auto it = memo.find(k); it != memo.end()) {
      it->second.second = ++uses;
      return it->second.first;
    }
  }
  auto n = c.count_within(domain, wires);  // not under the lock: other Submits go on
  std::lock_guard lk(mu);
  if (memo.size() >= 256)
    memo.erase(std::min_element(memo.begin(), memo.end(),
                                [](const auto& a, const auto& b) { return a.second.second < b.second.second; }));
  memo.insert_or_assign(k, std::pair(n, ++uses));
  return n;
}

/* Over the key's curve C: circuit_error for unknown circuits and inputs that
   do not parse; job_error when the circuit does not fit the key. The count
   stops as soon as the circuit outgrows the key, so a hostile size costs at
   most the key's domain. */
template <class C>
void check_native(const job::key_shape& pk, const proto::native_work& w, std::uint32_t partitions) {
  auto c = circuits::make_circuit<C>(w.circuit);
  const auto n = counted<C>(*c, pk.domain_size, pk.n_vars);
  if (!n)
    throw job::job_error("the key was made for another circuit (" + c->spec() + " is larger than the key's domain of " +
                         std::to_string(pk.domain_size) + " constraints)");
  if (n->inputs + n->aux != pk.n_vars || n->inputs != pk.n_public + 1)
    throw job::job_error("the key was made for another circuit (" + c->spec() + " has " +
                         std::to_string(n->inputs + n->aux) + " wires, the key " + std::to_string(pk.n_vars) + ")");
  json j = json::parse(w.inputs_json, nullptr, false);
  if (j.is_discarded()) throw job::job_error("the inputs are not JSON");
  if (j.is_array()) {
    if (j.size() != partitions)
      throw job::job_error("the inputs hold " + std::to_string(j.size()) + " partitions, the job has " +
                           std::to_string(partitions));
    for (const auto& e : j) c->parse_inputs(e);
  } else {
    c->parse_inputs(j);
  }
}

/* The .wtns witness count from its header sections, read with pread through
   the descriptor the policy opened (a dup: input_file closes its own): a few
   dozen bytes, never the whole file. */
/* The witness's count, after its curve was checked against the key's. */
std::uint64_t witness_count(int fd, const std::string& path, curves::curve_id key_curve) {
  const int own = ::dup(fd);
  if (own < 0) throw job::job_error("cannot read the witness " + path);
  r1cs::wtns_shape w;
  try {
    w = r1cs::read_wtns_shape(r1cs::input_file(own, path, "wtns"));
  } catch (const r1cs::format_error& e) {
    throw job::job_error("the witness " + path + " is not a valid .wtns file (" + e.what() + ")");
  }
  if (w.curve != key_curve) throw job::job_error(path + ": " + r1cs::curve_mismatch("the witness", w.curve, key_curve));
  return w.count;
}

/* A spool file the service wrote for this client's upload. */
util::expected<opened_file, std::string> opened_spool(const std::string& path) {
  const int fd = job::open_identified(path, "", "upload");
  struct stat st {};
  if (::fstat(fd, &st) != 0) {
    ::close(fd);
    return util::unexpected<std::string>("cannot read the upload " + path);
  }
  return opened_file(fd, job::file_identity(st));
}

/* The .r1cs's header and section table against what the key allows, read
   with pread through the descriptor the policy opened: a few dozen bytes, so
   a file claiming a gigabyte of constraints is refused here, before any
   worker reads it. */
void check_constraint_system(int fd, const std::string& path, const job::key_shape& pk) {
  const int own = ::dup(fd);
  if (own < 0) throw job::job_error("cannot read the constraint system " + path);
  try {
    const auto shape = r1cs::read_r1cs_shape(r1cs::input_file(own, path, "r1cs"));
    if (shape.curve != pk.curve)
      throw r1cs::format_error(r1cs::curve_mismatch("the constraint system", shape.curve, pk.curve));
    r1cs::check_r1cs_shape(shape, job::r1cs_bounds_of(pk));
  } catch (const r1cs::format_error& e) {
    throw job::job_error("the constraint system " + path + " is refused: " + e.what());
  }
}

}  // namespace

namespace {

prepared prepare_request(const proto::submit& s, const net::peer_credentials& who, key_store& keys,
                         const shm::slot_table& slots, const file_policy& witnesses, const std::string& pool,
                         const spooled& uploaded, bool keep_named) {
  prepared r;
  try {
    // An installed circuit names its key: the one it was installed with.
    const auto* inst = std::get_if<proto::installed_work>(&s.work);
    std::optional<job::installed_circuit> circuit;
    if (inst) {
      circuit = job::find_circuit(pool, inst->circuit);
      if (!circuit) {
        r.code = proto::error_code::unknown_circuit;
        r.error = "the pool " + pool + " holds no circuit " + util::printable(inst->circuit, 64) +
                  " (an operator installs circuits with cuzk circuit install)";
        return r;
      }
      job::check_input_signals(circuit->inputs, job::check_circom_inputs(inst->inputs_json));
    }
    const std::string zkey = circuit ? circuit->key_id : s.zkey;
    r.pk = keys.resolve(zkey, who, r.key_id);
    const auto& pk = r.pk.shape();
    const bool by_path = !shm::is_key_id(zkey);
    if (!slots.class_for(pk.domain_size, pk.n_vars)) {
      r.code = proto::error_code::bad_request;
      r.error = "no slot class of pool " + pool + " holds domain 2^" + std::to_string(pk.log_domain()) + " with " +
                std::to_string(pk.n_vars) + " witness values; create the pool with a larger --slots class";
      if (by_path) keys.drop_unused(r.key_id);
      return r;
    }
    if (job::result_bytes_for(pk.curve, pk.n_public) > shm::result_bytes) {
      r.code = proto::error_code::bad_request;
      r.error = "the key has " + std::to_string(pk.n_public) + " public signals; a job's proof and public signals " +
                "must fit " + std::to_string(shm::result_bytes) + " bytes (at most " +
                std::to_string((shm::result_bytes - job::result_bytes_for(pk.curve, 0)) / 32) + " public signals)";
      if (by_path) keys.drop_unused(r.key_id);
      return r;
    }
    job::spec sp;
    sp.zkey = zkey;
    if (inst) {
      if (auto why = job::coefficients_refusal(pk)) throw job::job_error(*why);
      sp.installed = circuit->name;
      sp.circuit_id = r.circuit_id = circuit->id;
      std::tie(sp.inputs_file, sp.inputs_identity) = job::store_inputs(pool, inst->inputs_json);
      r.inputs_file = sp.inputs_file;
    } else if (const auto* n = std::get_if<proto::native_work>(&s.work)) {
      curves::visit(pk.curve, [&](auto curve) { check_native<decltype(curve)>(pk, *n, s.partitions); });
      sp.circuit = n->circuit;
      sp.inputs = n->inputs_json;
    } else {
      const auto& c = std::get<proto::circom_work>(s.work);
      // A client's upload is a spool file the service wrote; any other path goes through the witness policy.
      auto open = [&](const std::optional<std::string>& spool, const std::string& path) {
        return spool ? opened_spool(*spool) : witnesses.open(who, path);
      };
      const std::string wtns = uploaded.wtns.value_or(c.wtns);
      auto w = open(uploaded.wtns, c.wtns);
      if (!w) throw job::job_error(w.error());
      const auto count = witness_count(w->fd(), wtns, pk.curve);
      if (count != pk.n_vars)
        throw job::job_error("the witness has " + std::to_string(count) + " values, the key expects " +
                             std::to_string(pk.n_vars) + " (witness of another circuit?)");
      sp.wtns = wtns;
      sp.wtns_identity = w->identity();
      if (keep_named && !uploaded.wtns) r.wtns_file = std::make_shared<opened_file>(std::move(*w));
      if (c.r1cs) {
        const std::string r1cs = uploaded.r1cs.value_or(*c.r1cs);
        auto f = open(uploaded.r1cs, *c.r1cs);
        if (!f) throw job::job_error(f.error());
        check_constraint_system(f->fd(), r1cs, pk);
        sp.r1cs = r1cs;
        sp.r1cs_identity = f->identity();
        if (keep_named && !uploaded.r1cs) r.r1cs_file = std::make_shared<opened_file>(std::move(*f));
      } else if (auto why = job::coefficients_refusal(pk)) {
        throw job::job_error(*why);
      }
    }
    if (s.blinding) {  // parsed here, once: the job carries the field elements' bytes from now on
      sp.blinding = curves::visit(pk.curve, [&](auto curve) -> std::optional<job::blinding_bytes> {
        using fr = ff::fr<decltype(curve)>;
        const auto r = fr::from_decimal(s.blinding->r), s_ = fr::from_decimal(s.blinding->s);
        if (!r || !s_) return std::nullopt;
        return groth16::basic_blinding<decltype(curve)>{*r, *s_}.to_bytes();
      });
      if (!sp.blinding) {  // else the prover would silently draw random ones
        r.code = proto::error_code::bad_request;
        r.error = "the blinding values r and s must be below r";
        return r;
      }
    }
    r.spec_json = sp.to_json();
    if (r.spec_json.size() > shm::spec_bytes) {
      r.code = proto::error_code::too_large;
      r.error = "the job description is " + std::to_string(r.spec_json.size()) + " bytes, the job table holds " +
                std::to_string(shm::spec_bytes);
    }
  } catch (const circuits::circuit_error& e) {
    r.code = proto::error_code::unknown_circuit;
    r.error = e.what();
  } catch (const std::exception& e) {
    r.code = proto::error_code::bad_request;
    r.error = e.what();
  }
  return r;
}

}  // namespace

prepared prepare(const proto::submit& s, const net::peer_credentials& who, key_store& keys,
                 const shm::slot_table& slots, const file_policy& witnesses, const std::string& pool,
                 const spooled& uploaded, bool keep_named) {
  prepared r = prepare_request(s, who, keys, slots, witnesses, pool, uploaded, keep_named);
  if (r.code && !r.inputs_file.empty()) {  // refused: the inputs it stored go
    (void)::unlink(r.inputs_file.c_str());
    r.inputs_file.clear();
  }
  return r;
}

}  // namespace cuzk::server
