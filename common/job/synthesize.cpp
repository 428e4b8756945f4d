#include "job/synthesize.hpp"

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "circuits/registry.hpp"
#include "groth16/evaluations.hpp"
#include "r1cs/binfile.hpp"
#include "r1cs/error.hpp"
#include "r1cs/r1cs_file.hpp"
#include "r1cs/wtns_file.hpp"

namespace cuzk::job {

namespace {

/* Mapped, not copied: the witness is parsed from the page cache straight into the slot. */
std::unique_ptr<r1cs::mapped_file> map_file(const std::string& path, const char* what) {
  try {
    return std::make_unique<r1cs::mapped_file>(path, what);
  } catch (const r1cs::format_error&) {
    throw job_error(std::string("cannot read the ") + what + " " + path);
  }
}

synth_stats synthesize_native(const groth16::proving_key& pk, const spec& s, std::uint32_t partition,
                              groth16::buffer_view buf) {
  auto c = circuits::make_circuit(s.circuit);
  auto j = nlohmann::json::parse(s.inputs, nullptr, false);
  if (j.is_discarded()) throw job_error("the inputs are not JSON");
  if (j.is_array()) {
    if (partition >= j.size())
      throw job_error("inputs hold " + std::to_string(j.size()) + " partitions; partition " +
                      std::to_string(partition) + " has none");
    j = j[partition];
  }
  auto in = c->parse_inputs(j);
  groth16::synthesize_into(pk, *c, *in, buf);
  return {c->count().constraints, pk.n_vars};
}

synth_stats synthesize_circom(const groth16::proving_key& pk, const spec& s, groth16::buffer_view buf) {
  const auto file = map_file(s.wtns, "witness");
  const auto wtns = file->bytes();
  std::uint64_t n = 0;
  try {
    n = r1cs::wtns_size(wtns);
    if (n != pk.n_vars)
      throw job_error("the witness has " + std::to_string(n) + " values, the key expects " +
                      std::to_string(pk.n_vars) + " (witness of another circuit?)");
    r1cs::read_wtns_into(wtns, buf.z);
  } catch (const r1cs::format_error& e) {
    throw job_error(s.wtns + ": " + e.what());
  }
  if (!buf.z[0].is_one()) throw job_error("the witness does not start with the constant 1");
  if (s.r1cs.empty()) {
    groth16::evaluate_from_coefs(pk, buf.z, buf.a, buf.b, buf.c);
    return {pk.domain_size, n};
  }
  r1cs::r1cs_file f;
  try {
    f = r1cs::read_r1cs(map_file(s.r1cs, "constraint system")->bytes());
  } catch (const r1cs::format_error& e) {
    throw job_error(s.r1cs + ": " + e.what());
  }
  const auto& m = f.m;
  const std::uint64_t rows = m.n_constraints();
  if (m.n_wires != n || m.n_public != pk.n_public || rows + pk.n_public + 1 > pk.domain_size)
    throw job_error("the .r1cs does not match the key and witness (wires, public signals or size)");
  r1cs::evaluate(m, buf.z, buf.a.first(rows), buf.b.first(rows), buf.c.first(rows));
  for (std::uint64_t i = 0; i < rows; ++i)
    if (buf.a[i] * buf.b[i] != buf.c[i])
      throw circuits::circuit_error("the witness does not satisfy constraint " + std::to_string(i) + " of " +
                                    s.r1cs);
  groth16::fill_public_rows(rows, pk.n_public, buf.z, buf.a, buf.b, buf.c);
  return {rows, n};
}

}  // namespace

synth_stats synthesize(const groth16::proving_key& pk, const spec& s, std::uint32_t partition,
                       groth16::buffer_view buf) {
  if (buf.a.size() != pk.domain_size || buf.b.size() != pk.domain_size || buf.c.size() != pk.domain_size ||
      buf.z.size() != pk.n_vars)
    throw job_error("synthesis buffers do not match the key's domain and witness sizes");
  return s.is_native() ? synthesize_native(pk, s, partition, buf) : synthesize_circom(pk, s, buf);
}

std::vector<groth16::fr_t> public_signals(const groth16::proving_key& pk, groth16::buffer_view buf) {
  return {buf.z.begin() + 1, buf.z.begin() + 1 + pk.n_public};
}

}  // namespace cuzk::job
