// Expected G1/G2 values for cuzk's ec tests, from independent implementations:
// @noble/curves (points, zcash encodings, sums) and ffjavascript, the library
// under snarkjs (the LEM layout snarkjs writes into .zkey files).
//
//   node g1g2_vectors.mjs SEED COUNT
//
// Prints one JSON object: the scalars (decimal) are 0, 1, 2, r - 1 and COUNT
// pseudo-random ones from SEED (splitmix64), each with [k]G1 and [k]G2 in the
// zcash compressed and uncompressed encodings and the LEM layout, and sums
// [a]G + [b]G of consecutive random scalars.
import { bls12_381 } from '@noble/curves/bls12-381';
import { buildBls12381 } from 'ffjavascript';

const [seedArg, countArg] = process.argv.slice(2);
if (seedArg === undefined || countArg === undefined) {
  console.error('usage: node g1g2_vectors.mjs SEED COUNT');
  process.exit(2);
}

const MASK64 = (1n << 64n) - 1n;
let state = BigInt.asUintN(64, BigInt(seedArg));
function next64() {  // splitmix64
  state = (state + 0x9e3779b97f4a7c15n) & MASK64;
  let z = state;
  z = ((z ^ (z >> 30n)) * 0xbf58476d1ce4e5b9n) & MASK64;
  z = ((z ^ (z >> 27n)) * 0x94d049bb133111ebn) & MASK64;
  return z ^ (z >> 31n);
}

const G1 = bls12_381.G1.ProjectivePoint;
const G2 = bls12_381.G2.ProjectivePoint;
const r = bls12_381.params.r;

function randomScalar() {  // uniform below r by rejection on 255 bits
  for (;;) {
    let k = 0n;
    for (let i = 0; i < 4; i++) k = (k << 64n) | next64();
    k &= (1n << 255n) - 1n;
    if (k < r) return k;
  }
}

function mulBase(G, k) { return k === 0n ? G.ZERO : G.BASE.multiply(k); }

const hex = (u8) => Buffer.from(u8).toString('hex');

const curve = await buildBls12381(true);
function lem(group, k) {
  const p = group.toAffine(group.timesFr(group.g, curve.Fr.e(k)));
  const buff = new Uint8Array(group.F.n8 * 2);
  group.toRprLEM(buff, 0, p);
  return hex(buff);
}

const count = Number(countArg);
const scalars = [0n, 1n, 2n, r - 1n];
for (let i = 0; i < count; i++) scalars.push(randomScalar());

const multiples = scalars.map((k) => {
  const p1 = mulBase(G1, k), p2 = mulBase(G2, k);
  return {
    k: k.toString(),
    g1_compressed: p1.toHex(true), g1_uncompressed: p1.toHex(false), g1_lem: lem(curve.G1, k),
    g2_compressed: p2.toHex(true), g2_uncompressed: p2.toHex(false), g2_lem: lem(curve.G2, k),
  };
});

const sums = [];
for (let i = 4; i + 1 < scalars.length; i += 2) {
  const a = scalars[i], b = scalars[i + 1];
  sums.push({
    a: a.toString(), b: b.toString(),
    g1: mulBase(G1, a).add(mulBase(G1, b)).toHex(true),
    g2: mulBase(G2, a).add(mulBase(G2, b)).toHex(true),
  });
}
await curve.terminate();

console.log(JSON.stringify({ seed: seedArg, multiples, sums }));
