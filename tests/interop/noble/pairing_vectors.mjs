// Pairing vectors from @noble/curves (the audited pure-JS BLS12-381 and BN254)
// for the C++ pairing test: node pairing_vectors.mjs <seed> <count> [curve]
// with curve bls12-381 (the default) or bn254.
//
// Prints JSON: { seed, vectors: [ { a, b, aG1, bG2, e } ] } with
//   a, b   random scalars in [1, r - 1], decimal (the first vector is a = b = 1)
//   aG1    { compressed: hex, x: dec, y: dec }; bn254: { x: dec, y: dec }
//   bG2    { compressed: hex, x: [c0, c1], y: [c0, c1] } (decimal);
//          bn254: { x: [c0, c1], y: [c0, c1] } (noble has no bn254 encoding)
//   e      e(aG1, bG2) as its 12 Fp coefficients, decimal, in tower order
//          c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1
//          (noble's towers: BLS12-381 Fp6 = Fp2[v]/(v^3 - (u + 1)),
//          BN254 Fp6 = Fp2[v]/(v^3 - (u + 9)); both Fp12 = Fp6[w]/(w^2 - v))
// Scalars come from SHA-256(seed || ":" || index || ":" || a|b), so a seed
// replays the same vectors.
import { createHash } from 'node:crypto';
import { bls12_381 } from '@noble/curves/bls12-381';
import { bn254 } from '@noble/curves/bn254';

const CURVES = {
  'bls12-381': { noble: bls12_381, compressed: true },
  'bn254': { noble: bn254, compressed: false },
};

const [seedArg, countArg, curveArg = 'bls12-381'] = process.argv.slice(2);
if (seedArg === undefined || countArg === undefined || !/^\d+$/.test(seedArg) || !/^\d+$/.test(countArg) ||
    !(curveArg in CURVES)) {
  console.error('usage: node pairing_vectors.mjs <seed> <count> [bls12-381|bn254]');
  process.exit(2);
}
const C = CURVES[curveArg];
const count = Number(countArg);
const r = C.noble.fields.Fr.ORDER;

function scalar(index, which) {
  // 512 bits of hash reduced mod r - 1, plus 1: uniform enough and never 0
  const h = (s) => createHash('sha256').update(s).digest('hex');
  const tag = `${seedArg}:${index}:${which}`;
  const wide = BigInt('0x' + h(tag + ':0') + h(tag + ':1'));
  return (wide % (r - 1n)) + 1n;
}

const fp2 = (v) => [v.c0.toString(), v.c1.toString()];
const fp12 = (f) =>
  [f.c0, f.c1].flatMap((c6) => [c6.c0, c6.c1, c6.c2].flatMap((c2) => fp2(c2)));

const G1 = C.noble.G1.ProjectivePoint.BASE;
const G2 = C.noble.G2.ProjectivePoint.BASE;
const vectors = [];
for (let i = 0; i < count; ++i) {
  const a = i === 0 ? 1n : scalar(i, 'a');
  const b = i === 0 ? 1n : scalar(i, 'b');
  const p = G1.multiply(a);
  const q = G2.multiply(b);
  const pa = p.toAffine();
  const qa = q.toAffine();
  vectors.push({
    a: a.toString(),
    b: b.toString(),
    aG1: C.compressed ? { compressed: p.toHex(true), x: pa.x.toString(), y: pa.y.toString() }
                      : { x: pa.x.toString(), y: pa.y.toString() },
    bG2: C.compressed ? { compressed: q.toHex(true), x: fp2(qa.x), y: fp2(qa.y) }
                      : { x: fp2(qa.x), y: fp2(qa.y) },
    e: fp12(C.noble.pairing(p, q)),
  });
}
process.stdout.write(JSON.stringify({ seed: seedArg, vectors }) + '\n');
