#!/usr/bin/env bash
# cuzk prove vs snarkjs groth16 prove on the same .zkey and witness, in one
# run, on either curve:
#   chain           x_{i+1} = x_i^2 + i, N constraints (N = 65534: a 2^16 domain)
#   poseidon-chain  h_{i+1} = Poseidon(h_i, i) with circomlib's Poseidon, N hashes
#                   (182 hashes: 94,094 constraints, 517 a hash)
#   bench/e2e/prove_vs_snarkjs.sh [N] [RUNS] [CURVE] [CIRCUIT]
#     CURVE: bls12381 (default) or bn128 (circom's default prime)
# The key is made by cuzk setup (a dev setup snarkjs proves with).
# Needs a build (build/client/cuzk) and the npm oracles (scripts/setup.sh).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
n=${1:-65534}
runs=${2:-3}
curve=${3:-bls12381}
circuit=${4:-chain}
cuzk=${CUZK_BIN:-$root/build/client/cuzk}
bin=$root/tests/interop/node_modules/.bin
work=${CUZK_BENCH_WORK:-$root/build/bench-e2e-$circuit-$curve-$n}
case $curve in bls12381) prime=bls12381 ;; bn128) prime=bn128 ;; *) echo "CURVE is bls12381 or bn128" >&2; exit 2 ;; esac
[ -x "$cuzk" ] || { echo "no $cuzk: build first (scripts/test.sh or cmake --build build)" >&2; exit 2; }
[ -x "$bin/snarkjs" ] || { echo "snarkjs missing: run scripts/setup.sh" >&2; exit 2; }
mkdir -p "$work"
cd "$work"

now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
less() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }

if [ ! -f chain.zkey ]; then
  # circom2 (WASI) sees only the cwd: the templates are copied in
  case $circuit in
  chain)
    cp "$root/tests/interop/circom/chain.circom" chain_template.circom
    printf 'pragma circom 2.0.0;\ninclude "chain_template.circom";\ncomponent main = Chain(%d);\n' "$n" > chain.circom ;;
  poseidon-chain)
    lib=$root/tests/interop/node_modules/circomlib/circuits
    cp "$lib/poseidon.circom" "$lib/poseidon_constants.circom" "$root/bench/e2e/circom/poseidon_chain.circom" .
    printf 'pragma circom 2.0.0;\ninclude "poseidon_chain.circom";\ncomponent main = PoseidonChain(%d);\n' "$n" > chain.circom ;;
  *) echo "CIRCUIT is chain or poseidon-chain" >&2; exit 2 ;;
  esac
  node "$bin/circom2" chain.circom --r1cs --wasm --prime "$prime" -o . > /dev/null
  "$cuzk" setup --r1cs chain.r1cs --zkey chain.zkey --seed bench 2> setup.log
  "$cuzk" export-vk --zkey chain.zkey --vk vk.json
fi
constraints=$(node -e 'const b=require("fs").readFileSync(process.argv[1]);let o=12;while(o<b.length){const t=b.readUInt32LE(o),n=Number(b.readBigUInt64LE(o+4));if(t===1){console.log(b.readUInt32LE(o+12+60));break}o+=12+n}' chain.r1cs)
echo '{"x": "1234567891011121314151617181920"}' > in.json
node chain_js/generate_witness.js chain_js/chain.wasm in.json w.wtns

best_cuzk=
for i in $(seq "$runs"); do
  t0=$(now)
  "$cuzk" prove --zkey chain.zkey --wtns w.wtns --proof cuzk.proof.json --public cuzk.public.json 2> cuzk.log
  t=$(secs "$t0" "$(now)")
  echo "cuzk prove run $i: $t s ($(grep -o 'proved in.*' cuzk.log))"
  if [ -z "$best_cuzk" ] || less "$t" "$best_cuzk"; then best_cuzk=$t; fi
done
node "$bin/snarkjs" groth16 verify vk.json cuzk.public.json cuzk.proof.json | grep -q OK

best_snarkjs=
for i in $(seq "$(( runs > 1 ? runs - 1 : 1 ))"); do
  t0=$(now)
  node "$bin/snarkjs" groth16 prove chain.zkey w.wtns snarkjs.proof.json snarkjs.public.json
  t=$(secs "$t0" "$(now)")
  echo "snarkjs groth16 prove run $i: $t s"
  if [ -z "$best_snarkjs" ] || less "$t" "$best_snarkjs"; then best_snarkjs=$t; fi
done
node "$bin/snarkjs" groth16 verify vk.json snarkjs.public.json snarkjs.proof.json | grep -q OK
cmp -s <(tr -d ' \n' < cuzk.public.json) <(tr -d ' \n' < snarkjs.public.json) || { echo "public signals differ" >&2; exit 1; }

printf '\n%-28s %10s\n' "prover ($circuit N=$n, $constraints constraints, $curve)" "best (s)"
printf '%-28s %10.3f\n' "cuzk prove (wtns)" "$best_cuzk" "snarkjs groth16 prove" "$best_snarkjs"
printf 'ratio snarkjs / cuzk: %.1fx  (threads: %s, machine: %s)\n' "$(awk -v a="$best_snarkjs" -v b="$best_cuzk" 'BEGIN { print a / b }')" \
  "$(nproc)" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
