pragma circom 2.0.0;
// h_0 = x, h_{i+1} = Poseidon(h_i, i): circomlib's Poseidon (t = 3), about
// 517 constraints a hash; the benchmark's circomlib circuit.
include "poseidon.circom";

template PoseidonChain(n) {
  signal input x;
  signal output y;
  signal h[n + 1];
  component p[n];
  h[0] <== x;
  for (var i = 0; i < n; i++) {
    p[i] = Poseidon(2);
    p[i].inputs[0] <== h[i];
    p[i].inputs[1] <== i;
    h[i + 1] <== p[i].out;
  }
  y <== h[n];
}
