#!/usr/bin/env python3
"""Derives the Fp6/Fp12 tower constants in common/ff/tower_constants.hpp and
checks the identities the pairing code relies on.

Run: python3 scripts/gen-tower-constants.py   (prints the C++ limb arrays)

Tower (as blst, zcash bls12_381 and @noble/curves):
  Fp2  = Fp[u]  / (u^2 + 1)
  Fp6  = Fp2[v] / (v^3 - xi),  xi = 1 + u
  Fp12 = Fp6[w] / (w^2 - v),   so w^6 = xi
An Fp12 element is sum_j a_j w^j (a_j in Fp2, j = 0..5), and its p^k-th power
is sum_j a_j^(p^k) w^(j p^k) = sum_j a_j^(p^k) gamma[k][j] w^j with
  gamma[k][j] = w^(j (p^k - 1)) = xi^(j (p^k - 1) / 6)
(6 divides p - 1, hence p^k - 1).
"""
x = -0xd201000000010000
p = (x - 1) ** 2 * (x**4 - x**2 + 1) // 3 + x
r = x**4 - x**2 + 1
assert p % 6 == 1


def fp2_mul(a, b):
    return ((a[0] * b[0] - a[1] * b[1]) % p, (a[0] * b[1] + a[1] * b[0]) % p)


def fp2_pow(a, e):
    acc = (1, 0)
    while e:
        if e & 1:
            acc = fp2_mul(acc, a)
        a = fp2_mul(a, a)
        e >>= 1
    return acc


def limbs(v, n=6):
    return "{" + ", ".join("0x%016x" % ((v >> (64 * i)) & (2**64 - 1)) for i in range(n)) + "}"


R = 2**384 % p
xi = (1, 1)

# gamma[k][j] = xi^(j (p^k - 1) / 6), Montgomery form (times R mod p);
# printed as the body of frobenius_gamma in common/ff/tower_constants.hpp.
gamma = {}
for k in (1, 2, 3):
    print("    {")
    for j in range(1, 6):
        g = fp2_pow(xi, j * (p**k - 1) // 6)
        gamma[(k, j)] = g
        print(f"        /* xi^({j} (p^{k} - 1) / 6) */")
        print(f"        {{{limbs(g[0] * R % p)},")
        print(f"         {limbs(g[1] * R % p)}}},")
    print("    },")

# gamma[2][j] lies in Fp: xi^(p^2-1) = N(xi)^(p-1) with N(xi) = xi^(p+1) = 2
for j in range(1, 6):
    assert gamma[(2, j)][1] == 0

# The hard part of the final exponentiation, Hayashida-Hayasaka-Teruya
# (eprint 2020/875, section 4 / BLS12): with d = (p^4 - p^2 + 1) / r,
#   3 d = (x - 1)^2 (x + p) (x^2 + p^2 - 1) + 3.
# The pairing code therefore computes f^(3 (p^12 - 1) / r), the convention of
# zcash bls12_381, blst and @noble/curves (all return the cube of the
# "textbook" reduced pairing; 3 is prime to r, so it is still a non-degenerate
# bilinear pairing).
assert (p**4 - p**2 + 1) % r == 0
d = (p**4 - p**2 + 1) // r
assert 3 * d == (x - 1) ** 2 * (x + p) * (x**2 + p**2 - 1) + 3
assert (p**12 - 1) == (p**6 - 1) * (p**2 + 1) * (p**4 - p**2 + 1)

# Miller loop: bits of |x| below the top one, most significant first.
ax = -x
print("|x| =", hex(ax), "bits set:", [i for i in range(64) if ax >> i & 1])
