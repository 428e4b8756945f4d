#include "cuda/ntt/ntt.hpp"

#include <optional>
#include <vector>

#include "cuda/ntt/device_powers.hpp"
#include "cuda/ntt/launch.hpp"
#include "cuda/ntt/pipeline.hpp"
#include "cuda/ntt/powers.hpp"

namespace cuzk::cuda::ntt {
namespace {

void run(const std::vector<detail::pass>& passes, cudaStream_t s) {
  for (const detail::pass& ps : passes) detail::launch(ps, s);
}

/* pre/post: factors of element j of the input/output (its index, whatever the order) */
void transform(ff::fr_t* d, unsigned log_n, poly::root_family f, bool inverse, order in, order out,
               const std::optional<detail::factor_fn>& pre, const std::optional<detail::factor_fn>& post,
               cudaStream_t s) {
  const tables& t = tables::get(log_n, f);
  /* in == out: one explicit permutation around a DIF */
  const bool permute_first = in == out && in == order::bit_reversed;
  const bool permute_last = in == out && in == order::natural;
  if (permute_first) detail::launch_bit_reverse(d, log_n, s);
  std::vector<detail::pass> passes;
  const detail::transform_spec spec{log_n, t.twiddles(), inverse, in == order::natural || permute_first, pre, post};
  detail::append_transform(passes, spec, d, d);
  run(passes, s);
  if (permute_last) detail::launch_bit_reverse(d, log_n, s);
}

}  // namespace

void forward(ff::fr_t* d, unsigned log_n, poly::root_family f, order in, order out, cudaStream_t s) {
  transform(d, log_n, f, false, in, out, std::nullopt, std::nullopt, s);
}

void inverse(ff::fr_t* d, unsigned log_n, poly::root_family f, order in, order out, cudaStream_t s) {
  const ff::fr_t& n_inv = tables::get(log_n, f).size_inv();
  transform(d, log_n, f, true, in, out, std::nullopt, detail::constant(n_inv), s);
}

void coset_forward(ff::fr_t* d, unsigned log_n, poly::root_family f, const ff::fr_t& g, order in, order out,
                   cudaStream_t s) {
  transform(d, log_n, f, false, in, out, detail::device_powers(log_n, g, ff::fr_t::one()), std::nullopt, s);
}

void coset_inverse(ff::fr_t* d, unsigned log_n, poly::root_family f, const ff::fr_t& g, order in, order out,
                   cudaStream_t s) {
  const ff::fr_t& n_inv = tables::get(log_n, f).size_inv();
  transform(d, log_n, f, true, in, out, std::nullopt, detail::device_powers(log_n, g.inverse(), n_inv), s);
}

order compute_h(const ff::fr_t* a, const ff::fr_t* b, const ff::fr_t* c, ec::scalar_limbs_t* out,
                ff::fr_t* scratch, const h_params& p, cudaStream_t s) {
  const tables& t = tables::get(p.log_n, p.family);
  const bool odd = p.convention == poly::h_convention::odd_coset;
  const auto keys = detail::compute_h_keys(p.convention, p.log_n, p.shift, p.z_inv);
  const auto table = [&](const detail::power_key& k) { return detail::device_powers(p.log_n, k.g, k.c); };
  detail::h_spec h{p.convention, p.log_n, t.twiddles(), table(keys.to_coset), {}, {}};
  if (odd)
    h.to_coset_rinv = table(keys.to_coset_rinv);
  else
    h.from_coset = table(keys.from_coset);
  std::vector<detail::pass> passes;
  detail::append_compute_h(passes, h, a, b, c, out, scratch);
  run(passes, s);
  return odd ? order::natural : order::bit_reversed;
}

}  // namespace cuzk::cuda::ntt
