#!/usr/bin/env bash
# circom's two witness generators run by cuzk (job/witness_generator): a
# circomlib circuit compiled by circom2 with --c and --wasm on both primes.
#   witness.sh CUZK WORKDIR STEP
# STEP: fixture | identical | prove | assert | installed
# The fixture compiles the circuit (bn128, circom's default, and bls12381),
# builds each C++ generator with circom's own Makefile, and makes a small
# powers of tau and a snarkjs key for each; the other steps reuse it.
set -euo pipefail
cuzk=$1 work=$2 step=$3
here=$(cd "$(dirname "$0")/.." && pwd)
seed_name=witness
. "$here/oracles.sh"
inputs() { # bound and four values below it, from the seed and a salt
  node -e 'let s=BigInt(process.argv[1])*7919n+BigInt(process.argv[2]);const r=()=>{s=(s*6364136223846793005n+1442695040888963407n)%(1n<<64n);return s>>33n};
    const bound=1000000n+r()%1000000000n;const x=[0,1,2,3].map(()=>(r()%bound).toString());
    if(process.argv[3]==="bad")x[2]=(bound+r()%1000n).toString();
    console.log(JSON.stringify({x,bound:bound.toString()}))' "$seed" "$1" "${2:-good}"
}
primes="bn128 bls12381"
salt() { [ "$1" = bn128 ] && echo 1 || echo 2; }  # a number per prime, for inputs
mkdir -p "$work"
cd "$work"

case $step in
fixture)
  rm -rf ./*
  # circom2 runs under WASI and sees only the working directory: circomlib is copied in
  cp -r "$here/node_modules/circomlib/circuits" circomlib
  cat > bounded.circom <<'CIRCOM'
pragma circom 2.0.0;
include "circomlib/poseidon.circom";
include "circomlib/comparators.circom";
// Four values, each below a public bound (a failing === is circom's assert), hashed with Poseidon.
template Bounded(N) {
  signal input x[N];
  signal input bound;
  signal output h;
  component lt[N];
  component p = Poseidon(N);
  for (var i = 0; i < N; i++) {
    lt[i] = LessThan(64);
    lt[i].in[0] <== x[i];
    lt[i].in[1] <== bound;
    lt[i].out === 1;
    p.inputs[i] <== x[i];
  }
  h <== p.out;
}
component main {public [bound]} = Bounded(4);
CIRCOM
  for prime in $primes; do
    mkdir -p "$prime"
    cp -r bounded.circom circomlib "$prime/"
    (cd "$prime" && node "$bin/circom2" bounded.circom --r1cs --wasm --c --sym --prime "$prime" -o . > /dev/null)
    make -s -C "$prime/bounded_cpp" > /dev/null 2>&1 || make -C "$prime/bounded_cpp"
    curve=$prime; [ "$prime" = bn128 ] || curve=bls12381
    snarkjs powersoftau new "$curve" 10 "$prime/pot0.ptau" > /dev/null
    snarkjs powersoftau contribute "$prime/pot0.ptau" "$prime/pot1.ptau" -e="cuzk witness $seed" > /dev/null
    snarkjs powersoftau prepare phase2 "$prime/pot1.ptau" "$prime/pot.ptau" > /dev/null
    snarkjs groth16 setup "$prime/bounded.r1cs" "$prime/pot.ptau" "$prime/bounded.zkey" > /dev/null
    snarkjs zkey export verificationkey "$prime/bounded.zkey" "$prime/vk.json" > /dev/null
  done
  ls -la */bounded.r1cs */bounded_cpp/bounded */bounded_js/bounded.wasm */bounded.zkey
  ;;

identical)
  # each generator run by cuzk gives the .wtns snarkjs wtns calculate gives, byte for byte
  for prime in $primes; do
    inputs "1$(salt "$prime")" > "$prime/in.json"
    snarkjs wtns calculate "$prime/bounded_js/bounded.wasm" "$prime/in.json" "$prime/snarkjs.wtns"
    "$cuzk" witness --wasm "$prime/bounded_js/bounded.wasm" --inputs "$prime/in.json" --wtns "$prime/wasm.wtns"
    "$cuzk" witness --cpp "$prime/bounded_cpp/bounded" --inputs "$prime/in.json" --wtns "$prime/cpp.wtns"
    cmp "$prime/snarkjs.wtns" "$prime/wasm.wtns"
    cmp "$prime/snarkjs.wtns" "$prime/cpp.wtns"
    echo "$prime: the wasm and C++ generators' witnesses equal snarkjs's ($(stat -c %s "$prime/cpp.wtns") bytes)"
  done
  ;;

prove)
  # inputs -> proof in one command (snarkjs groth16 fullprove, without snarkjs); snarkjs verifies each
  for prime in $primes; do
    inputs "2$(salt "$prime")" > "$prime/in2.json"
    for gen in "--wasm $prime/bounded_js/bounded.wasm" "--cpp $prime/bounded_cpp/bounded"; do
      rm -f "$prime/proof.json" "$prime/public.json"
      "$cuzk" prove --zkey "$prime/bounded.zkey" $gen --inputs "$prime/in2.json" \
        --proof "$prime/proof.json" --public "$prime/public.json"
      snarkjs groth16 verify "$prime/vk.json" "$prime/public.json" "$prime/proof.json" | tee verify.log
      grep -q "OK" verify.log
    done
  done
  ;;

assert)
  # a value past the bound fails circom's assert: both generators name the template and line; no proof
  for prime in $primes; do
    inputs "3$(salt "$prime")" bad > "$prime/bad.json"
    for gen in "--wasm $prime/bounded_js/bounded.wasm" "--cpp $prime/bounded_cpp/bounded"; do
      rm -f never.proof.json
      rc=0
      "$cuzk" prove --zkey "$prime/bounded.zkey" $gen --inputs "$prime/bad.json" \
        --proof never.proof.json --public never.public.json 2> prove.err || rc=$?
      cat prove.err
      [ $rc = 2 ] && [ ! -e never.proof.json ] || { echo "cuzk prove returned $rc for a failing assert" >&2; exit 1; }
      grep -Eq "(Failed assert in template/function Bounded line 15|Assert Failed. Error in template Bounded_[0-9]+ line: 15)" prove.err
    done
    # inputs checked against the input signals' table circom wrote into each generator, before it runs
    echo '{"x": ["1", "2", "3"], "bound": "9"}' > "$prime/short.json"
    echo '{"x": ["1", "2", "3", "4"], "bound": "9", "y": "1"}' > "$prime/extra.json"
    echo '{"x": ["1", "2", "3", "4"]}' > "$prime/missing.json"
    for gen in "--wasm $prime/bounded_js/bounded.wasm" "--cpp $prime/bounded_cpp/bounded"; do
      for bad in "short:input signal x takes 4 values, not 3" "extra:the circuit has no input signal y (it has 2 input signals)" \
        "missing:1 of the circuit's 2 input signals missing"; do
        rc=0; "$cuzk" prove --zkey "$prime/bounded.zkey" $gen --inputs "$prime/${bad%%:*}.json" \
          --proof never.proof.json --public never.public.json 2> prove.err || rc=$?
        cat prove.err
        [ $rc = 2 ] && grep -qF "${bad#*:}" prove.err && ! grep -q "computing the witness" prove.err
      done
    done
    echo '{"x": ["1", "2", "3", "4"], "bound": 1.5}' > "$prime/float.json"
    rc=0; "$cuzk" witness --cpp "$prime/bounded_cpp/bounded" --inputs "$prime/float.json" --wtns never.wtns 2> w.err || rc=$?
    cat w.err
    [ $rc = 2 ] && grep -q "input bound is 1.5" w.err && [ ! -e never.wtns ]
  done
  ;;
installed)
  # circuits installed in a pool by name (cuzk circuit install): listed, proven from inputs, replaced, removed
  export CUZK_SHM_DIR=$work/shm
  rm -rf "$CUZK_SHM_DIR" && mkdir -m 0750 "$CUZK_SHM_DIR"
  pool=witness-test
  for prime in $primes; do
    inputs "4$(salt "$prime")" > "$prime/in4.json"
    "$cuzk" circuit install "b-$prime" --pool $pool --zkey "$prime/bounded.zkey" --cpp "$prime/bounded_cpp" | tee install.out
    cpp_id=$(awk '{print $2}' install.out)
    "$cuzk" circuits --pool $pool | tee list.out
    grep -q "^b-$prime *cpp *key" list.out
    rm -f "$prime/proof.json"
    "$cuzk" prove --pool $pool --circuit "b-$prime" --inputs "$prime/in4.json" --proof "$prime/proof.json" --public "$prime/public.json"
    snarkjs groth16 verify "$prime/vk.json" "$prime/public.json" "$prime/proof.json" | tee verify.log
    grep -q "OK" verify.log
    # the same name with the other generator: another circuit (another id), proving the same
    "$cuzk" circuit install "b-$prime" --pool $pool --zkey "$prime/bounded.zkey" --wasm "$prime/bounded_js/bounded.wasm" \
      --sym "$prime/bounded.sym" | tee install.out
    wasm_id=$(awk '{print $2}' install.out)
    [ "$cpp_id" != "$wasm_id" ] || { echo "a changed generator kept the circuit's id" >&2; exit 1; }
    "$cuzk" circuits --pool $pool | grep -q "^b-$prime *wasm *key.*id $wasm_id"
    "$cuzk" prove --pool $pool --circuit "b-$prime" --inputs "$prime/in4.json" --proof "$prime/proof2.json" --public "$prime/public2.json"
    snarkjs groth16 verify "$prime/vk.json" "$prime/public2.json" "$prime/proof2.json" | grep -q "OK"
    cmp "$prime/public.json" "$prime/public2.json"
    # installed with circom's .sym: a refusal names the signals
    for bad in "extra:the circuit has no input signal y (its inputs: bound, x)" "missing:input signal bound missing"; do
      rc=0; "$cuzk" prove --pool $pool --circuit "b-$prime" --inputs "$prime/${bad%%:*}.json" --proof never.json \
        --public never.json 2> prove.err || rc=$?
      cat prove.err
      [ $rc = 2 ] && grep -qF "${bad#*:}" prove.err
    done
    "$cuzk" circuit remove "b-$prime" --pool $pool
    rc=0; "$cuzk" prove --pool $pool --circuit "b-$prime" --inputs "$prime/in4.json" --proof never.json --public never.json 2> prove.err || rc=$?
    cat prove.err
    [ $rc = 2 ] && grep -q "holds no circuit b-$prime" prove.err
  done
  rc=0; "$cuzk" circuit install "../evil" --pool $pool --zkey bn128/bounded.zkey --wasm bn128/bounded_js/bounded.wasm 2> install.err || rc=$?
  cat install.err
  [ $rc = 2 ] && grep -q "a circuit's name is" install.err
  ;;
*)
  echo "unknown step $step" >&2
  exit 2
  ;;
esac
