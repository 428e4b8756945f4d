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

namespace cuzk::ff::x86 {

#if defined(__x86_64__) && !defined(__CUDA_ARCH__) && defined(__OPTIMIZE__)  // unoptimized builds lack the registers
#define CUZK_FF_X86 1

/* Whether the fast path runs: ADX and BMI2 present, CUZK_FF_PLAIN unset. */
inline bool detect_adx() {
  __builtin_cpu_init();
  const char* plain = std::getenv("CUZK_FF_PLAIN");
  return __builtin_cpu_supports("adx") && __builtin_cpu_supports("bmi2") && !(plain && *plain && *plain != '0');
}
inline const bool use_adx = detect_adx();

// clang-format off
#define CUZK_MONT4_ROUND(OFF, T0, T1, T2, T3, T4)                                           \
  "movq " #OFF "(%[b]), %%rdx\n\t"                                                          \
  "xorl %k[z], %k[z]\n\t"                                                                   \
  "mulxq 0(%[a]), %[lo], %[hi]\n\t"  "adoxq %[lo], %[" #T0 "]\n\t" "adcxq %[hi], %[" #T1 "]\n\t" \
  "mulxq 8(%[a]), %[lo], %[hi]\n\t"  "adoxq %[lo], %[" #T1 "]\n\t" "adcxq %[hi], %[" #T2 "]\n\t" \
  "mulxq 16(%[a]), %[lo], %[hi]\n\t" "adoxq %[lo], %[" #T2 "]\n\t" "adcxq %[hi], %[" #T3 "]\n\t" \
  "mulxq 24(%[a]), %[lo], %[" #T4 "]\n\t" "adoxq %[lo], %[" #T3 "]\n\t"                        \
  "adcxq %[z], %[" #T4 "]\n\t" "adoxq %[z], %[" #T4 "]\n\t"                                   \
  "movq %[" #T0 "], %%rdx\n\t"                                                              \
  "imulq %[inv], %%rdx\n\t"                                                                 \
  "xorl %k[z], %k[z]\n\t"                                                                   \
  "mulxq 0(%[p]), %[lo], %[hi]\n\t"  "adoxq %[lo], %[" #T0 "]\n\t" "adcxq %[hi], %[" #T1 "]\n\t" \
  "mulxq 8(%[p]), %[lo], %[hi]\n\t"  "adoxq %[lo], %[" #T1 "]\n\t" "adcxq %[hi], %[" #T2 "]\n\t" \
  "mulxq 16(%[p]), %[lo], %[hi]\n\t" "adoxq %[lo], %[" #T2 "]\n\t" "adcxq %[hi], %[" #T3 "]\n\t" \
  "mulxq 24(%[p]), %[lo], %[hi]\n\t" "adoxq %[lo], %[" #T3 "]\n\t" "adcxq %[hi], %[" #T4 "]\n\t" \
  "adoxq %[z], %[" #T4 "]\n\t"
// clang-format on

/* out = a·b·2^−256 mod p, below 2p (out may be a or b). */
inline void mont_mul4(std::uint64_t out[4], const std::uint64_t a[4], const std::uint64_t b[4],
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
#undef CUZK_MONT4_ROUND

// clang-format off
#define CUZK_MONT6_ROUND(OFF, T0, T1, T2, T3, T4, T5, T6)                                      \
  "movq " #OFF "(%[b]), %%rdx\n\t"                                                          \
  "xorl %k[z], %k[z]\n\t"                                                                   \
  "mulxq 0(%[a]), %[lo], %[hi]\n\t"  "adoxq %[lo], %[" #T0 "]\n\t" "adcxq %[hi], %[" #T1 "]\n\t" \
  "mulxq 8(%[a]), %[lo], %[hi]\n\t"  "adoxq %[lo], %[" #T1 "]\n\t" "adcxq %[hi], %[" #T2 "]\n\t" \
  "mulxq 16(%[a]), %[lo], %[hi]\n\t" "adoxq %[lo], %[" #T2 "]\n\t" "adcxq %[hi], %[" #T3 "]\n\t" \
  "mulxq 24(%[a]), %[lo], %[hi]\n\t" "adoxq %[lo], %[" #T3 "]\n\t" "adcxq %[hi], %[" #T4 "]\n\t" \
  "mulxq 32(%[a]), %[lo], %[hi]\n\t" "adoxq %[lo], %[" #T4 "]\n\t" "adcxq %[hi], %[" #T5 "]\n\t" \
  "mulxq 40(%[a]), %[lo], %[" #T6 "]\n\t" "adoxq %[lo], %[" #T5 "]\n\t"                        \
  "adcxq %[z], %[" #T6 "]\n\t" "adoxq %[z], %[" #T6 "]\n\t"                                   \
  "movq %[" #T0 "], %%rdx\n\t"                                                              \
  "imulq %[inv], %%rdx\n\t"                                                                 \
  "xorl %k[z], %k[z]\n\t"                                                                   \
  "mulxq 0(%[p]), %[lo], %[hi]\n\t"  "adoxq %[lo], %[" #T0 "]\n\t" "adcxq %[hi], %[" #T1 "]\n\t" \
  "mulxq 8(%[p]), %[lo], %[hi]\n\t"  "adoxq %[lo], %[" #T1 "]\n\t" "adcxq %[hi], %[" #T2 "]\n\t" \
  "mulxq 16(%[p]), %[lo], %[hi]\n\t" "adoxq %[lo], %[" #T2 "]\n\t" "adcxq %[hi], %[" #T3 "]\n\t" \
  "mulxq 24(%[p]), %[lo], %[hi]\n\t" "adoxq %[lo], %[" #T3 "]\n\t" "adcxq %[hi], %[" #T4 "]\n\t" \
  "mulxq 32(%[p]), %[lo], %[hi]\n\t" "adoxq %[lo], %[" #T4 "]\n\t" "adcxq %[hi], %[" #T5 "]\n\t" \
  "mulxq 40(%[p]), %[lo], %[hi]\n\t" "adoxq %[lo], %[" #T5 "]\n\t" "adcxq %[hi], %[" #T6 "]\n\t" \
  "adoxq %[z], %[" #T6 "]\n\t"
// clang-format on

/* out = a·b·2^−384 mod p, below 2p (out may be a or b). Thirteen registers besides rdx: the operands are read
   through their pointers ("memory"). */
inline void mont_mul6(std::uint64_t out[6], const std::uint64_t a[6], const std::uint64_t b[6],
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
#undef CUZK_MONT6_ROUND

#else
#define CUZK_FF_X86 0
inline constexpr bool use_adx = false;
#endif

}  // namespace cuzk::ff::x86
