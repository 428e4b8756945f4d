#!/usr/bin/env python3
"""Derives the Fp6/Fp12 tower constants and checks the identities the pairing
code relies on:
  bls12-381 (default): common/curves/bls12_381_tower_constants.hpp
  bn254:               the tower and curve constants of common/curves/bn254_constants.hpp

Run: python3 scripts/gen-tower-constants.py [bls12-381|bn254]   (prints the C++ limb arrays)

Tower (BLS12-381 as blst, zcash bls12_381 and @noble/curves; BN254 as
EIP-197, snarkjs and @noble/curves):
  Fp2  = Fp[u]  / (u^2 + 1)
  Fp6  = Fp2[v] / (v^3 - xi),  xi = 1 + u (BLS12-381), 9 + u (BN254)
  Fp12 = Fp6[w] / (w^2 - v),   so w^6 = xi
An Fp12 element is sum_j a_j w^j (a_j in Fp2, j = 0..5), and its p^k-th power
is sum_j a_j^(p^k) w^(j p^k) = sum_j a_j^(p^k) gamma[k][j] w^j with
  gamma[k][j] = w^(j (p^k - 1)) = xi^(j (p^k - 1) / 6)
(6 divides p - 1, hence p^k - 1).
"""
import importlib.util
import math
import os
import sys

# The curve parameters (x, p, r, limb counts) live in gen-constants.py.
_spec = importlib.util.spec_from_file_location(
    "gen_constants", os.path.join(os.path.dirname(os.path.abspath(__file__)), "gen-constants.py"))
gen_constants = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(gen_constants)

# Tower and G2 data per curve. twist: "M" (b' = b xi) or "D" (b' = b / xi).
# The BN254 generators are EIP-196/197's (= snarkjs's, @noble/curves');
# BLS12-381's curve constants live in common/curves/bls12_381_curve_constants.hpp and are checked
# by tests/unit/ec/constants_test.cpp, so they are not repeated here.
TOWER = {
    "bls12-381": dict(family="bls12", xi=(1, 1), b=4, twist="M"),
    "bn254": dict(
        family="bn", xi=(9, 1), b=3, twist="D",
        b2=(19485874751759354771024239261021720505790618469301721065564631296452457478373,
            266929791119991161246907387137283842545076965332900288569378510910307636690),
        g1=(1, 2),
        g2=((10857046999023057135944570762232829481370756359578518086990519993285655852781,
             11559732032986387107991004021392285783925812861821192530917403151452391805634),
            (8495653923123431417604973247489272438418190587263600148770280649306958101930,
             4082367875863433681332203403145435568316851327593401208105741076214120093531)),
        h2=0x30644e72e131a029b85045b68181585e06ceecda572a2489345f2299c0f9fa8d),
}

curve = gen_constants.curve_from_argv(sys.argv)
tw = TOWER[curve.name]
x, p, r = curve.x, curve.p, curve.r
n = curve.fp_limbs
assert p % 6 == 1


def fp2_add(a, b):
    return ((a[0] + b[0]) % p, (a[1] + b[1]) % p)


def fp2_sub(a, b):
    return ((a[0] - b[0]) % p, (a[1] - b[1]) % p)


def fp2_mul(a, b):
    return ((a[0] * b[0] - a[1] * b[1]) % p, (a[0] * b[1] + a[1] * b[0]) % p)


def fp2_inv(a):
    # 1 / a = conj(a) / N(a), N(a) = a0^2 + a1^2
    ninv = pow(a[0] * a[0] + a[1] * a[1], -1, p)
    return (a[0] * ninv % p, -a[1] * ninv % p)


def fp2_pow(a, e):
    acc = (1, 0)
    while e:
        if e & 1:
            acc = fp2_mul(acc, a)
        a = fp2_mul(a, a)
        e >>= 1
    return acc


def limbs(v, n=n):
    return "{" + ", ".join("0x%016x" % ((v >> (64 * i)) & (2**64 - 1)) for i in range(n)) + "}"


R = 2 ** (64 * n) % p
xi = tw["xi"]
# xi is neither a square nor a cube in Fp2, so v^3 - xi and w^6 - xi are
# irreducible and the tower is a field.
assert fp2_pow(xi, (p * p - 1) // 2) != (1, 0)
assert fp2_pow(xi, (p * p - 1) // 3) != (1, 0)

# gamma[k][j] = xi^(j (p^k - 1) / 6), Montgomery form (times R mod p);
# printed as the body of frobenius_gamma.
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

# gamma[2][j] lies in Fp: xi^(p^2-1) = N(xi)^(p-1) with N(xi) = xi^(p+1)
# (= 2 for xi = 1 + u, 82 for xi = 9 + u)
for j in range(1, 6):
    assert gamma[(2, j)][1] == 0

assert (p**4 - p**2 + 1) % r == 0
d = (p**4 - p**2 + 1) // r
assert (p**12 - 1) == (p**6 - 1) * (p**2 + 1) * (p**4 - p**2 + 1)


def bls12_hard_part():
    # The hard part of the final exponentiation, Hayashida-Hayasaka-Teruya
    # (eprint 2020/875, section 4 / BLS12): with d = (p^4 - p^2 + 1) / r,
    #   3 d = (x - 1)^2 (x + p) (x^2 + p^2 - 1) + 3.
    # The pairing code therefore computes f^(3 (p^12 - 1) / r), the convention of
    # zcash bls12_381, blst and @noble/curves (all return the cube of the
    # "textbook" reduced pairing; 3 is prime to r, so it is still a non-degenerate
    # bilinear pairing).
    assert 3 * d == (x - 1) ** 2 * (x + p) * (x**2 + p**2 - 1) + 3


def bn_hard_part():
    # The hard part of the final exponentiation, Fuentes-Castaneda, Knapp and
    # Rodriguez-Henriquez ("Faster hashing to G2", SAC 2011; the BN case):
    # with d = (p^4 - p^2 + 1) / r and m = 2x (6x^2 + 3x + 1),
    #   l0 = 12x^3 + 12x^2 + 6x + 1,  l1 = 12x^3 + 6x^2 + 4x,
    #   l2 = 12x^3 +  6x^2 + 6x,      l3 = 12x^3 + 6x^2 + 4x - 1,
    #   l0 + l1 p + l2 p^2 + l3 p^3 = m d
    # holds EXACTLY, as integers (not merely modulo p^4 - p^2 + 1, which is all
    # an exponent of the cyclotomic subgroup needs), and even as polynomials in
    # x: checked below at 20 integer points, more than the degree (19) of
    #   (l0 + l1 p + l2 p^2 + l3 p^3) r - m (p^4 - p^2 + 1)
    # as a polynomial in x. The chain computes f^(m d) with only
    # exponentiations by x, Frobenius maps and a few products; gcd(m, r) = 1,
    # so f^(m (p^12 - 1) / r) is the textbook reduced pairing raised to the
    # unit m mod r: still non-degenerate and bilinear, and the same GT values
    # as @noble/curves' bn254 (whose chain has exactly these l_i), but not the
    # textbook e(P, Q).
    def lam(x):
        return (12 * x**3 + 12 * x**2 + 6 * x + 1, 12 * x**3 + 6 * x**2 + 4 * x,
                12 * x**3 + 6 * x**2 + 6 * x, 12 * x**3 + 6 * x**2 + 4 * x - 1)

    def m_of(x):
        return 2 * x * (6 * x**2 + 3 * x + 1)

    def p_of(x):
        return 36 * x**4 + 36 * x**3 + 24 * x**2 + 6 * x + 1

    def r_of(x):
        return 36 * x**4 + 36 * x**3 + 18 * x**2 + 6 * x + 1

    l0, l1, l2, l3 = lam(x)
    assert l0 + l1 * p + l2 * p**2 + l3 * p**3 == m_of(x) * d
    assert math.gcd(m_of(x), r) == 1
    for y in range(-10, 10):
        py = p_of(y)
        k = lam(y)
        assert (k[0] + k[1] * py + k[2] * py**2 + k[3] * py**3) * r_of(y) == m_of(y) * (py**4 - py**2 + 1)


def naf(v):
    """Non-adjacent form of v > 0, least significant digit first."""
    digits = []
    while v:
        if v & 1:
            z = 2 - (v & 3)  # +1 if v = 1 mod 4, -1 if v = 3 mod 4
            v -= z
        else:
            z = 0
        digits.append(z)
        v >>= 1
    return digits


def ec_add(P, Q):
    """Affine addition on y^2 = x^3 + b' over Fp2 (b' unused: a = 0); None is O."""
    if P is None:
        return Q
    if Q is None:
        return P
    if P[0] == Q[0]:
        if fp2_add(P[1], Q[1]) == (0, 0):
            return None
        lam = fp2_mul(fp2_mul((3, 0), fp2_mul(P[0], P[0])), fp2_inv(fp2_add(P[1], P[1])))
    else:
        lam = fp2_mul(fp2_sub(Q[1], P[1]), fp2_inv(fp2_sub(Q[0], P[0])))
    x3 = fp2_sub(fp2_sub(fp2_mul(lam, lam), P[0]), Q[0])
    return (x3, fp2_sub(fp2_mul(lam, fp2_sub(P[0], x3)), P[1]))


def ec_mul(P, e):
    acc = None
    for bit in bin(e)[2:]:
        acc = ec_add(acc, acc)
        if bit == "1":
            acc = ec_add(acc, P)
    return acc


def on_curve(P, b2):
    X, Y = P
    return fp2_mul(Y, Y) == fp2_add(fp2_mul(fp2_mul(X, X), X), b2)


def bn_loop_and_curve():
    # Optimal ate loop 6x + 2 in NAF, most significant digit first.
    ate = 6 * x + 2
    digits = naf(ate)
    assert sum(z << i for i, z in enumerate(digits)) == ate
    assert all(digits[i] == 0 or digits[i + 1] == 0 for i in range(len(digits) - 1))
    msb_first = digits[::-1]
    print(f"6x+2 = {ate} = {hex(ate)}: {len(msb_first)} NAF digits, "
          f"{sum(1 for z in msb_first if z)} nonzero")
    print("ate_loop_naf {" + ", ".join(str(z) for z in msb_first) + "}")

    b, b2 = tw["b"], tw["b2"]
    # D-type twist: b' = b / xi
    assert tw["twist"] == "D" and fp2_mul(b2, xi) == (b % p, 0)
    b2_3 = fp2_mul((3, 0), b2)
    print(f"b_mont      {limbs(b * R % p)}   /* {b} (Montgomery) */")
    print(f"b2_c0_mont  {limbs(b2[0] * R % p)}   /* b' = {b} / xi (Montgomery) */")
    print(f"b2_c1_mont  {limbs(b2[1] * R % p)}")
    print(f"b2x3_c0_mont {limbs(b2_3[0] * R % p)}   /* 3 b' (Montgomery) */")
    print(f"b2x3_c1_mont {limbs(b2_3[1] * R % p)}")

    # G1 = E(Fp): y^2 = x^3 + b has prime order r (cofactor 1): p + 1 - t = r
    t = 6 * x**2 + 1
    assert p + 1 - t == r
    g1x, g1y = tw["g1"]
    assert (g1y * g1y - g1x**3 - b) % p == 0
    print(f"g1_x  {limbs(g1x)}")
    print(f"g1_y  {limbs(g1y)}")

    # G2 on E'(Fp2): y^2 = x^3 + b'
    G2 = tw["g2"]
    assert on_curve(G2, b2)
    assert ec_mul(G2, r) is None and ec_mul(G2, r - 1) == (G2[0], (-G2[1][0] % p, -G2[1][1] % p))
    print(f"g2_x0 {limbs(G2[0][0])}")
    print(f"g2_x1 {limbs(G2[0][1])}")
    print(f"g2_y0 {limbs(G2[1][0])}")
    print(f"g2_y1 {limbs(G2[1][1])}")

    # #E'(Fp2) = (p + 1 - t)(p - 1 + t) = r h2 with h2 = p - 1 + t = 2p - r
    h2 = tw["h2"]
    assert h2 * r == (p + 1 - t) * (p - 1 + t) and h2 == 2 * p - r
    print(f"h2    {limbs(h2, 4)}   /* {hex(h2)} */")


def bls12_loop():
    # Miller loop: bits of |x| below the top one, most significant first.
    ax = -x
    print("|x| =", hex(ax), "bits set:", [i for i in range(64) if ax >> i & 1])


# The family-specific checks and output: (hard part, Miller loop and curve).
FAMILY = {"bls12": (bls12_hard_part, bls12_loop), "bn": (bn_hard_part, bn_loop_and_curve)}
for step in FAMILY[tw["family"]]:
    step()
