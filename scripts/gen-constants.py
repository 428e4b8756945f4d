#!/usr/bin/env python3
"""Derives the BLS12-381 field constants used in common/ff/constants.hpp.

Run: python3 scripts/gen-constants.py   (prints the C++ limb arrays)
Sources: p, r and the curve parameter x from the IETF pairing-friendly curves
draft (draft-irtf-cfrg-pairing-friendly-curves, section 4.2.1); the rest is
derived here.
"""
x = -0xd201000000010000
p = (x - 1) ** 2 * (x**4 - x**2 + 1) // 3 + x
r = x**4 - x**2 + 1
assert p == 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
assert r == 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001


def limbs(v, n):
    return "{" + ", ".join("0x%016x" % ((v >> (64 * i)) & (2**64 - 1)) for i in range(n)) + "}"


def field(name, m, n, g):
    R = 2 ** (64 * n) % m
    s, t = 0, m - 1
    while t % 2 == 0:
        s, t = s + 1, t // 2
    # g is the smallest quadratic non-residue generator used for roots of unity
    assert pow(g, (m - 1) // 2, m) == m - 1
    root = pow(g, t, m)
    print(f"// {name}: modulus = {hex(m)}")
    print(f"modulus   {limbs(m, n)}")
    print(f"R         {limbs(R, n)}   /* 2^{64*n} mod m */")
    print(f"R2        {limbs(R * R % m, n)}   /* R^2 mod m */")
    print(f"R3        {limbs(R**3 % m, n)}   /* R^3 mod m */")
    print(f"inv       0x{(-pow(m, -1, 2**64)) % 2**64:016x}   /* -m^-1 mod 2^64 */")
    print(f"two_adicity {s}")
    print(f"t_minus1_over2 {limbs((t - 1) // 2, n)}   /* (t-1)/2, m-1 = 2^s t */")
    print(f"root_of_unity {limbs(root * R % m, n)}   /* g^t in Montgomery form, g = {g} */")
    print(f"g_mont    {limbs(g * R % m, n)}")
    print(f"m_minus2  {limbs(m - 2, n)}")
    print(f"m_minus1_over2 {limbs((m - 1) // 2, n)}")


field("Fp", p, 6, 2)
field("Fr", r, 4, 7)
