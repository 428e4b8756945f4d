#include <cstdio>
#include <fstream>
#include <stdexcept>
#include <vector>

#include "circuits/registry.hpp"
#include "curves/dispatch.hpp"
#include "commands.hpp"
#include "engines/select.hpp"
#include "groth16/evaluations.hpp"
#include "groth16/native.hpp"
#include "groth16/verifier.hpp"
#include "io/snarkjs_json.hpp"
#include "io/zkey.hpp"
#include "job/circom_inputs.hpp"
#include "job/circuit_store.hpp"
#include "job/input_signals.hpp"
#include "job/key_cache.hpp"
#include "job/witness_generator.hpp"
#include "poly/threads.hpp"
#include "r1cs/r1cs_file.hpp"
#include "r1cs/wtns_file.hpp"

namespace cuzk::cli {

namespace {

template <class C>
groth16::basic_blinding<C> parse_blinding(const std::string& s) {
  auto b = groth16::basic_blinding<C>::parse(s);
  if (!b) throw std::invalid_argument("--blinding expects R,S: two decimal numbers below r");
  return *b;
}

/* The inputs file, checked against the circuit's input signals before the generator runs. */
std::string inputs_of(const prove_args& a, const std::vector<job::input_signal>& signals) {
  if (a.inputs.empty()) throw std::invalid_argument("a circom circuit's witness needs --inputs, its input JSON");
  auto text = job::read_circom_inputs(a.inputs);
  job::check_input_signals(signals, job::check_circom_inputs(text));
  return text;
}

/* snarkjs's wtns calculate: the generator run confined on the inputs (job/witness_generator.hpp). */
std::vector<std::uint8_t> generated_witness(const job::witness_generator& g, const std::string& inputs) {
  progress("computing the witness with " + g.program.filename().string());
  auto w = job::generate_witness(g, inputs, {});
  char line[128];
  std::snprintf(line, sizeof line, "witness computed in %.3f s (%.3f s CPU, %.0f MiB at most)", w.seconds,
                w.cpu_seconds, double(w.peak_bytes) / double(1 << 20));
  progress(line);
  return std::move(w.wtns);
}

std::vector<std::uint8_t> generated_witness(const prove_args& a) {
  const auto g = job::witness_generator::at(a.wasm.empty() ? a.cpp : a.wasm);
  if ((g.k == job::witness_generator::kind::wasm) != !a.wasm.empty())
    throw std::invalid_argument(a.wasm.empty() ? "--cpp names a .wasm: use --wasm" : "--wasm expects a .wasm file");
  return generated_witness(g, inputs_of(a, job::read_input_signals(g)));
}

/* the key's curve C decides the witness's, the engine's and the proof's */
template <class C>
int prove(const prove_args& a, const groth16::basic_proving_key<C>& pk, const std::vector<std::uint8_t>& generated) {
  using fr = ff::fr<C>;
  groth16::basic_prover_buffers<C> buf(pk);
  if (!a.wtns.empty() || !generated.empty()) {
    if (generated.empty()) progress("reading " + a.wtns);
    auto z = generated.empty() ? r1cs::read_wtns_file<C>(a.wtns) : r1cs::read_wtns<C>(generated);
    if (z.size() != pk.n_vars)
      throw std::invalid_argument("the witness has " + std::to_string(z.size()) + " values, the key expects " +
                                  std::to_string(pk.n_vars) + " (witness of another circuit?)");
    if (!z[0].is_one()) throw std::invalid_argument("the witness does not start with the constant 1");
    if (!a.r1cs.empty()) {  // the key holds no C matrix: the .r1cs names a failing constraint
      auto f = r1cs::read_r1cs_file<C>(a.r1cs);
      if (f.m.n_wires != z.size()) throw std::invalid_argument("the .r1cs and the witness have different wire counts");
      if (auto bad = r1cs::first_unsatisfied<C>(f.m, z))
        throw std::invalid_argument("the witness does not satisfy constraint " + std::to_string(*bad) + " of " +
                                    a.r1cs);
    }
    buf.z = std::move(z);
    progress("evaluating a, b, c by the key's coefficients");
    groth16::evaluate_from_coefs<C>(pk, buf.z, buf.a, buf.b, buf.c);
    pk.mapped.reclaim(pk.mapped.coefs);  // read once: back to the page cache before the MSMs
  } else {
    if (a.inputs.empty()) throw std::invalid_argument("--circuit needs --inputs");
    auto c = circuits::make_circuit<C>(a.circuit);
    auto in = c->parse_inputs(io::read_json_file(a.inputs));
    progress("synthesizing " + c->spec() + " on " + std::string(curves::display_name(C::id)) + " (the key's curve)");
    groth16::synthesize_into<C>(pk, *c, *in, buf);
  }
  std::string note;
  auto engine = engines::make<C>(a.backend, a.threads, &note);
  if (!note.empty()) progress(note);
  progress("proving on " + std::string(engine->name()) + " (" + std::string(curves::display_name(C::id)) +
           ", domain 2^" + std::to_string(pk.log_domain()) + ")");
  groth16::prove_timings tm;
  std::optional<groth16::basic_blinding<C>> rs;
  if (!a.blinding.empty()) rs = parse_blinding<C>(a.blinding);
  std::vector<fr> pub(buf.z.begin() + 1, buf.z.begin() + 1 + pk.n_public);
  groth16::basic_prove_input<C> in{pk, {}, buf.a, buf.b, buf.c, buf.z, rs};
  in.abc_consumed = true;  // a, b, c are not needed after the proof: the engine computes H in them
  const auto p = groth16::prove(*engine, in, &tm);
  if (!groth16::verify(pk.vk(), pub, p))
    throw std::invalid_argument("the witness does not satisfy the circuit: the proof does not verify");
  char line[256];
  std::snprintf(
      line, sizeof line,
      "proved in %.3f s (split %.3f s, h2d %.3f s, H/NTT %.3f s, MSMs %.3f s wall, of which G1 A %.3f / B %.3f "
      "/ L %.3f / H %.3f s and G2 B %.3f s)",
      tm.total, tm.split, tm.h2d, tm.ntt, tm.msm, tm.msm_a, tm.msm_b_g1, tm.msm_l, tm.msm_h, tm.msm_b_g2);
  progress(line);
  io::write_json_file(a.proof, io::proof_to_json<C>(p));
  io::write_json_file(a.public_path, io::public_to_json<C>(pub));
  return 0;
}

}  // namespace

int run_witness(const prove_args& a) {
  const auto w = generated_witness(a);
  std::ofstream f(a.wtns, std::ios::binary | std::ios::trunc);
  f.write(reinterpret_cast<const char*>(w.data()), static_cast<std::streamsize>(w.size()));
  if (!f.flush()) throw std::runtime_error("cannot write " + a.wtns);
  return 0;
}

/* cuzk prove --pool P --circuit NAME: a circom circuit installed in the pool, its key from its SRS region. */
int prove_installed(const prove_args& a) {
  const auto c = job::find_circuit(a.pool, a.circuit);
  if (!c)
    throw std::invalid_argument("the pool " + a.pool + " holds no circuit " + a.circuit + " (cuzk circuits --pool " +
                                a.pool + " lists them)");
  const auto inputs = inputs_of(a, c->inputs);
  std::vector<std::uint8_t> generated;
  {
    job::private_dir dir("generator");
    generated = generated_witness(job::unpack_circuit(a.pool, *c, dir.path), inputs);
  }
  job::key_cache keys(a.pool);
  const auto pk = keys.get(c->key_id);
  return poly::with_threads(a.threads, [&] {
    return pk.visit([&](const auto& k) { return prove<typename std::decay_t<decltype(k)>::curve>(a, k, generated); });
  });
}

int run_prove(const prove_args& a) {
  if (!a.pool.empty()) return prove_installed(a);
  if (a.zkey.empty())
    throw std::invalid_argument("--zkey is required, unless --pool names where --circuit is installed");
  const auto generated = a.wasm.empty() && a.cpp.empty() ? std::vector<std::uint8_t>() : generated_witness(a);
  return poly::with_threads(a.threads, [&] {
    progress("reading " + a.zkey);
    return curves::visit(io::zkey_curve_file(a.zkey), [&](auto curve) {
      using C = decltype(curve);
      return prove<C>(a, io::read_zkey_file_raw<C>(a.zkey), generated);
    });
  });
}

}  // namespace cuzk::cli
