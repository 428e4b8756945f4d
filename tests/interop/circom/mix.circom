pragma circom 2.0.0;

// A small circuit with everything the .r1cs/.wtns readers must place: two
// public outputs, a public input, private inputs, multi-term linear
// combinations and constant terms.
// Instantiate: include "mix.circom"; component main {public [a]} = Mix(N);
template Mix(N) {
    signal input a;
    signal input b[N];
    signal output sum;
    signal output prod;
    signal acc[N + 1];
    acc[0] <== a;
    var s = 0;
    for (var i = 0; i < N; i++) {
        acc[i + 1] <== acc[i] * b[i] + 3 * a - 2;
        s += (i + 1) * b[i];
    }
    sum <== (s + 5) * (a - 1);
    prod <== acc[N];
}
