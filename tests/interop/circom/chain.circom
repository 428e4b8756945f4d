pragma circom 2.0.0;

// x_0 = x, x_{i+1} = x_i^2 + i, out = x_N: the relation of cuzk's native
// "chain:size=N" circuit (common/circuits/chain.hpp), with the same wires:
// 0 = one, 1 = out (public), 2 = x (private), 3.. = x_1 .. x_{N-1}.
// Instantiate from a main file: include "chain.circom"; component main = Chain(N);
template Chain(N) {
    signal input x;
    signal output out;
    signal s[N + 1];
    s[0] <== x;
    for (var i = 0; i < N; i++) {
        s[i + 1] <== s[i] * s[i] + i;
    }
    out <== s[N];
}
