// Carry chains on 32-bit words. The field arithmetic is written once against a
// chain C and runs two ways:
//   carry::ptx       on the device: each step one PTX instruction (add.cc,
//                    madc.hi.cc, ...) and the carry lives in the CC register;
//   carry::emulated  anywhere: the same steps in portable C++ with the carry in
//                    a member, so the host tests run the device's exact
//                    instruction sequence and check that every carry the
//                    algorithm drops is zero (lost()).
// PTX ISA, "Extended-Precision Integer Arithmetic Instructions": add.cc, addc,
// sub.cc, subc, mad.cc, madc. A chain's steps must not interleave with another
// chain's: there is one CC register, and the ptx steps are volatile so that the
// compiler keeps their order.
#pragma once

#include <cstddef>
#include <cstdint>

#include "ff/host_device.hpp"

namespace cuzk::cuda {

/* A little-endian integer of N 32-bit words (constants, exponents). */
template <std::size_t N>
struct limbs32 {
  std::uint32_t w[N];
};

namespace carry {

#ifdef __CUDA_ARCH__
struct ptx {
  CUZK_DI std::uint32_t add_cc(std::uint32_t a, std::uint32_t b) {
    std::uint32_t r;
    asm volatile("add.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
  }
  CUZK_DI std::uint32_t addc_cc(std::uint32_t a, std::uint32_t b) {
    std::uint32_t r;
    asm volatile("addc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
  }
  CUZK_DI std::uint32_t addc(std::uint32_t a, std::uint32_t b) {
    std::uint32_t r;
    asm volatile("addc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
  }
  CUZK_DI std::uint32_t sub_cc(std::uint32_t a, std::uint32_t b) {
    std::uint32_t r;
    asm volatile("sub.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
  }
  CUZK_DI std::uint32_t subc_cc(std::uint32_t a, std::uint32_t b) {
    std::uint32_t r;
    asm volatile("subc.cc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
  }
  CUZK_DI std::uint32_t subc(std::uint32_t a, std::uint32_t b) {
    std::uint32_t r;
    asm volatile("subc.u32 %0, %1, %2;" : "=r"(r) : "r"(a), "r"(b));
    return r;
  }
  /* lo(a b) + c */
  CUZK_DI std::uint32_t mad_lo_cc(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    std::uint32_t r;
    asm volatile("mad.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
  }
  CUZK_DI std::uint32_t madc_lo_cc(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    std::uint32_t r;
    asm volatile("madc.lo.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
  }
  /* hi(a b) + c + CC */
  CUZK_DI std::uint32_t madc_hi_cc(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    std::uint32_t r;
    asm volatile("madc.hi.cc.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
  }
  CUZK_DI std::uint32_t madc_hi(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    std::uint32_t r;
    asm volatile("madc.hi.u32 %0, %1, %2, %3;" : "=r"(r) : "r"(a), "r"(b), "r"(c));
    return r;
  }
  /* The steps the algorithm knows not to carry out (checked by emulated) cost nothing extra here. */
  CUZK_DI std::uint32_t addc_last(std::uint32_t a, std::uint32_t b) { return addc(a, b); }
  CUZK_DI std::uint32_t madc_hi_last(std::uint32_t a, std::uint32_t b, std::uint32_t c) { return madc_hi(a, b, c); }
  CUZK_DI void drop() {}
  CUZK_DI void discard(std::uint32_t) {}
};
#endif

struct emulated {
  std::uint32_t cc = 0;
  bool lost_ = false;  // a carry or word the algorithm claims is zero was not

  CUZK_HDI std::uint32_t set(std::uint64_t s) {
    cc = std::uint32_t(s >> 32) & 1;
    return std::uint32_t(s);
  }
  CUZK_HDI std::uint32_t add_cc(std::uint32_t a, std::uint32_t b) { return set(std::uint64_t(a) + b); }
  CUZK_HDI std::uint32_t addc_cc(std::uint32_t a, std::uint32_t b) { return set(std::uint64_t(a) + b + cc); }
  CUZK_HDI std::uint32_t addc(std::uint32_t a, std::uint32_t b) { return a + b + cc; }
  /* after sub, CC is the borrow (PTX: subc d = a - (b + CC.CF)) */
  CUZK_HDI std::uint32_t sub_cc(std::uint32_t a, std::uint32_t b) { return set(std::uint64_t(a) - b); }
  CUZK_HDI std::uint32_t subc_cc(std::uint32_t a, std::uint32_t b) { return set(std::uint64_t(a) - b - cc); }
  CUZK_HDI std::uint32_t subc(std::uint32_t a, std::uint32_t b) { return a - b - cc; }
  CUZK_HDI std::uint32_t mad_lo_cc(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return set(std::uint64_t(std::uint32_t(std::uint64_t(a) * b)) + c);
  }
  CUZK_HDI std::uint32_t madc_lo_cc(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return set(std::uint64_t(std::uint32_t(std::uint64_t(a) * b)) + c + cc);
  }
  CUZK_HDI std::uint32_t madc_hi_cc(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return set(((std::uint64_t(a) * b) >> 32) + c + cc);
  }
  CUZK_HDI std::uint32_t madc_hi(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    return std::uint32_t(((std::uint64_t(a) * b) >> 32) + c + cc);
  }
  CUZK_HDI std::uint32_t addc_last(std::uint32_t a, std::uint32_t b) {
    std::uint32_t r = addc_cc(a, b);
    drop();
    return r;
  }
  CUZK_HDI std::uint32_t madc_hi_last(std::uint32_t a, std::uint32_t b, std::uint32_t c) {
    std::uint32_t r = madc_hi_cc(a, b, c);
    drop();
    return r;
  }
  CUZK_HDI void drop() { lost_ |= cc != 0; }
  CUZK_HDI void discard(std::uint32_t w) { lost_ |= w != 0; }
  CUZK_HDI bool lost() const { return lost_; }
};

/* The chain of the compilation pass: PTX on the device, portable C++ on the host. */
#ifdef __CUDA_ARCH__
using native = ptx;
#else
using native = emulated;
#endif

}  // namespace carry
}  // namespace cuzk::cuda
