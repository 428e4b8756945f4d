#include "job/synthesize.hpp"

#include <unistd.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <type_traits>
#include <vector>

#include "circuits/registry.hpp"
#include "groth16/evaluations.hpp"
#include "r1cs/binfile.hpp"
#include "r1cs/error.hpp"
#include "job/circuit_store.hpp"
#include "job/file_identity.hpp"
#include "job/slot_buffers.hpp"
#include "r1cs/input_file.hpp"
#include "r1cs/r1cs_file.hpp"
#include "r1cs/wtns_file.hpp"
#include "shm/failpoint.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::job {

void progress::publish() noexcept {
  count_.store(local_, std::memory_order_relaxed);
  next_ = local_ + stride;
  shm::failpoint("worker.synthesizing");
  if (parked_.load(std::memory_order_relaxed))
    for (;;) ::pause();
}

void progress::opaque(bool on) noexcept {
  opaque_.store(on, std::memory_order_relaxed);
  if (!on) publish();
}

namespace {

/* A phase that cannot report progress (no-op without a progress). */
class opaque_phase {
 public:
  explicit opaque_phase(progress* p) : p_(p) {
    if (p_) p_->opaque(true);
  }
  ~opaque_phase() {
    if (p_) p_->opaque(false);
  }
  opaque_phase(const opaque_phase&) = delete;
  opaque_phase& operator=(const opaque_phase&) = delete;

 private:
  progress* p_;
};

/* Forwards to a constraint system and counts what the circuit writes. */
template <class C>
class progress_cs final : public r1cs::basic_constraint_system<C> {
 public:
  using typename r1cs::basic_constraint_system<C>::fr;
  using typename r1cs::basic_constraint_system<C>::lc;

  progress_cs(r1cs::basic_constraint_system<C>& cs, progress& p) : cs_(cs), p_(p) {}
  r1cs::variable alloc_input(const fr& v) override {
    p_.advance();
    return cs_.alloc_input(v);
  }
  r1cs::variable alloc_aux(const fr& v) override {
    p_.advance();
    return cs_.alloc_aux(v);
  }
  void push_namespace(std::string_view name, std::int64_t index) override { cs_.push_namespace(name, index); }
  void pop_namespace() override { cs_.pop_namespace(); }
  bool needs_values() const override { return cs_.needs_values(); }
  r1cs::counts sizes() const override { return cs_.sizes(); }

 protected:
  void do_enforce(const lc& a, const lc& b, const lc& c, const char* label) override {
    cs_.enforce(a, b, c, label);
    p_.advance();
  }

 private:
  r1cs::basic_constraint_system<C>& cs_;
  progress& p_;
};

/* The circuit, each of whose constraint systems reports to p. */
template <class C>
class progress_circuit final : public circuits::basic_circuit<C> {
 public:
  using typename circuits::basic_circuit<C>::fr;
  using typename circuits::basic_circuit<C>::constraint_system;

  progress_circuit(const circuits::basic_circuit<C>& c, progress& p) : c_(c), p_(p) {}
  std::string name() const override { return c_.name(); }
  std::string spec() const override { return c_.spec(); }
  std::unique_ptr<circuits::inputs> parse_inputs(const nlohmann::json& j) const override { return c_.parse_inputs(j); }
  nlohmann::json random_inputs(std::uint64_t seed) const override { return c_.random_inputs(seed); }
  std::vector<fr> public_values(const circuits::inputs& in) const override { return c_.public_values(in); }
  void synthesize(constraint_system& cs, const circuits::inputs* in) const override {
    progress_cs<C> w(cs, p_);
    c_.synthesize(w, in);
  }
  std::uint64_t min_constraints() const override { return c_.min_constraints(); }

 private:
  const circuits::basic_circuit<C>& c_;
  progress& p_;
};

/* The file the server checked for the client (same device, inode, size and
   mtime; no symlink followed), read with pread: never a file swapped in since. */
std::unique_ptr<r1cs::input_file> open_checked(const std::string& path, const std::string& identity, const char* what,
                                               const char* kind) {
  const int fd = open_identified(path, identity, what);
  try {
    return std::make_unique<r1cs::input_file>(fd, path, kind);
  } catch (const r1cs::format_error&) {
    throw job_error(std::string("cannot read the ") + what + " " + path);
  }
}

template <class C>
synth_stats synthesize_native(const groth16::basic_proving_key<C>& pk, const spec& s, std::uint32_t partition,
                              groth16::basic_buffer_view<C> buf, progress* p) {
  auto c = circuits::make_circuit<C>(s.circuit);
  auto j = nlohmann::json::parse(s.inputs, nullptr, false);
  if (j.is_discarded()) throw job_error("the inputs are not JSON");
  if (j.is_array()) {
    if (partition >= j.size())
      throw job_error("inputs hold " + std::to_string(j.size()) + " partitions; partition " +
                      std::to_string(partition) + " has none");
    j = j[partition];
  }
  auto in = c->parse_inputs(j);
  if (!p) {
    groth16::synthesize_into<C>(pk, *c, *in, buf);
    return {c->count().constraints, pk.n_vars};
  }
  p->publish();
  groth16::synthesize_into<C>(pk, progress_circuit<C>(*c, *p), *in, buf);
  p->publish();
  return {c->count().constraints, pk.n_vars};
}

template <class C>
synth_stats synthesize_circom(const groth16::basic_proving_key<C>& pk, const spec& s, groth16::basic_buffer_view<C> buf,
                              progress* p) {
  std::uint64_t n = 0;
  try {
    opaque_phase phase(p);
    const auto file = open_checked(s.wtns, s.wtns_identity, "witness", "wtns");
    const auto& wtns = *file;
    n = r1cs::wtns_size(wtns);
    if (n != pk.n_vars)
      throw job_error("the witness has " + std::to_string(n) + " values, the key expects " + std::to_string(pk.n_vars) +
                      " (witness of another circuit?)");
    r1cs::read_wtns_into<C>(wtns, buf.z);
  } catch (const r1cs::format_error& e) {
    throw job_error(s.wtns + ": " + e.what());
  }
  if (!buf.z[0].is_one()) throw job_error("the witness does not start with the constant 1");
  if (s.r1cs.empty()) {
    if (auto why = coefficients_refusal(shape_of(pk))) throw job_error(*why);
    opaque_phase phase(p);
    groth16::evaluate_from_coefs<C>(pk, buf.z, buf.a, buf.b, buf.c);
    return {pk.domain_size, n};
  }
  std::uint64_t rows = 0;
  {
    opaque_phase phase(p);
    try {
      // what the header and section table declare is checked against the key
      // before anything is read: the rows are then evaluated a chunk at a time
      const auto file = open_checked(s.r1cs, s.r1cs_identity, "constraint system", "r1cs");
      const auto shape = r1cs::read_r1cs_shape(*file);
      r1cs::check_r1cs_shape(shape, r1cs_bounds_of(shape_of(pk)));
      rows = r1cs::evaluate_r1cs<C>(*file, shape, buf.z, buf.a, buf.b, buf.c);
    } catch (const r1cs::format_error& e) {
      throw job_error(s.r1cs + ": " + e.what());
    }
  }
  for (std::uint64_t i = 0; i < rows; ++i) {
    if (p) p->advance();
    if (buf.a[i] * buf.b[i] != buf.c[i])
      throw circuits::circuit_error("the witness does not satisfy constraint " + std::to_string(i) + " of " + s.r1cs);
  }
  groth16::fill_public_rows<C>(rows, pk.n_public, buf.z, buf.a, buf.b, buf.c);
  return {rows, n};
}

/* An installed circuit's witness, computed from the job's inputs by the circuit's generator (confined), straight
   into z; a, b, c then from the key's coefficients as for a .wtns. */
template <class C>
synth_stats synthesize_installed(const groth16::basic_proving_key<C>& pk, const spec& s,
                                 groth16::basic_buffer_view<C> buf, progress* p, const installed_context* ctx) {
  if (!ctx) throw job_error("an installed circuit's job is synthesized only in a worker of its pool");
  const auto c = find_circuit(ctx->pool, s.installed);
  if (!c) throw job_error("the circuit " + s.installed + " was removed from the pool after the job was submitted");
  if (c->id != s.circuit_id)
    throw job_error("the circuit " + s.installed +
                    " was installed again (another key or generator) after the job was submitted");
  if (auto why = coefficients_refusal(shape_of(pk))) throw job_error(*why);
  const auto inputs = read_inputs(s.inputs_file, s.inputs_identity);
  std::uint64_t n = 0, witness_ns = 0;
  {
    opaque_phase phase(p);  // the generator reports no progress: the deadline bounds it
    generated_witness w;
    {
      private_dir dir("generator");
      w = generate_witness(unpack_circuit(ctx->pool, *c, dir.path), inputs, ctx->limits);
    }
    witness_ns = static_cast<std::uint64_t>(w.seconds * 1e9);
    try {
      n = r1cs::wtns_size(w.wtns);
      if (n != pk.n_vars)
        throw job_error("the circuit's generator wrote " + std::to_string(n) + " witness values, its key expects " +
                        std::to_string(pk.n_vars));
      r1cs::read_wtns_into<C>(w.wtns, buf.z);
    } catch (const r1cs::format_error& e) {
      throw job_error("the witness the circuit's generator wrote: " + std::string(e.what()));
    }
  }
  if (!buf.z[0].is_one()) throw job_error("the witness does not start with the constant 1");
  opaque_phase phase(p);
  groth16::evaluate_from_coefs<C>(pk, buf.z, buf.a, buf.b, buf.c);
  return {pk.domain_size, n, witness_ns};
}

template <class C>
synth_stats synthesize_any(const groth16::basic_proving_key<C>& pk, const spec& s, std::uint32_t partition,
                           groth16::basic_buffer_view<C> buf, progress* p, const installed_context* ctx) {
  if (s.is_native()) return synthesize_native<C>(pk, s, partition, buf, p);
  if (s.is_installed()) return synthesize_installed<C>(pk, s, buf, p, ctx);
  return synthesize_circom<C>(pk, s, buf, p);
}

}  // namespace

std::optional<std::string> coefficients_refusal(const key_shape& k) {
  if (!k.native) return std::nullopt;
  return "the key was made for a native circuit (cuzk setup --circuit): the pool keeps none of its A/B "
         "coefficients, so a witness is proven with it only beside its .r1cs (--r1cs)";
}

r1cs::r1cs_bounds r1cs_bounds_of(const key_shape& k) {
  return {k.n_vars, k.n_public, k.domain_size - std::min<std::uint64_t>(k.domain_size, k.n_public + 1)};
}

synth_stats synthesize(const any_key& key, const spec& s, std::uint32_t partition, const shm::slot_payload& slot,
                       progress* p, const installed_context* ctx) {
  return key.visit([&](const auto& pk) {
    using C = typename std::remove_cvref_t<decltype(pk)>::curve;
    return synthesize_any<C>(pk, s, partition, slot_buffers<C>(slot, pk), p, ctx);
  });
}

template <class C>
synth_stats synthesize(const groth16::basic_proving_key<C>& pk, const spec& s, std::uint32_t partition,
                       std::type_identity_t<groth16::basic_buffer_view<C>> buf, progress* p,
                       const installed_context* ctx) {
  if (buf.a.size() != pk.domain_size || buf.b.size() != pk.domain_size || buf.c.size() != pk.domain_size ||
      buf.z.size() != pk.n_vars)
    throw job_error("synthesis buffers do not match the key's domain and witness sizes");
  return synthesize_any<C>(pk, s, partition, buf, p, ctx);
}

#define CUZK_INSTANTIATE(C)                                                                            \
  template synth_stats synthesize<C>(const groth16::basic_proving_key<C>&, const spec&, std::uint32_t, \
                                     groth16::basic_buffer_view<C>, progress*, const installed_context*);
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::job
