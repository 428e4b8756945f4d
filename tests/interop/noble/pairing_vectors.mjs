// Pairing vectors from @noble/curves (the audited pure-JS BLS12-381) for the
// C++ pairing test: node pairing_vectors.mjs <seed> <count>
//
// Prints JSON: { seed, vectors: [ { a, b, aG1, bG2, e } ] } with
//   a, b   random scalars in [1, r - 1], decimal (the first vector is a = b = 1)
//   aG1    { compressed: hex, x: dec, y: dec }
//   bG2    { compressed: hex, x: [c0, c1], y: [c0, c1] } (decimal)
//   e      e(aG1, bG2) as its 12 Fp coefficients, decimal, in tower order
//          c0.c0.c0, c0.c0.c1, c0.c1.c0, ..., c1.c2.c1
// Scalars come from SHA-256(seed || ":" || index || ":" || a|b), so a seed
// replays the same vectors.
import { createHash } from 'node:crypto';
import { bls12_381 as bls } from '@noble/curves/bls12-381';

const [seedArg, countArg] = process.argv.slice(2);
if (seedArg === undefined || countArg === undefined || !/^\d+$/.test(seedArg) || !/^\d+$/.test(countArg)) {
  console.error('usage: node pairing_vectors.mjs <seed> <count>');
  process.exit(2);
}
const count = Number(countArg);
const r = bls.fields.Fr.ORDER;

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

const G1 = bls.G1.ProjectivePoint.BASE;
const G2 = bls.G2.ProjectivePoint.BASE;
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
    aG1: { compressed: p.toHex(true), x: pa.x.toString(), y: pa.y.toString() },
    bG2: { compressed: q.toHex(true), x: fp2(qa.x), y: fp2(qa.y) },
    e: fp12(bls.pairing(p, q)),
  });
}
process.stdout.write(JSON.stringify({ seed: seedArg, vectors }) + '\n');
