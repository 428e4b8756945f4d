#include "io/zkey_setup.hpp"

#include <algorithm>
#include <functional>
#include <stdexcept>
#include <string>
#include <type_traits>

#include <tbb/parallel_for.h>

#include "curves/dispatch.hpp"
#include "poly/domain.hpp"
#include "r1cs/matrices.hpp"

namespace cuzk::io {

namespace {

using r1cs::variable;

/* Setup mode without matrices: one row at a time, as recording_cs would
   record it (terms merged by wire, zeros dropped, wires numbered inputs first). */
template <class C>
class qap_cs final : public r1cs::basic_constraint_system<C> {
 public:
  using typename r1cs::basic_constraint_system<C>::fr;
  using typename r1cs::basic_constraint_system<C>::lc;
  using term = r1cs::basic_term<C>;

  /* one of the passes: on_row(row, a, b, c) with the merged terms of A and B
     (c unmerged: only its sums matter) */
  using row_fn =
      std::function<void(std::uint64_t, std::span<const term>, std::span<const term>, std::span<const term>)>;
  qap_cs(std::uint64_t n_inputs, row_fn f) : n_inputs_(n_inputs), f_(std::move(f)) {}

  variable alloc_input(const fr&) override {
    if (n_.inputs >= n_inputs_) throw std::runtime_error("setup: the circuit allocated more inputs than it counted");
    return variable::input(static_cast<std::uint32_t>(n_.inputs++));
  }
  variable alloc_aux(const fr&) override {
    if (n_.aux >= 0xffffffffu) throw std::runtime_error("setup: more than 2^32 aux variables");
    return variable::aux(static_cast<std::uint32_t>(n_.aux++));
  }
  bool needs_values() const override { return false; }
  r1cs::counts sizes() const override { return n_; }

 protected:
  void do_enforce(const lc& a, const lc& b, const lc& c, const char*) override {
    wires(a, a_, true);
    wires(b, b_, true);
    wires(c, c_, false);
    f_(n_.constraints++, a_, b_, c_);
  }

 private:
  void wires(const lc& x, std::vector<term>& out, bool merge) {
    out.clear();
    for (const auto& t : x.terms()) {
      const bool aux = t.var.type == variable::kind::aux;
      if (t.var.index >= (aux ? n_.aux : n_.inputs))
        throw std::runtime_error("setup: constraint " + std::to_string(n_.constraints) + " uses " +
                                 (aux ? "aux " : "input ") + std::to_string(t.var.index) + " before allocating it");
      out.push_back({static_cast<std::uint32_t>(aux ? n_inputs_ + t.var.index : t.var.index), t.coeff});
    }
    if (merge) r1cs::merge_by_wire(out);
  }

  std::uint64_t n_inputs_;
  row_fn f_;
  r1cs::counts n_;
  std::vector<term> a_, b_, c_;
};

/* L_row(τ) over the key's domain, a block of rows at a time, as rows arrive in order */
template <class C>
class lagrange_blocks {
 public:
  using fr = ff::fr<C>;
  static constexpr std::uint64_t block = 1u << 18;
  lagrange_blocks(const fr& tau, const poly::basic_domain<C>& d) : tau_(tau), d_(d) {}
  const fr& at(std::uint64_t row) {
    if (row < first_ || row >= first_ + cur_.size()) {
      first_ = row / block * block;
      cur_ = groth16::lagrange_at(tau_, fr::one(), d_.omega(), d_.size(), first_,
                                  static_cast<std::size_t>(std::min<std::uint64_t>(block, d_.size() - first_)));
    }
    return cur_[row - first_];
  }

 private:
  fr tau_;
  const poly::basic_domain<C>& d_;
  std::uint64_t first_ = 0;
  std::vector<fr> cur_;
};

}  // namespace

template <class C>
basic_zkey_setup<C>::basic_zkey_setup(const circuits::basic_circuit<C>& c, const groth16::basic_toxic_waste<C>& t,
                                      groth16::h_form h, const groth16::progress_fn& progress,
                                      groth16::basic_fixed_base_engine<C>* fb)
    : c_(c), t_(t), progress_(progress), fb_(fb) {
  step("counting the circuit", 0, 1);
  /* wires numbered as if 2^31 inputs came first: the merge and the count are the same */
  std::uint64_t n_coefs = 0;
  qap_cs<C> cs(std::uint64_t{1} << 31, [&](std::uint64_t, auto a, auto b, auto) { n_coefs += a.size() + b.size(); });
  c.synthesize(cs, nullptr);
  n_ = cs.sizes();
  if (n_.inputs + n_.aux > 0xffffffffu || n_.aux >= (std::uint64_t{1} << 31))
    throw std::runtime_error("setup: more than 2^32 - 1 wires");
  const auto n_public = static_cast<std::uint32_t>(n_.inputs - 1);
  layout_ = zkey_layout::of(C::id, static_cast<std::uint32_t>(n_.inputs + n_.aux), n_public,
                            groth16::domain_size_for(n_.constraints, n_public), n_coefs + n_public + 1, h,
                            true);  // a native circuit's key
}

template <class C>
void basic_zkey_setup<C>::step(std::string_view what, std::uint64_t done, std::uint64_t total) const {
  if (progress_) progress_(what, done, total);
}

template <class C>
void basic_zkey_setup<C>::write(std::span<std::uint8_t> out) {
  if (written_) throw std::logic_error("zkey_setup::write: the scalars are spent");
  written_ = true;
  const zkey_layout& l = layout_;
  groth16::basic_cpu_fixed_base_engine<C> cpu;
  groth16::basic_fixed_base_engine<C>& e = fb_ ? *fb_ : cpu;
  const auto& g1 = ec::g1_group<C>::generator();
  const auto& g2 = ec::g2_group<C>::generator();

  groth16::basic_proving_key<C> vk;
  groth16::set_fixed_points(t_, e, vk);
  write_frame(out, l, vk);

  /* u_i += A[row][i] L_row(τ), v_i += B[row][i] L, w_i += C[row][i] L (w in k_); the A and B entries are the
   * coefficients */
  step("accumulating the QAP at tau and writing the coefficients", 0, n_.constraints);
  std::uint32_t log_n = 0;
  while ((1u << log_n) < l.domain_size) ++log_n;
  u_.assign(l.n_vars, fr::zero());
  v_.assign(l.n_vars, fr::zero());
  k_.assign(l.n_vars, fr::zero());
  lagrange_blocks<C> lag(t_.tau, poly::basic_domain<C>::cached(log_n, poly::root_family::snarkjs));
  std::uint64_t i = 0;
  /* the stored bytes of recent coefficient values, direct-mapped by their low limb */
  struct cached {
    fr v;
    coef_value_bytes b;
  };
  std::vector<cached> cache(256, {fr::zero(), coef_bytes(fr::zero())});
  auto bytes_of = [&](const fr& v) -> const coef_value_bytes& {
    cached& c = cache[v.l[0] & 255];
    if (!(c.v == v)) c = {v, coef_bytes(v)};
    return c.b;
  };
  /* x L_row, without the multiplication for ±1 */
  const fr minus_one = -fr::one();
  auto times = [&](const fr& x, const fr& lr) { return x.is_one() ? lr : x == minus_one ? -lr : x * lr; };
  auto differs = [] { return std::runtime_error("setup: the circuit's second synthesis differs from its first"); };
  qap_cs<C> cs(n_.inputs, [&](std::uint64_t row, auto a, auto b, auto cc) {
    if (i + a.size() + b.size() > l.n_coefs) throw differs();
    const fr& lr = lag.at(row);
    for (const auto& x : a) {
      u_[x.wire] += times(x.coeff, lr);
      put_coef(out, l, i++, 0, static_cast<std::uint32_t>(row), x.wire, bytes_of(x.coeff));
    }
    for (const auto& x : b) {
      v_[x.wire] += times(x.coeff, lr);
      put_coef(out, l, i++, 1, static_cast<std::uint32_t>(row), x.wire, bytes_of(x.coeff));
    }
    for (const auto& x : cc) k_[x.wire] += times(x.coeff, lr);
    if ((row & ((1u << 24) - 1)) == 0 && row)
      step("accumulating the QAP at tau and writing the coefficients", row, n_.constraints);
  });
  c_.synthesize(cs, nullptr);
  if (!(cs.sizes() == n_) || i + l.n_public + 1 != l.n_coefs) throw differs();
  /* rows n_c + s carry A[s] = 1 */
  for (std::uint32_t s = 0; s <= l.n_public; ++s) {
    u_[s] += lag.at(n_.constraints + s);
    put_coef(out, l, i++,
             groth16::basic_matrix_coef<C>{0, static_cast<std::uint32_t>(n_.constraints + s), s, fr::one()});
  }
  /* IC_i = (β u_i + α v_i + w_i) / γ (i ≤ n_public), C_i = (…) / δ */
  const fr gamma_inv = t_.gamma.inverse(), delta_inv = t_.delta.inverse();
  tbb::parallel_for(std::uint32_t{0}, l.n_vars, [&](std::uint32_t w) {
    k_[w] = (t_.beta * u_[w] + t_.alpha * v_[w] + k_[w]) * (w <= l.n_public ? gamma_inv : delta_inv);
  });

  constexpr std::size_t chunk = 1u << 22;
  /* a query's points k_i G, a chunk at a time, encoded from offset `at` */
  auto query = [&](std::string_view what, const auto& g, std::span<const fr> k, std::uint64_t at) {
    using point = std::remove_cvref_t<decltype(g)>;
    std::vector<point> pts(std::min(chunk, k.size()));
    for (std::size_t first = 0; first < k.size(); first += chunk) {
      step(what, first, k.size());
      const auto part = k.subspan(first, std::min(chunk, k.size() - first));
      const auto p = std::span(pts).first(part.size());
      if constexpr (std::is_same_v<point, ec::g1_affine<C>>) {
        e.mul_many_g1(g, part, p);
      } else {
        e.mul_many_g2(g, part, p);
      }
      put_points(out, at, first, std::span<const point>(p));
    }
  };
  query("A query (G1)", g1, u_, l.a);
  std::vector<fr>().swap(u_);
  query("B query (G1)", g1, v_, l.b1);
  query("B query (G2)", g2, v_, l.b2);
  std::vector<fr>().swap(v_);
  query("IC query (G1)", g1, std::span<const fr>(k_).first(l.n_public + 1), l.ic);
  query("C query (G1)", g1, std::span<const fr>(k_).subspan(l.n_public + 1), l.c);
  std::vector<fr>().swap(k_);
  const auto h_s = groth16::h_query_scalars<C>(t_, l.h, log_n);
  query("H query (G1)", g1, h_s, l.h_query);
  step("done", 1, 1);
}

#define CUZK_ZKEY_SETUP(C) template class basic_zkey_setup<C>;
CUZK_CURVES(CUZK_ZKEY_SETUP)

}  // namespace cuzk::io
