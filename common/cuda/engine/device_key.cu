#include "cuda/engine/device_key.hpp"

#include <algorithm>
#include <utility>

#include "cuda/error.hpp"
#include "cuda/msm/group.cuh"

namespace cuzk::cuda {

namespace {

template <class Affine>
constexpr std::size_t xyzz_bytes = 2 * msm::group<Affine>::point_bytes;

/* one query: n bases, shifted or not; its points and MSM temporaries */
template <class Affine>
std::size_t query_bytes(std::size_t n, const msm::shifts& sh) {
  constexpr unsigned bits = msm::group<Affine>::scalar_bits;
  return n * (sh.copies + 1) * msm::group<Affine>::point_bytes + msm::workspace_bytes(n, sh, xyzz_bytes<Affine>, bits);
}

/* the most copies of n bases that fit in `left` more bytes than the plain query takes */
template <class Affine>
msm::shifts fit_shifts(std::size_t n, std::size_t& left, int max_copies) {
  constexpr unsigned bits = msm::group<Affine>::scalar_bits;
  if (max_copies == 0 || n == 0) return {};
  const std::size_t plain = query_bytes<Affine>(n, {});
  for (unsigned most = max_copies < 0 ? 64u : unsigned(max_copies); most > 0;) {
    const msm::shifts sh = msm::plan_shifts(n, most, bits);
    if (!sh.copies) return {};
    const std::size_t with = query_bytes<Affine>(n, sh), extra = with - std::min(plain, with);
    if (extra <= left) {
      left -= extra;
      return sh;
    }
    most = sh.copies - 1;
  }
  return {};
}

}  // namespace

std::string key_shifts::describe() const {
  if (!total()) return "none";
  std::string out;
  for (const auto& [name, sh] : {std::pair<const char*, const msm::shifts*>{"h", &h}, {"l", &c}, {"a", &a},
                                 {"b1", &b1}, {"b2", &b2}})
    out += (out.empty() ? "" : " ") + std::string(name) + " " + std::to_string(sh->copies) +
           (sh->copies ? "@" + std::to_string(sh->c) : "");
  return out;
}

template <class C>
key_shifts plan_key_shifts(const groth16::basic_proving_key<C>& pk, std::size_t allowance, int max_copies) {
  using G1 = ec::g1_affine<C>;
  using G2 = ec::g2_affine<C>;
  key_shifts k;
  std::size_t left = allowance;
  k.h = fit_shifts<G1>(pk.h_count(), left, max_copies);
  k.c = fit_shifts<G1>(pk.c_count(), left, max_copies);
  k.a = fit_shifts<G1>(pk.a_count(), left, max_copies);
  k.b1 = fit_shifts<G1>(pk.b1_count(), left, max_copies);
  k.b2 = fit_shifts<G2>(pk.b2_count(), left, max_copies);
  return k;
}

template <class Affine>
msm::device_bases<Affine> upload_bases(std::span<const std::uint8_t> mapped, const std::vector<Affine>& points,
                                       cudaStream_t s, unsigned room) {
  if (!mapped.empty()) return msm::device_bases<Affine>::from_device_layout(mapped, s, room);
  return msm::device_bases<Affine>(std::span<const Affine>(points), s, room);
}

template <class C>
basic_device_key<C>::basic_device_key(const proving_key& pk, cudaStream_t s, const key_shifts& sh)
    : a(upload_bases(pk.mapped.a, pk.a, s, sh.a.copies)), b1(upload_bases(pk.mapped.b1, pk.b1, s, sh.b1.copies)),
      c(upload_bases(pk.mapped.c, pk.c, s, sh.c.copies)), h(upload_bases(pk.mapped.h, pk.h_query, s, sh.h.copies)),
      b2(upload_bases(pk.mapped.b2, pk.b2, s, sh.b2.copies)), pk_(&pk), n_vars_(pk.n_vars),
      domain_size_(pk.domain_size), delta1_(pk.delta1), bytes_(bases_bytes(pk)), footprint_(footprint(pk, sh)),
      shifts_(sh) {
  CUZK_CUDA_OK(cudaStreamSynchronize(s));
  if (sh.total()) {
    h.shift(sh.h, s);
    c.shift(sh.c, s);
    a.shift(sh.a, s);
    b1.shift(sh.b1, s);
    b2.shift(sh.b2, s);
  }
  /* the MSM temporaries now: a key that does not fit fails here, not in a proof */
  h.prepare(h.size(), s);
  c.prepare(c.size(), s);
  a.prepare(a.size(), s);
  b1.prepare(b1.size(), s);
  b2.prepare(b2.size(), s);
}

template <class C>
std::size_t basic_device_key<C>::shifted_bytes() const {
  using G1 = ec::g1_affine<C>;
  using G2 = ec::g2_affine<C>;
  constexpr std::size_t p1 = msm::group<G1>::point_bytes, p2 = msm::group<G2>::point_bytes;
  return (a.size() * shifts_.a.copies + b1.size() * shifts_.b1.copies + c.size() * shifts_.c.copies +
          h.size() * shifts_.h.copies) * p1 + b2.size() * shifts_.b2.copies * p2;
}

template <class C>
bool basic_device_key<C>::holds(const proving_key& pk) const {
  return &pk == pk_ && pk.n_vars == n_vars_ && pk.domain_size == domain_size_ && pk.delta1 == delta1_;
}

template <class C>
std::size_t basic_device_key<C>::bases_bytes(const proving_key& pk) {
  return (pk.a_count() + pk.b1_count() + pk.c_count() + pk.h_count()) * proving_key::g1_bytes +
         pk.b2_count() * proving_key::g2_bytes;
}

template <class C>
std::size_t basic_device_key<C>::footprint(const proving_key& pk, const key_shifts& sh) {
  using G1 = ec::g1_affine<C>;
  return query_bytes<G1>(pk.a_count(), sh.a) + query_bytes<G1>(pk.b1_count(), sh.b1) +
         query_bytes<G1>(pk.c_count(), sh.c) + query_bytes<G1>(pk.h_count(), sh.h) +
         query_bytes<ec::g2_affine<C>>(pk.b2_count(), sh.b2);
}

template <class C>
std::size_t working_bytes(const groth16::basic_proving_key<C>& pk) {
  const std::size_t n = pk.domain_size, v = pk.n_vars;
  return 32 * (3 * n + 2 * n + n + v) + 4 * n + 40 * v + (std::size_t(64) << 20);
}

#define CUZK_DEVICE_KEY_INSTANCES(C)                                                                         \
  template class basic_device_key<C>;                                                                        \
  template key_shifts plan_key_shifts(const groth16::basic_proving_key<C>&, std::size_t, int);               \
  template msm::basic_g1_bases<C> upload_bases(std::span<const std::uint8_t>, const std::vector<ec::g1_affine<C>>&, \
                                               cudaStream_t, unsigned);                                      \
  template msm::basic_g2_bases<C> upload_bases(std::span<const std::uint8_t>, const std::vector<ec::g2_affine<C>>&, \
                                               cudaStream_t, unsigned);                                      \
  template std::size_t working_bytes(const groth16::basic_proving_key<C>&);
CUZK_DEVICE_KEY_INSTANCES(curves::bls12_381)
CUZK_DEVICE_KEY_INSTANCES(curves::bn254)
#undef CUZK_DEVICE_KEY_INSTANCES

}  // namespace cuzk::cuda
