// Code that runs on the host and the device (the CUDA engine's field and point
// arithmetic, and the formulas it shares with the CPU's, msm/xyzz_formulas.hpp):
// CUZK_HDI marks such a function; for the host compiler alone it is plain inline.
#pragma once

#ifdef __CUDACC__
#define CUZK_HD __host__ __device__
#define CUZK_DI __device__ __forceinline__
#ifdef __CUDA_ARCH__
#define CUZK_HDI __host__ __device__ __forceinline__
#define CUZK_UNROLL _Pragma("unroll")
#define CUZK_NO_UNROLL _Pragma("unroll 1")
#else
/* nvcc's host pass (the host emulations of the tests): the host compiler's own
   inlining and unrolling; forced inlining of the field code costs g++
   minutes a translation unit, and it ignores "#pragma unroll" */
#define CUZK_HDI __host__ __device__ inline
#define CUZK_UNROLL
#define CUZK_NO_UNROLL
#endif
#else
#define CUZK_HD
#define CUZK_HDI inline
#define CUZK_UNROLL _Pragma("GCC unroll 32")
#define CUZK_NO_UNROLL
#endif
