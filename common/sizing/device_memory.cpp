#include "sizing/device_memory.hpp"

#include <algorithm>
#include <utility>

namespace cuzk::sizing {

namespace {

/* one query: n bases of point_bytes, shifted or not; its points and MSM temporaries (XYZZ buckets: 2 points) */
std::uint64_t query_bytes(std::uint64_t n, const msm_shifts& sh, std::uint64_t point_bytes, unsigned bits) {
  return n * (sh.copies + 1) * point_bytes + msm_workspace_bytes(n, sh, 2 * point_bytes, bits);
}

/* the most copies of n bases that fit in `left` more bytes than the plain query takes */
msm_shifts fit_shifts(std::uint64_t n, std::uint64_t& left, int max_copies, std::uint64_t point_bytes, unsigned bits) {
  if (max_copies == 0 || n == 0) return {};
  const std::uint64_t plain = query_bytes(n, {}, point_bytes, bits);
  for (unsigned most = max_copies < 0 ? 64u : unsigned(max_copies); most > 0;) {
    const msm_shifts sh = msm_plan_shifts(n, most, bits);
    if (!sh.copies) return {};
    const std::uint64_t with = query_bytes(n, sh, point_bytes, bits), extra = with - std::min(plain, with);
    if (extra <= left) {
      left -= extra;
      return sh;
    }
    most = sh.copies - 1;
  }
  return {};
}

}  // namespace

key_dims key_dims::of(curves::curve_id curve, std::uint64_t n_vars, std::uint64_t n_public, std::uint64_t domain,
                      bool coefficient_form) {
  key_dims k;
  k.curve = curve;
  k.n_vars = n_vars;
  k.domain = domain;
  k.a = k.b1 = k.b2 = n_vars;
  k.c = n_vars > n_public + 1 ? n_vars - n_public - 1 : 0;
  k.h = coefficient_form && domain ? domain - 1 : domain;
  return k;
}

curve_sizes sizes_of(curves::curve_id c) noexcept {
  /* 2 and 4 elements of Fp: 48 B on BLS12-381, 32 B on BN254; r has 255 and 254 bits */
  return c == curves::curve_id::bn254 ? curve_sizes{64, 128, 254} : curve_sizes{96, 192, 255};
}

std::string key_copies::describe() const {
  if (!total()) return "none";
  std::string out;
  for (const auto& [name, sh] :
       {std::pair<const char*, const msm_shifts*>{"h", &h}, {"l", &c}, {"a", &a}, {"b1", &b1}, {"b2", &b2}})
    out += (out.empty() ? "" : " ") + std::string(name) + " " + std::to_string(sh->copies) +
           (sh->copies ? "@" + std::to_string(sh->c) : "");
  return out;
}

std::uint64_t bases_bytes(const key_dims& k) {
  const curve_sizes s = sizes_of(k.curve);
  return (k.a + k.b1 + k.c + k.h) * s.g1 + k.b2 * s.g2;
}

std::uint64_t key_footprint(const key_dims& k, const key_copies& sh) {
  const curve_sizes s = sizes_of(k.curve);
  return query_bytes(k.a, sh.a, s.g1, s.scalar_bits) + query_bytes(k.b1, sh.b1, s.g1, s.scalar_bits) +
         query_bytes(k.c, sh.c, s.g1, s.scalar_bits) + query_bytes(k.h, sh.h, s.g1, s.scalar_bits) +
         query_bytes(k.b2, sh.b2, s.g2, s.scalar_bits);
}

std::uint64_t shifted_bytes(const key_dims& k, const key_copies& sh) {
  const curve_sizes s = sizes_of(k.curve);
  return (k.a * sh.a.copies + k.b1 * sh.b1.copies + k.c * sh.c.copies + k.h * sh.h.copies) * s.g1 +
         k.b2 * sh.b2.copies * s.g2;
}

std::uint64_t working_bytes(const key_dims& k) {
  const std::uint64_t n = k.domain, v = k.n_vars;
  /* a, b, c, two NTT scratch vectors and H (32 B each), z; 4 B a constraint and 40 B a variable of the split */
  return 32 * (3 * n + 2 * n + n + v) + 4 * n + 40 * v + (std::uint64_t(64) << 20);
}

key_copies plan_key_copies(const key_dims& k, std::uint64_t allowance, int max_copies) {
  const curve_sizes s = sizes_of(k.curve);
  key_copies out;
  std::uint64_t left = allowance;
  out.h = fit_shifts(k.h, left, max_copies, s.g1, s.scalar_bits);
  out.c = fit_shifts(k.c, left, max_copies, s.g1, s.scalar_bits);
  out.a = fit_shifts(k.a, left, max_copies, s.g1, s.scalar_bits);
  out.b1 = fit_shifts(k.b1, left, max_copies, s.g1, s.scalar_bits);
  out.b2 = fit_shifts(k.b2, left, max_copies, s.g2, s.scalar_bits);
  return out;
}

std::uint64_t device_budget(std::uint64_t total_mem, std::uint64_t reserve, std::uint64_t configured,
                            unsigned sharers) {
  const std::uint64_t usable = total_mem > reserve ? total_mem - reserve : 0;
  return configured ? std::min(configured, usable) : usable / std::max(1u, sharers);
}

std::uint64_t resident_need(const key_dims& k, unsigned workers) {
  return key_footprint(k) + std::uint64_t(workers) * working_bytes(k);
}

std::uint64_t copies_allowance(const key_dims& k, unsigned workers, std::uint64_t budget, std::uint64_t resident_bytes,
                               std::uint64_t free_now, std::uint64_t reserve) {
  const std::uint64_t need = resident_need(k, workers);
  if (resident_bytes + need > budget) return 0;
  std::uint64_t left = budget - resident_bytes - need;
  left = std::min(left, free_now > reserve + need ? free_now - reserve - need : 0);
  const std::uint64_t margin = reserve + std::uint64_t(workers) * (working_bytes(k) / 4);
  return left > margin ? left - margin : 0;
}

unsigned workers_that_fit(const key_dims& k, std::uint64_t budget) {
  const std::uint64_t key = key_footprint(k);
  if (key > budget) return 0;
  return unsigned(std::min<std::uint64_t>((budget - key) / working_bytes(k), 1u << 16));
}

}  // namespace cuzk::sizing
