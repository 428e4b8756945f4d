// Number-theoretic transforms over the Fr of a curve C on the device (DESIGN
// §5), bit for bit those of common/poly. Data is device memory of ff::fr<C>
// (Montgomery, the bytes of cuda::fr<C>); every call is asynchronous on the
// given stream. C is BLS12-381 where left out (forward(d, ...) is BLS12-381's,
// forward<curves::bn254>(d, ...) BN254's); instantiated for both.
//
// A transform of 2^k elements runs as ceil((k - 11) / 9) + 1 kernels (k > 11),
// each up to 11 radix-2 stages on blocks of 2^11 elements in registers and
// shared memory. Orders are chosen so that no bit-reversal pass runs: natural
// in gives bit-reversed out (DIF), bit-reversed in gives natural out (DIT);
// coset and 1/n factors are applied by the pass that loads or stores the data.
#pragma once

#include <cuda_runtime_api.h>

#include "cuda/memory.hpp"
#include "curves/bls12_381.hpp"
#include "curves/bn254.hpp"
#include "ec/config.hpp"
#include "ff/fr.hpp"
#include "poly/quotient.hpp"
#include "poly/roots.hpp"
#include "curves/dispatch.hpp"

namespace cuzk::cuda::ntt {

enum class order { natural, bit_reversed };

/* The twiddles ω^i, i in [0, n/2], of (log_n, family) on the current device:
   built once per process and device by get() (which waits for them), then
   resident (16 n bytes: 4 GiB at 2^28). log_n up to C's two-adicity (32 on
   BLS12-381, 28 on BN254). */
template <class C>
class basic_tables {
 public:
  using fr = ff::fr<C>;
  static const basic_tables& get(unsigned log_n, poly::root_family f);

  unsigned log_n() const { return log_n_; }
  poly::root_family family() const { return family_; }
  const fr& omega() const { return omega_; }
  const fr& size_inv() const { return size_inv_; }
  const fr* twiddles() const { return tw_.data(); }

  basic_tables(unsigned log_n, poly::root_family f);  // builds on the current device (get() caches)

 private:
  unsigned log_n_;
  poly::root_family family_;
  fr omega_, size_inv_;
  device_buffer<fr> tw_;
};

/* A_i = Σ_j a_j ω^(ij). in != out runs one pass per block of stages and no
   permutation; in == out adds a bit-reversal pass (tests only). */
template <class C = curves::bls12_381>
void forward(ff::fr<C>* d, unsigned log_n, poly::root_family f, order in, order out, cudaStream_t s);
/* a_j = n^-1 Σ_i A_i ω^(-ij) */
template <class C = curves::bls12_381>
void inverse(ff::fr<C>* d, unsigned log_n, poly::root_family f, order in, order out, cudaStream_t s);
/* A_i = Σ_j a_j (g ω^i)^j: a_j g^j as the data is loaded */
template <class C = curves::bls12_381>
void coset_forward(ff::fr<C>* d, unsigned log_n, poly::root_family f, const ff::fr<C>& g, order in, order out,
                   cudaStream_t s);
/* a_j = n^-1 g^-j Σ_i A_i ω^(-ij): the factor as the data is stored */
template <class C = curves::bls12_381>
void coset_inverse(ff::fr<C>* d, unsigned log_n, poly::root_family f, const ff::fr<C>& g, order in, order out,
                   cudaStream_t s);

/* The quotient of DESIGN §5 / poly::compute_h, from const device a, b, c (natural
   order, n each) into out (n entries) as CANONICAL scalars, ready for the H MSM,
   with scratch (2 n elements) of the caller's. Returns the order of out:
     odd_coset:    out[i] = (a·b − c)(ζ ω^i), natural order
     coefficients: the n coefficients of (a·b − c)/Z (the last is 0 iff Z | AB − C),
                   bit-reversed order
   Each input takes its iNTT and its coset NTT in one chain whose middle kernel
   applies n^-1 g^j; a·b − c is fused into the kernel after the last of c's
   chain (odd_coset: c's last pass; coefficients: the coset iNTT's first), and
   Z^-1, n^-1 and the conversion out of Montgomery form into the factor tables
   (z_inv n^-1 R^-1 g^-j, or R^-1 on a and c: a·b − c then has the canonical
   limbs). */
template <class C>
struct basic_h_params {
  poly::h_convention convention;
  unsigned log_n;
  poly::root_family family;
  ff::fr<C> shift;  // ζ = ω_2n (odd_coset) or g, the generator of Fr (coefficients)
  ff::fr<C> z_inv;  // (g^n − 1)^-1; read for coefficients only
};
/* Inputs still arriving (copied on another stream): the first kernel that reads
   a, b or c waits for its event (null: there already), so a's chain runs while
   b and c are copied. */
struct inputs_ready {
  cudaEvent_t a = nullptr, b = nullptr, c = nullptr;
};
template <class C>
order compute_h(const ff::fr<C>* a, const ff::fr<C>* b, const ff::fr<C>* c, ec::scalar_limbs_t* out, ff::fr<C>* scratch,
                const basic_h_params<C>& p, cudaStream_t s, const inputs_ready& ready = {});

#define CUZK_INSTANTIATE(C) extern template class basic_tables<C>;
CUZK_CURVES(CUZK_INSTANTIATE)
#undef CUZK_INSTANTIATE

}  // namespace cuzk::cuda::ntt
