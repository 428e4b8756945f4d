#include "cuda/ntt/ntt.hpp"

#include <optional>
#include <utility>
#include <vector>

#include "cuda/error.hpp"
#include "cuda/ntt/device_powers.hpp"
#include "cuda/ntt/launch.hpp"
#include "cuda/ntt/pipeline.hpp"
#include "cuda/ntt/powers.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::cuda::ntt {
namespace {

template <class C>
void run(const std::vector<detail::pass>& passes, cudaStream_t s) {
  for (const detail::pass& ps : passes) detail::launch<C>(ps, s);
}

/* pre/post: factors of element j of the input/output (its index, whatever the order) */
template <class C>
void transform(ff::fr<C>* d, unsigned log_n, poly::root_family f, bool inverse, order in, order out,
               const std::optional<detail::factor_fn>& pre, const std::optional<detail::factor_fn>& post,
               cudaStream_t s) {
  const basic_tables<C>& t = basic_tables<C>::get(log_n, f);
  /* in == out: one explicit permutation around a DIF */
  const bool permute_first = in == out && in == order::bit_reversed;
  const bool permute_last = in == out && in == order::natural;
  if (permute_first) detail::launch_bit_reverse(d, log_n, s);
  std::vector<detail::pass> passes;
  const detail::transform_spec spec{log_n, t.twiddles(), inverse, in == order::natural || permute_first, pre, post};
  detail::append_transform(passes, spec, d, d);
  run<C>(passes, s);
  if (permute_last) detail::launch_bit_reverse(d, log_n, s);
}

}  // namespace

template <class C>
void forward(ff::fr<C>* d, unsigned log_n, poly::root_family f, order in, order out, cudaStream_t s) {
  transform<C>(d, log_n, f, false, in, out, std::nullopt, std::nullopt, s);
}

template <class C>
void inverse(ff::fr<C>* d, unsigned log_n, poly::root_family f, order in, order out, cudaStream_t s) {
  const ff::fr<C>& n_inv = basic_tables<C>::get(log_n, f).size_inv();
  transform<C>(d, log_n, f, true, in, out, std::nullopt, detail::constant(n_inv), s);
}

template <class C>
void coset_forward(ff::fr<C>* d, unsigned log_n, poly::root_family f, const ff::fr<C>& g, order in, order out,
                   cudaStream_t s) {
  transform<C>(d, log_n, f, false, in, out, detail::device_powers<C>(log_n, g, ff::fr<C>::one()), std::nullopt, s);
}

template <class C>
void coset_inverse(ff::fr<C>* d, unsigned log_n, poly::root_family f, const ff::fr<C>& g, order in, order out,
                   cudaStream_t s) {
  const ff::fr<C>& n_inv = basic_tables<C>::get(log_n, f).size_inv();
  transform<C>(d, log_n, f, true, in, out, std::nullopt, detail::device_powers<C>(log_n, g.inverse(), n_inv), s);
}

template <class C>
order compute_h(const ff::fr<C>* a, const ff::fr<C>* b, const ff::fr<C>* c, ec::scalar_limbs_t* out, ff::fr<C>* scratch,
                const basic_h_params<C>& p, cudaStream_t s, const inputs_ready& ready) {
  const basic_tables<C>& t = basic_tables<C>::get(p.log_n, p.family);
  const bool odd = p.convention == poly::h_convention::odd_coset;
  const auto keys = detail::compute_h_keys<C>(p.convention, p.log_n, p.shift, p.z_inv);
  const auto table = [&](const detail::power_key<C>& k) { return detail::device_powers<C>(p.log_n, k.g, k.c); };
  detail::h_spec h{p.convention, p.log_n, t.twiddles(), table(keys.to_coset), {}, {}};
  if (odd)
    h.to_coset_rinv = table(keys.to_coset_rinv);
  else
    h.from_coset = table(keys.from_coset);
  std::vector<detail::pass> passes;
  detail::append_compute_h(passes, h, a, b, c, out, scratch);
  const std::pair<std::size_t, cudaEvent_t> waits[] = {{detail::first_reader(passes, a), ready.a},
                                                       {detail::first_reader(passes, b), ready.b},
                                                       {detail::first_reader(passes, c), ready.c}};
  for (std::size_t i = 0; i < passes.size(); ++i) {
    for (const auto& [reader, ev] : waits)
      if (ev && reader == i) CUZK_CUDA_OK(cudaStreamWaitEvent(s, ev, 0));
    detail::launch<C>(passes[i], s);
  }
  return odd ? order::natural : order::bit_reversed;
}

#define CUZK_NTT_INSTANCES(C)                                                                                        \
  template void forward<C>(ff::fr<C>*, unsigned, poly::root_family, order, order, cudaStream_t);                     \
  template void inverse<C>(ff::fr<C>*, unsigned, poly::root_family, order, order, cudaStream_t);                     \
  template void coset_forward<C>(ff::fr<C>*, unsigned, poly::root_family, const ff::fr<C>&, order, order,            \
                                 cudaStream_t);                                                                      \
  template void coset_inverse<C>(ff::fr<C>*, unsigned, poly::root_family, const ff::fr<C>&, order, order,            \
                                 cudaStream_t);                                                                      \
  template order compute_h<C>(const ff::fr<C>*, const ff::fr<C>*, const ff::fr<C>*, ec::scalar_limbs_t*, ff::fr<C>*, \
                              const basic_h_params<C>&, cudaStream_t, const inputs_ready&);
CUZK_CURVES(CUZK_NTT_INSTANCES)
#undef CUZK_NTT_INSTANCES

}  // namespace cuzk::cuda::ntt
