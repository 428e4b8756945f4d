#!/usr/bin/env bash
# From a circom circuit's input JSON to its witness and to its proof (issue 39),
# in one run: circom's two witness generators run by cuzk (cuzk witness,
# cuzk prove --wasm|--cpp, and the service: cuzk circuit install, cuzk submit
# --circuit --inputs) beside snarkjs wtns calculate and snarkjs groth16
# fullprove, on the same circuit, key and inputs, with circom's default prime
# (bn128). Best of RUNS each; every witness is compared with snarkjs's byte
# for byte, every proof verified by snarkjs.
#   bench/e2e/witness_bench.sh poseidon [N] [RUNS]   circomlib's Poseidon in a chain,
#       h_{i+1} = Poseidon(h_i, i), N hashes (about 517 constraints each: 97 gives 50k)
#   bench/e2e/witness_bench.sh email [RUNS]          zk-email's EmailVerifier(1024, 64, 121, 17, 1, 0, 0, 0)
#       from the npm package @zk-email/circuits 6.3.4 (742,350 constraints; npm-installed into the work
#       directory), its inputs made by bench/e2e/circom/email_inputs.js
# The key is made by cuzk setup --r1cs (a dev setup snarkjs proves with); the
# C++ generator is built with circom's own Makefile (g++, nasm, GMP, nlohmann-json).
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
circuit=${1:-poseidon}
case $circuit in
poseidon) n=${2:-182} runs=${3:-3} tag=poseidon-$n ;;
email) runs=${2:-3} tag=email-1024 ;;
*) echo "usage: witness_bench.sh poseidon [N] [RUNS] | email [RUNS]" >&2; exit 2 ;;
esac
b=${CUZK_BUILD:-$root/build}
cuzk=$b/client/cuzk
bin=$root/tests/interop/node_modules/.bin
work=${CUZK_BENCH_WORK:-$root/build/bench-witness-$tag}
[ -x "$cuzk" ] || { echo "no $cuzk: build first (scripts/test.sh, or CUZK_BUILD=build-cpu)" >&2; exit 2; }
[ -x "$bin/snarkjs" ] || { echo "snarkjs missing: run scripts/setup.sh" >&2; exit 2; }
mkdir -p "$work"
cd "$work"
snarkjs() { node "$bin/snarkjs" "$@"; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }

if [ ! -f c.zkey ]; then
  if [ "$circuit" = poseidon ]; then
    lib=$root/tests/interop/node_modules/circomlib/circuits
    cp "$lib/poseidon.circom" "$lib/poseidon_constants.circom" "$root/bench/e2e/circom/poseidon_chain.circom" .
    printf 'pragma circom 2.0.0;\ninclude "poseidon_chain.circom";\ncomponent main = PoseidonChain(%d);\n' "$n" > c.circom
    node "$bin/circom2" c.circom --r1cs --wasm --c -o . > /dev/null
  else
    [ -d node_modules/@zk-email/circuits ] ||
      npm install --no-save --prefix . @zk-email/circuits@6.3.4 circomlib@2.0.5 > npm.log 2>&1
    printf '%s\n%s\n%s\n' 'pragma circom 2.1.6;' 'include "@zk-email/circuits/email-verifier.circom";' \
      'component main { public [pubkey] } = EmailVerifier(1024, 64, 121, 17, 1, 0, 0, 0);' > c.circom
    node "$bin/circom2" c.circom -l node_modules --r1cs --wasm --c -o . > compile.log
  fi
  make -s -C c_cpp > /dev/null 2>&1
  "$cuzk" setup --r1cs c.r1cs --zkey c.zkey --seed bench 2> setup.log
  "$cuzk" export-vk --zkey c.zkey --vk vk.json
fi
constraints=$(node -e 'const b=require("fs").readFileSync(process.argv[1]);let o=12;while(o<b.length){const t=b.readUInt32LE(o),n=Number(b.readBigUInt64LE(o+4));if(t===1){console.log(b.readUInt32LE(o+12+60));break}o+=12+n}' c.r1cs)
if [ "$circuit" = poseidon ]; then
  echo '{"x": "1234567891011121314151617181920"}' > in.json
else
  node "$root/bench/e2e/circom/email_inputs.js" 1024 > in.json
fi

# best NAME COMMAND...: the best wall time of RUNS runs, printed and kept in best[NAME]
declare -A best
run_best() {
  local name=$1
  shift
  local b=
  for i in $(seq "$runs"); do
    local t0
    t0=$(now)
    "$@" > /dev/null 2> "$name.log"
    local t
    t=$(secs "$t0" "$(now)")
    if [ -z "$b" ] || awk -v a="$t" -v b="$b" 'BEGIN { exit !(a < b) }'; then b=$t; fi
  done
  best[$name]=$b
  printf '%-34s %8.3f s\n' "$name" "$b"
}

run_best "snarkjs wtns calculate" snarkjs wtns calculate c_js/c.wasm in.json snarkjs.wtns
run_best "cuzk witness --wasm" "$cuzk" witness --wasm c_js/c.wasm --inputs in.json --wtns wasm.wtns
run_best "cuzk witness --cpp" "$cuzk" witness --cpp c_cpp/c --inputs in.json --wtns cpp.wtns
cmp snarkjs.wtns wasm.wtns
cmp snarkjs.wtns cpp.wtns
run_best "snarkjs groth16 fullprove" snarkjs groth16 fullprove in.json c_js/c.wasm c.zkey s.proof.json s.public.json
run_best "cuzk prove --wasm --inputs" "$cuzk" prove --zkey c.zkey --wasm c_js/c.wasm --inputs in.json \
  --proof w.proof.json --public w.public.json
run_best "cuzk prove --cpp --inputs" "$cuzk" prove --zkey c.zkey --cpp c_cpp/c --inputs in.json \
  --proof c.proof.json --public c.public.json

# The service: the circuit installed (C++ generator) in a pool, one worker, CPU backend; a warm-up job loads
# nothing new (the key is in its SRS region from the install), then submit --wait per run.
pool=cuzk-wbench-$$ ep=ipc://$work/cuzk.sock
pids=()
stop() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
  "$b/shm/tool/cuzk-shm" destroy --force --name "$pool" > /dev/null 2>&1 || true
}
trap stop EXIT
domain=$(node -e 'let d=1;while(d<Number(process.argv[1])+1)d*=2;console.log(d)' "$constraints")
"$b/shm/tool/cuzk-shm" create --name "$pool" --slots "2x$domain" > /dev/null
"$cuzk" circuit install c --pool "$pool" --zkey c.zkey --cpp c_cpp/c > /dev/null 2>&1
"$b/gpu-server/cuzk-gpu-server" --pool "$pool" --endpoint "$ep" --backend cpu > server.log 2>&1 &
pids+=($!)
"$b/synth-worker/cuzk-synth-worker" --pool "$pool" --endpoint "$ep.worker" --name worker@1 > worker.log 2>&1 &
pids+=($!)
"$cuzk" submit --endpoint "$ep" --circuit c --inputs in.json --job-id warm-up --wait \
  --proof v.proof.json --public v.public.json > /dev/null 2>&1
submit_n=0
submit() {
  submit_n=$((submit_n + 1))
  "$cuzk" submit --endpoint "$ep" --circuit c --inputs in.json --job-id "run-$submit_n" --wait \
    --proof v.proof.json --public v.public.json
}
run_best "service submit --circuit --inputs" submit
stop
for p in s w c v; do snarkjs groth16 verify vk.json $p.public.json $p.proof.json | grep -q OK; done
grep -h "witness computed" "cuzk witness --cpp.log" "cuzk witness --wasm.log" || true

ratio() { awk -v a="${best[$1]}" -v b="${best[$2]}" 'BEGIN { printf "%.2f", a / b }'; }
printf '\n%s: %s constraints, bn128; best of %d; %s threads; %s\n' "$tag" "$constraints" "$runs" \
  "$(nproc)" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
printf 'witness: snarkjs / cuzk --wasm %sx, snarkjs / cuzk --cpp %sx\n' \
  "$(ratio "snarkjs wtns calculate" "cuzk witness --wasm")" "$(ratio "snarkjs wtns calculate" "cuzk witness --cpp")"
printf 'inputs -> proof: snarkjs fullprove / cuzk --wasm %sx, / cuzk --cpp %sx, / the service %sx\n' \
  "$(ratio "snarkjs groth16 fullprove" "cuzk prove --wasm --inputs")" \
  "$(ratio "snarkjs groth16 fullprove" "cuzk prove --cpp --inputs")" \
  "$(ratio "snarkjs groth16 fullprove" "service submit --circuit --inputs")"
