#!/usr/bin/env python3
"""Derives the field constants of a pairing-friendly curve:
  bls12-381 (default): common/curves/bls12_381_field_constants.hpp
  bn254:               the fp_params / fr_params of common/curves/bn254_constants.hpp

Run: python3 scripts/gen-constants.py [bls12-381|bn254]   (prints the C++ limb arrays)
Sources:
  BLS12-381: p, r and the curve parameter x from the IETF pairing-friendly
    curves draft (draft-irtf-cfrg-pairing-friendly-curves, section 4.2.1);
  BN254 (alt_bn128, EIP-196/197, snarkjs "bn128"): x = 4965661367192848881,
    p = 36x^4 + 36x^3 + 24x^2 + 6x + 1, r = 36x^4 + 36x^3 + 18x^2 + 6x + 1
    (Barreto-Naehrig, eprint 2005/133);
the rest is derived here. scripts/gen-tower-constants.py imports CURVES.
"""
import sys


def _smallest_qnr(m):
    """The smallest quadratic non-residue mod m searching upward from 2."""
    g = 2
    while pow(g, (m - 1) // 2, m) != m - 1:
        g += 1
    return g


class Curve:
    """The parameters of one curve: its x, p(x), r(x) and the field layout."""

    def __init__(self, name, x, p, r, p_hex, r_hex, fp_limbs, fr_limbs, fp_g, fr_g, fp_s, fr_s, g_rule):
        self.name, self.x, self.p, self.r = name, x, p, r
        assert p == p_hex and r == r_hex, name
        self.fp_limbs, self.fr_limbs = fp_limbs, fr_limbs
        # g: the non-residue whose t-th power is the 2^s-th root of unity
        self.fp_g, self.fr_g = fp_g, fr_g
        self.fp_s, self.fr_s = fp_s, fr_s  # expected two-adicities
        if g_rule == "smallest_qnr":
            # ffjavascript/snarkjs's rule for its FFT roots: the first
            # non-residue from 2 upward
            assert fp_g == _smallest_qnr(p) and fr_g == _smallest_qnr(r), name


def _bls12_381():
    x = -0xd201000000010000
    return Curve(
        "bls12-381", x,
        p=(x - 1) ** 2 * (x**4 - x**2 + 1) // 3 + x,
        r=x**4 - x**2 + 1,
        p_hex=0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab,
        r_hex=0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001,
        fp_limbs=6, fr_limbs=4,
        # Fr: 7, the multiplicative generator (bellman's coset shift)
        fp_g=2, fr_g=7, fp_s=1, fr_s=32, g_rule="fixed")


def _bn254():
    x = 4965661367192848881
    return Curve(
        "bn254", x,
        p=36 * x**4 + 36 * x**3 + 24 * x**2 + 6 * x + 1,
        r=36 * x**4 + 36 * x**3 + 18 * x**2 + 6 * x + 1,
        p_hex=0x30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47,
        r_hex=0x30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001,
        fp_limbs=4, fr_limbs=4,
        # p = 3 mod 4 (so Fp2 = Fp[u]/(u^2 + 1)); both g the smallest non-residues
        fp_g=3, fr_g=5, fp_s=1, fr_s=28, g_rule="smallest_qnr")


CURVES = {c.name: c for c in (_bls12_381(), _bn254())}


def curve_from_argv(argv):
    name = argv[1] if len(argv) > 1 else "bls12-381"
    if name not in CURVES or len(argv) > 2:
        sys.exit(f"usage: {argv[0]} [{'|'.join(CURVES)}]")
    return CURVES[name]


def limbs(v, n):
    return "{" + ", ".join("0x%016x" % ((v >> (64 * i)) & (2**64 - 1)) for i in range(n)) + "}"


def field(name, m, n, g, expected_s):
    R = 2 ** (64 * n) % m
    s, t = 0, m - 1
    while t % 2 == 0:
        s, t = s + 1, t // 2
    assert s == expected_s
    # g is the quadratic non-residue used for roots of unity
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


def main(argv):
    c = curve_from_argv(argv)
    # p = 3 mod 4 for both: -1 is a non-residue, so Fp2 = Fp[u]/(u^2 + 1)
    assert c.p % 4 == 3
    field("Fp", c.p, c.fp_limbs, c.fp_g, c.fp_s)
    field("Fr", c.r, c.fr_limbs, c.fr_g, c.fr_s)


if __name__ == "__main__":
    main(sys.argv)
