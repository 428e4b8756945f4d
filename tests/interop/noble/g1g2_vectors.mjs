// Expected G1/G2 values for cuzk's ec tests, from independent implementations:
// @noble/curves (points, encodings, sums) and ffjavascript, the library under
// snarkjs (the LEM layout snarkjs writes into .zkey files).
//
//   node g1g2_vectors.mjs SEED COUNT [CURVE]
//
// CURVE is bls12-381 (the default) or bn254. Prints one JSON object
// { seed, multiples, sums }: the scalars (decimal) are 0, 1, 2, r - 1 and
// COUNT pseudo-random ones from SEED (splitmix64, uniform below r by
// rejection), each with [k]G1 and [k]G2, and sums [a]G + [b]G of consecutive
// random scalars.
//
// bls12-381: multiples[i] = { k, g1_compressed, g1_uncompressed, g1_lem,
//                             g2_compressed, g2_uncompressed, g2_lem }
//            sums[i]      = { a, b, g1, g2 }, g1/g2 zcash compressed hex
// bn254:     multiples[i] = { k, g1, g1_lem, g2, g2_lem }
//            sums[i]      = { a, b, g1, g2 }
//            with g1 = { x, y } and g2 = { x: [c0, c1], y: [c0, c1] }, affine
//            coordinates in decimal (noble has no bn254 encoding), or
//            { infinity: true } for the point at infinity.
// g1_lem / g2_lem (both curves): hex of ffjavascript's toRprLEM, x then y,
// each Fp coordinate little-endian in Montgomery form (G2: x.c0, x.c1, y.c0,
// y.c1), all zero bytes for the point at infinity. The script checks that these
// decode to noble's affine coordinates and throws if not.
import { bls12_381 } from '@noble/curves/bls12-381';
import { bn254 } from '@noble/curves/bn254';
import { buildBls12381, buildBn128 } from 'ffjavascript';

const CURVES = {
  'bls12-381': { noble: bls12_381, build: buildBls12381, bits: 255n, zcash: true },
  'bn254': { noble: bn254, build: buildBn128, bits: 254n, zcash: false },
};

const [seedArg, countArg, curveArg = 'bls12-381'] = process.argv.slice(2);
if (seedArg === undefined || countArg === undefined || !(curveArg in CURVES)) {
  console.error('usage: node g1g2_vectors.mjs SEED COUNT [bls12-381|bn254]');
  process.exit(2);
}
const C = CURVES[curveArg];

const MASK64 = (1n << 64n) - 1n;
let state = BigInt.asUintN(64, BigInt(seedArg));
function next64() {  // splitmix64
  state = (state + 0x9e3779b97f4a7c15n) & MASK64;
  let z = state;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return z ^ (z >> 31n);
}

const G1 = C.noble.G1.ProjectivePoint;
const G2 = C.noble.G2.ProjectivePoint;
const r = C.noble.params.r;
const p = C.noble.fields.Fp.ORDER;

function randomScalar() {  // uniform below r by rejection on C.bits bits
  for (;;) {
    let k = 0n;
    for (let i = 0; i < 4; i++) k = (k << 64n) | next64();
    k &= (1n << C.bits) - 1n;
    if (k < r) return k;
  }
}

function mulBase(G, k) { return k === 0n ? G.ZERO : G.BASE.multiply(k); }

const hex = (u8) => Buffer.from(u8).toString('hex');

// Affine coordinates in decimal; Fp2 as [c0, c1].
const dec = (v) => (typeof v === 'bigint' ? v.toString() : [v.c0.toString(), v.c1.toString()]);
function affine(P) {
  if (P.is0()) return { infinity: true };
  const a = P.toAffine();
  return { x: dec(a.x), y: dec(a.y) };
}

const curve = await C.build(true);
function lem(group, k) {
  const pt = group.toAffine(group.timesFr(group.g, curve.Fr.e(k)));
  const buff = new Uint8Array(group.F.n8 * 2);
  group.toRprLEM(buff, 0, pt);
  return hex(buff);
}

// Decodes a LEM hex string to the Fp coordinates it holds (Montgomery form,
// little-endian, nfp elements of n8q bytes) and checks them against noble's
// affine point P, so that ffjavascript and noble agree.
const n8q = curve.G1.F.n8;
const rInv = (() => {  // (2^(8 n8q))^-1 mod p
  const R = (1n << BigInt(8 * n8q)) % p;
  let [a, b, x0, x1] = [R, p, 1n, 0n];
  while (b !== 0n) { const q = a / b; [a, b] = [b, a - q * b]; [x0, x1] = [x1, x0 - q * x1]; }
  return ((x0 % p) + p) % p;
})();
function checkLem(lemHex, P, what) {
  const bytes = Buffer.from(lemHex, 'hex');
  const words = [];
  for (let o = 0; o < bytes.length; o += n8q) {
    const le = Buffer.from(bytes.subarray(o, o + n8q)).reverse();
    words.push((BigInt('0x' + le.toString('hex')) * rInv) % p);
  }
  let want;
  if (P.is0()) {
    want = words.map(() => 0n);  // ffjavascript writes the infinity as zeros
  } else {
    const a = P.toAffine();
    want = [a.x, a.y].flatMap((v) => (typeof v === 'bigint' ? [v] : [v.c0, v.c1]));
  }
  if (words.length !== want.length || words.some((w, i) => w !== want[i]))
    throw new Error(`${curveArg} ${what}: ffjavascript LEM ${lemHex} != noble ${JSON.stringify(affine(P))}`);
}

const count = Number(countArg);
const scalars = [0n, 1n, 2n, r - 1n];
for (let i = 0; i < count; i++) scalars.push(randomScalar());

const multiples = scalars.map((k) => {
  const p1 = mulBase(G1, k), p2 = mulBase(G2, k);
  const g1_lem = lem(curve.G1, k), g2_lem = lem(curve.G2, k);
  checkLem(g1_lem, p1, `[${k}]G1`);
  checkLem(g2_lem, p2, `[${k}]G2`);
  return C.zcash
    ? {
        k: k.toString(),
        g1_compressed: p1.toHex(true), g1_uncompressed: p1.toHex(false), g1_lem,
        g2_compressed: p2.toHex(true), g2_uncompressed: p2.toHex(false), g2_lem,
      }
    : { k: k.toString(), g1: affine(p1), g1_lem, g2: affine(p2), g2_lem };
});

const point = (P) => (C.zcash ? P.toHex(true) : affine(P));
const sums = [];
for (let i = 4; i + 1 < scalars.length; i += 2) {
  const a = scalars[i], b = scalars[i + 1];
  sums.push({
    a: a.toString(), b: b.toString(),
    g1: point(mulBase(G1, a).add(mulBase(G1, b))),
    g2: point(mulBase(G2, a).add(mulBase(G2, b))),
  });
}
await curve.terminate();

console.log(JSON.stringify({ seed: seedArg, multiples, sums }));
