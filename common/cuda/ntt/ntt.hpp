// Number-theoretic transforms over Fr on the device (DESIGN §5), bit for bit
// those of common/poly. Data is device memory of ff::fr_t (Montgomery, the
// bytes of cuda::fr_t); every call is asynchronous on the given stream.
//
// A transform of 2^k elements runs as ceil((k - 11) / 9) + 1 kernels (k > 11),
// each up to 11 radix-2 stages on blocks of 2^11 elements in registers and
// shared memory. Orders are chosen so that no bit-reversal pass runs: natural
// in gives bit-reversed out (DIF), bit-reversed in gives natural out (DIT);
// coset and 1/n factors are applied by the pass that loads or stores the data.
#pragma once

#include <cuda_runtime_api.h>

#include "cuda/memory.hpp"
#include "ec/config.hpp"
#include "ff/fr.hpp"
#include "poly/quotient.hpp"
#include "poly/roots.hpp"

namespace cuzk::cuda::ntt {

enum class order { natural, bit_reversed };

/* The twiddles ω^i, i in [0, n/2], of (log_n, family) on the current device:
   built once per process and device by get() (which waits for them), then
   resident (16 n bytes: 4 GiB at 2^28). */
class tables {
 public:
  static const tables& get(unsigned log_n, poly::root_family f);

  unsigned log_n() const { return log_n_; }
  poly::root_family family() const { return family_; }
  const ff::fr_t& omega() const { return omega_; }
  const ff::fr_t& size_inv() const { return size_inv_; }
  const ff::fr_t* twiddles() const { return tw_.data(); }

  tables(unsigned log_n, poly::root_family f);  // builds on the current device (get() caches)

 private:
  unsigned log_n_;
  poly::root_family family_;
  ff::fr_t omega_, size_inv_;
  device_buffer<ff::fr_t> tw_;
};

/* A_i = Σ_j a_j ω^(ij). in != out runs one pass per block of stages and no
   permutation; in == out adds a bit-reversal pass (tests only). */
void forward(ff::fr_t* d, unsigned log_n, poly::root_family f, order in, order out, cudaStream_t s);
/* a_j = n^-1 Σ_i A_i ω^(-ij) */
void inverse(ff::fr_t* d, unsigned log_n, poly::root_family f, order in, order out, cudaStream_t s);
/* A_i = Σ_j a_j (g ω^i)^j: a_j g^j as the data is loaded */
void coset_forward(ff::fr_t* d, unsigned log_n, poly::root_family f, const ff::fr_t& g, order in, order out,
                   cudaStream_t s);
/* a_j = n^-1 g^-j Σ_i A_i ω^(-ij): the factor as the data is stored */
void coset_inverse(ff::fr_t* d, unsigned log_n, poly::root_family f, const ff::fr_t& g, order in, order out,
                   cudaStream_t s);

/* The quotient of DESIGN §5 / poly::compute_h, from const device a, b, c (natural
   order, n each) into out (n entries) as CANONICAL scalars, ready for the H MSM,
   with scratch (2 n fr_t) of the caller's. Returns the order of out:
     odd_coset:    out[i] = (a·b − c)(ζ ω^i), natural order
     coefficients: the n coefficients of (a·b − c)/Z (the last is 0 iff Z | AB − C),
                   bit-reversed order
   Each input takes its iNTT and its coset NTT in one chain whose middle kernel
   applies n^-1 g^j; a·b − c is fused into the kernel after the last of c's
   chain (odd_coset: c's last pass; coefficients: the coset iNTT's first), and
   Z^-1, n^-1 and the conversion out of Montgomery form into the factor tables
   (z_inv n^-1 R^-1 g^-j, or R^-1 on a and c: a·b − c then has the canonical
   limbs). */
struct h_params {
  poly::h_convention convention;
  unsigned log_n;
  poly::root_family family;
  ff::fr_t shift;  // ζ = ω_2n (odd_coset) or g = 7 (coefficients)
  ff::fr_t z_inv;  // (g^n − 1)^-1; read for coefficients only
};
order compute_h(const ff::fr_t* a, const ff::fr_t* b, const ff::fr_t* c, ec::scalar_limbs_t* out,
                ff::fr_t* scratch, const h_params& p, cudaStream_t s);

}  // namespace cuzk::cuda::ntt
