// Two-level power tables (powers.hpp) resident on the device, per process,
// device, curve and (log_n, g, c): the coset and scaling factors of the passes.
#pragma once

#include "cuda/ntt/plan.hpp"
#include "ff/fr.hpp"

namespace cuzk::cuda::ntt::detail {

/* f(j) = c g^j, j < 2^log_n, over device tables built (synchronously) on first use */
template <class C>
factor_fn device_powers(unsigned log_n, const ff::fr<C>& g, const ff::fr<C>& c);

}  // namespace cuzk::cuda::ntt::detail
