// Montgomery multiplication of 4- and 6-limb fields with the x86-64 instructions
// made for it (BMI2's MULX, ADX's ADCX/ADOX: two carry chains at once), used
// when the CPU has them (checked at start) and CUZK_FF_PLAIN is not set;
// mont_field's portable C++ is the other path, and the tests run both.
//
// CIOS, one word of b at a time (t: five words, t4 zero on entry):
//   t += a·b_i                     lo words on the OF chain, hi on the CF chain
//   m  = t0·inv mod 2^64          (inv = −p^−1 mod 2^64)
//   t  = (t + m·p) / 2^64          t0 + lo(m·p0) = 0 mod 2^64: the division is a
//                                  renaming (the registers rotate)
// With p < 2^(64N−1) (BN254's two fields, BLS12-381's Fr and Fp), t < 2p on
// entry to a round (N words: t_N = 0), t < 2p + 2^65·p < 2^(64N+64) within it
// (N+1 words never carry out), and t < 2p at the end: the caller subtracts p
// once.
#pragma once

#include <cstdint>
#include <cstdlib>

#if defined(__x86_64__)
#include <cpuid.h>
#endif

/* The field's hot operations are inlined where they are used (a call costs as
   much as the addition it wraps, and GCC declines big asm bodies on its own). */
#ifndef CUZK_FF_INLINE
#define CUZK_FF_INLINE inline __attribute__((always_inline))
#endif

namespace cuzk::ff::x86 {

/* CUZK_FF_PLAIN set (and not "0"): the portable arithmetic only, no MULX/ADX, no IFMA lanes (ff/ifma.hpp) */
inline bool plain_forced() {
  const char* plain = std::getenv("CUZK_FF_PLAIN");
  return plain && *plain && *plain != '0';
}

#if defined(__x86_64__) && !defined(__CUDA_ARCH__) && defined(__OPTIMIZE__)  // unoptimized builds lack the registers
#define CUZK_FF_X86 1

/* Whether the fast path runs: ADX and BMI2 present (CPUID leaf 7: EBX bits 19 and 8), CUZK_FF_PLAIN unset. */
inline bool detect_adx() {
  unsigned a = 0, b = 0, c = 0, d = 0;
  if (!__get_cpuid_count(7, 0, &a, &b, &c, &d)) return false;
  return (b >> 19 & 1) && (b >> 8 & 1) && !plain_forced();
}
inline const bool use_adx = detect_adx();

// clang-format off
// One limb of a product added in: lo(x·rdx) on the OF chain into LOW, hi on the CF chain into HIGH.
#define CUZK_MULADD(OFF, SRC, LOW, HIGH) \
  "mulxq " #OFF "(%[" #SRC "]), %[lo], %[hi]\n\t adoxq %[lo], %[" #LOW "]\n\t adcxq %[hi], %[" #HIGH "]\n\t"
// rdx = b_i, and the carry flags cleared with z = 0
#define CUZK_MONT_LOAD_B(OFF) "movq " #OFF "(%[b]), %%rdx\n\t xorl %k[z], %k[z]\n\t"
// rdx = m = t0·inv
#define CUZK_MONT_M(T0) "movq %[" #T0 "], %%rdx\n\t imulq %[inv], %%rdx\n\t xorl %k[z], %k[z]\n\t"
// the top limb of a·b_i: its high word is the round's new top word, plus both chains' carries
#define CUZK_MULADD_TOP(OFF, LOW, TOP)                                              \
  "mulxq " #OFF "(%[a]), %[lo], %[" #TOP "]\n\t adoxq %[lo], %[" #LOW "]\n\t"   \
  "adcxq %[z], %[" #TOP "]\n\t adoxq %[z], %[" #TOP "]\n\t"
// the top limb of m·p, and the OF chain's carry into the top word
#define CUZK_MULADD_P_TOP(OFF, LOW, TOP) CUZK_MULADD(OFF, p, LOW, TOP) "adoxq %[z], %[" #TOP "]\n\t"

#define CUZK_MONT4_ROUND(OFF, T0, T1, T2, T3, T4)                                              \
  CUZK_MONT_LOAD_B(OFF)                                                                        \
  CUZK_MULADD(0, a, T0, T1) CUZK_MULADD(8, a, T1, T2)                                          \
  CUZK_MULADD(16, a, T2, T3) CUZK_MULADD_TOP(24, T3, T4)                                       \
  CUZK_MONT_M(T0)                                                                              \
  CUZK_MULADD(0, p, T0, T1) CUZK_MULADD(8, p, T1, T2)                                          \
  CUZK_MULADD(16, p, T2, T3) CUZK_MULADD_P_TOP(24, T3, T4)
// clang-format on

/* out = a·b·2^−256 mod p, below 2p (out may be a or b). */
CUZK_FF_INLINE void mont_mul4(std::uint64_t out[4], const std::uint64_t a[4], const std::uint64_t b[4],
                              const std::uint64_t p[4], std::uint64_t inv) {
  std::uint64_t r0, r1, r2, r3, r4, lo, hi, z;
  asm("xorl %k[r0], %k[r0]\n\t"
      "xorl %k[r1], %k[r1]\n\t"
      "xorl %k[r2], %k[r2]\n\t"
      "xorl %k[r3], %k[r3]\n\t"
      "xorl %k[r4], %k[r4]\n\t"                 //
      CUZK_MONT4_ROUND(0, r0, r1, r2, r3, r4)   //
      CUZK_MONT4_ROUND(8, r1, r2, r3, r4, r0)   //
      CUZK_MONT4_ROUND(16, r2, r3, r4, r0, r1)  //
      CUZK_MONT4_ROUND(24, r3, r4, r0, r1, r2)
      : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4), [lo] "=&r"(lo), [hi] "=&r"(hi),
        [z] "=&r"(z)
      : [a] "r"(a), [b] "r"(b), [p] "r"(p), [inv] "m"(inv), "m"(*(const std::uint64_t(*)[4])a),
        "m"(*(const std::uint64_t(*)[4])b), "m"(*(const std::uint64_t(*)[4])p)
      : "rdx", "cc");
  out[0] = r4;
  out[1] = r0;
  out[2] = r1;
  out[3] = r2;
}

// clang-format off
#define CUZK_MONT6_ROUND(OFF, T0, T1, T2, T3, T4, T5, T6)                                      \
  CUZK_MONT_LOAD_B(OFF)                                                                      \
  CUZK_MULADD(0, a, T0, T1) CUZK_MULADD(8, a, T1, T2) CUZK_MULADD(16, a, T2, T3)             \
  CUZK_MULADD(24, a, T3, T4) CUZK_MULADD(32, a, T4, T5) CUZK_MULADD_TOP(40, T5, T6)          \
  CUZK_MONT_M(T0)                                                                            \
  CUZK_MULADD(0, p, T0, T1) CUZK_MULADD(8, p, T1, T2) CUZK_MULADD(16, p, T2, T3)             \
  CUZK_MULADD(24, p, T3, T4) CUZK_MULADD(32, p, T4, T5) CUZK_MULADD_P_TOP(40, T5, T6)
// clang-format on

/* out = a·b·2^−384 mod p, below 2p (out may be a or b). Thirteen registers besides rdx: the operands are read
   through their pointers ("memory"). */
CUZK_FF_INLINE void mont_mul6(std::uint64_t out[6], const std::uint64_t a[6], const std::uint64_t b[6],
                              const std::uint64_t p[6], std::uint64_t inv) {
  std::uint64_t r0, r1, r2, r3, r4, r5, r6, lo, hi, z;
  asm("xorl %k[r0], %k[r0]\n\t"
      "xorl %k[r1], %k[r1]\n\t"
      "xorl %k[r2], %k[r2]\n\t"
      "xorl %k[r3], %k[r3]\n\t"
      "xorl %k[r4], %k[r4]\n\t"
      "xorl %k[r5], %k[r5]\n\t"
      "xorl %k[r6], %k[r6]\n\t"                         //
      CUZK_MONT6_ROUND(0, r0, r1, r2, r3, r4, r5, r6)   //
      CUZK_MONT6_ROUND(8, r1, r2, r3, r4, r5, r6, r0)   //
      CUZK_MONT6_ROUND(16, r2, r3, r4, r5, r6, r0, r1)  //
      CUZK_MONT6_ROUND(24, r3, r4, r5, r6, r0, r1, r2)  //
      CUZK_MONT6_ROUND(32, r4, r5, r6, r0, r1, r2, r3)  //
      CUZK_MONT6_ROUND(40, r5, r6, r0, r1, r2, r3, r4)
      : [r0] "=&r"(r0), [r1] "=&r"(r1), [r2] "=&r"(r2), [r3] "=&r"(r3), [r4] "=&r"(r4), [r5] "=&r"(r5), [r6] "=&r"(r6),
        [lo] "=&r"(lo), [hi] "=&r"(hi), [z] "=&r"(z)
      : [a] "r"(a), [b] "r"(b), [p] "r"(p), [inv] "m"(inv)
      : "rdx", "cc", "memory");
  out[0] = r6;
  out[1] = r0;
  out[2] = r1;
  out[3] = r2;
  out[4] = r3;
  out[5] = r4;
}
#undef CUZK_MONT4_ROUND
#undef CUZK_MONT6_ROUND
#undef CUZK_MULADD
#undef CUZK_MULADD_TOP
#undef CUZK_MULADD_P_TOP
#undef CUZK_MONT_LOAD_B
#undef CUZK_MONT_M

#else
#define CUZK_FF_X86 0
inline constexpr bool use_adx = false;
#endif

}  // namespace cuzk::ff::x86
