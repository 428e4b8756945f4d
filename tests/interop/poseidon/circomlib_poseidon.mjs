// circomlibjs's Poseidon, the oracle for cuzk's native Poseidon on BN254.
//   node circomlib_poseidon.mjs IN.json
// IN: {"pairs": [[l, r], ...], "leaf": x, "index": i, "path": [s_0, ...]}
// (decimal strings; the pairs may be left out: a poseidon-merkle inputs file). Prints {"hashes": [poseidon([l, r]), ...], "root": r}
// where the root folds the path as poseidon-merkle does: at level k the node
// is the right child when bit k of the index is set.
import { readFileSync } from "fs";
import { buildPoseidon } from "circomlibjs";

const input = JSON.parse(readFileSync(process.argv[2], "utf8"));
const poseidon = await buildPoseidon();
const F = poseidon.F;
const hash = (l, r) => F.toObject(poseidon([BigInt(l), BigInt(r)]));
const hashes = (input.pairs ?? []).map(([l, r]) => hash(l, r).toString());
let node = BigInt(input.leaf);
const index = BigInt(input.index);
input.path.forEach((s, k) => {
  node = (index >> BigInt(k)) & 1n ? hash(s, node) : hash(node, s);
});
console.log(JSON.stringify({ hashes, root: node.toString() }));
