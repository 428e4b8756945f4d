#!/usr/bin/env bash
# CPU Groth16 provers side by side, in one run, on the same .zkey and .wtns:
# cuzk prove --backend cpu, rapidsnark's prover and snarkjs groth16 prove, each
# at 1 and 2 threads (taskset -c 0, taskset -c 0,1 for every program, plus
# cuzk's --threads; rapidsnark and snarkjs have no thread option and size
# their pools by the machine's cores, so at 1 thread they share one core).
# Best of RUNS wall times and the peak resident memory (/usr/bin/time %M, the
# largest of the runs); every proof verified by snarkjs against the key's vk.
#   RAPIDSNARK=/path/to/prover bench/e2e/cpu_prover_bench.sh CIRCUIT|all [RUNS]
#     RUNS: 3 unless given (or RUNS=...; SNARKJS_RUNS=... for snarkjs's, ten times slower);
#     RAPIDSNARK unset: its column is "—"
#     (the script never builds it); PREPARE_ONLY=1: make the artifacts, no runs
#   poseidon44k        circomlib's Poseidon chain of witness_bench.sh, 85 hashes (43,945 constraints)
#   email295k          zk-email's EmailVerifier(192, 64, 121, 17, 1, 0, 0, 0) (@zk-email/circuits 6.3.4)
#   email742k          EmailVerifier(1024, 64, 121, 17, 1, 0, 0, 0): witness_bench.sh email's key and
#                      witness (build/bench-witness-email-1024) when there, else made here the same way
#   chain16-bn254      prove_vs_snarkjs.sh's chain, x_{i+1} = x_i^2 + i, 65,534 constraints (a 2^16
#   chain16-bls12-381  domain), on BN254 / on BLS12-381 (rapidsnark: BN254 only)
# Keys by cuzk setup --seed bench (a dev setup snarkjs proves with); circom
# witnesses by cuzk witness --cpp (circom's C++ generator, built with its
# Makefile), the chain's by its wasm generator as prove_vs_snarkjs.sh.
# Work directories build/bench-cpu-CIRCUIT (artifacts made once, then reused);
# each gets results.txt with the raw numbers. Table columns: cuzk/rapidsnark is
# cuzk's time over rapidsnark's (below 1: cuzk faster), snarkjs/cuzk snarkjs's
# time over cuzk's.
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
all="poseidon44k email295k email742k chain16-bn254 chain16-bls12-381"
usage() { echo "usage: [RAPIDSNARK=prover] cpu_prover_bench.sh {${all// /|}|all} [RUNS]" >&2; exit 2; }
[ $# -ge 1 ] || usage
case $1 in
all) circuits=$all ;;
poseidon44k | email295k | email742k | chain16-bn254 | chain16-bls12-381) circuits=$1 ;;
*) usage ;;
esac
runs=${2:-${RUNS:-3}}
b=${CUZK_BUILD:-$root/build}
cuzk=${CUZK_BIN:-$b/client/cuzk}
bin=$root/tests/interop/node_modules/.bin
rs=${RAPIDSNARK:-}
[ -x "$cuzk" ] || { echo "no $cuzk: build first (scripts/test.sh, or CUZK_BUILD=build-cpu)" >&2; exit 2; }
[ -x "$bin/snarkjs" ] || { echo "snarkjs missing: run scripts/setup.sh" >&2; exit 2; }
[ -z "$rs" ] || [ -x "$rs" ] || { echo "RAPIDSNARK=$rs is not an executable" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "/usr/bin/time missing (apt-get install time)" >&2; exit 2; }
command -v taskset > /dev/null || { echo "taskset missing (util-linux)" >&2; exit 2; }
[ "$(nproc)" -ge 2 ] || { echo "needs 2 cores (taskset -c 0,1)" >&2; exit 2; }
snarkjs() { node "$bin/snarkjs" "$@"; }
now() { date +%s.%N; }
secs() { awk -v a="$1" -v b="$2" 'BEGIN { printf "%.3f", b - a }'; }
less() { awk -v a="$1" -v b="$2" 'BEGIN { exit !(a < b) }'; }
r1cs_constraints() {
  node -e 'const b=require("fs").readFileSync(process.argv[1]);let o=12;while(o<b.length){const t=b.readUInt32LE(o),n=Number(b.readBigUInt64LE(o+4));if(t===1){console.log(b.readUInt32LE(o+12+60));break}o+=12+n}' "$1"
}

# The artifacts of one circuit, in the current directory: sets key, wtns, r1cs, curve.
# A key counts as made once vk.json is written after it.
circom_key() { # R1CS ZKEY
  if [ ! -f vk.json ]; then
    "$cuzk" setup --r1cs "$1" --zkey "$2" --seed bench 2> setup.log
    "$cuzk" export-vk --zkey "$2" --vk vk.json
  fi
}
cpp_witness() { # the C++ generator c_cpp/c, in.json -> cpp.wtns
  if [ ! -f cpp.wtns ]; then
    "$cuzk" witness --cpp c_cpp/c --inputs in.json --wtns part.wtns 2> witness.log
    mv part.wtns cpp.wtns
  fi
}
make_poseidon() { # N
  if [ ! -x c_cpp/c ]; then
    local lib=$root/tests/interop/node_modules/circomlib/circuits
    cp "$lib/poseidon.circom" "$lib/poseidon_constants.circom" "$root/bench/e2e/circom/poseidon_chain.circom" .
    printf 'pragma circom 2.0.0;\ninclude "poseidon_chain.circom";\ncomponent main = PoseidonChain(%d);\n' "$1" > c.circom
    node "$bin/circom2" c.circom --r1cs --c -o . > compile.log
    make -s -C c_cpp > make.log 2>&1
  fi
  circom_key c.r1cs c.zkey
  [ -f in.json ] || echo '{"x": "1234567891011121314151617181920"}' > in.json
  cpp_witness
  key=c.zkey wtns=cpp.wtns r1cs=c.r1cs curve=bn254
}
make_email() { # MAX_HEADER_BYTES
  if [ ! -x c_cpp/c ]; then
    [ -d node_modules/@zk-email/circuits ] ||
      npm install --no-save --prefix . @zk-email/circuits@6.3.4 circomlib@2.0.5 > npm.log 2>&1
    printf '%s\n%s\n%s\n' 'pragma circom 2.1.6;' 'include "@zk-email/circuits/email-verifier.circom";' \
      "component main { public [pubkey] } = EmailVerifier($1, 64, 121, 17, 1, 0, 0, 0);" > c.circom
    node "$bin/circom2" c.circom -l node_modules --r1cs --c -o . > compile.log
    make -s -C c_cpp > make.log 2>&1
  fi
  circom_key c.r1cs c.zkey
  [ -f in.json ] || node "$root/bench/e2e/circom/email_inputs.js" "$1" > in.json
  cpp_witness
  key=c.zkey wtns=cpp.wtns r1cs=c.r1cs curve=bn254
}
make_chain() { # PRIME (bn128 | bls12381)
  if [ ! -f vk.json ]; then
    cp "$root/tests/interop/circom/chain.circom" chain_template.circom
    printf 'pragma circom 2.0.0;\ninclude "chain_template.circom";\ncomponent main = Chain(%d);\n' 65534 > chain.circom
    node "$bin/circom2" chain.circom --r1cs --wasm --prime "$1" -o . > /dev/null
  fi
  circom_key chain.r1cs chain.zkey
  if [ ! -f w.wtns ]; then
    echo '{"x": "1234567891011121314151617181920"}' > in.json
    node chain_js/generate_witness.js chain_js/chain.wasm in.json part.wtns
    mv part.wtns w.wtns
  fi
  key=chain.zkey wtns=w.wtns r1cs=chain.r1cs
  case $1 in bn128) curve=bn254 ;; *) curve=bls12-381 ;; esac
}
prepare() { # CIRCUIT, in its work directory
  case $1 in
  poseidon44k) make_poseidon 85 ;;
  email295k) make_email 192 ;;
  email742k)
    local w=$root/build/bench-witness-email-1024 f
    if [ ! -f vk.json ] && [ -f "$w/vk.json" ] && [ -f "$w/c.zkey" ] && [ -f "$w/cpp.wtns" ] && [ -f "$w/c.r1cs" ]; then
      for f in c.r1cs c.zkey cpp.wtns vk.json; do ln -sf "$w/$f" "$f"; done
    fi
    if [ -L vk.json ]; then key=c.zkey wtns=cpp.wtns r1cs=c.r1cs curve=bn254; else make_email 1024; fi ;;
  chain16-bn254) make_chain bn128 ;;
  chain16-bls12-381) make_chain bls12381 ;;
  esac
}

# measure NAME THREADS COMMAND...: RUNS runs under taskset on cores 0..THREADS-1; the best wall time
# in t[NAME], the largest peak RSS (MB) in m[NAME], every run's time in all_t[NAME]
declare -A t m all_t
measure() {
  local name=$1 threads=$2
  shift 2
  local cpus best='' peak=0 list='' i t0 s kb n=$runs
  [[ $name != snarkjs-* ]] || n=${SNARKJS_RUNS:-$runs}
  cpus=$(seq -s, 0 $((threads - 1)))
  for i in $(seq "$n"); do
    t0=$(now)
    if ! /usr/bin/time -f %M -o "$name.mem" taskset -c "$cpus" "$@" > "$name.log" 2>&1; then
      echo "$name failed (run $i): see $PWD/$name.log" >&2
      tail -5 "$name.log" >&2
      exit 1
    fi
    s=$(secs "$t0" "$(now)")
    kb=$(tail -1 "$name.mem")
    list="$list $s"
    if [ -z "$best" ] || less "$s" "$best"; then best=$s; fi
    [ "$kb" -le "$peak" ] || peak=$kb
  done
  t[$name]=$best m[$name]=$((peak / 1024)) all_t[$name]=${list# }
  printf '  %-24s %8.3f s %7d MB\n' "$name" "$best" "${m[$name]}"
}
verify() { # NAME PROOF PUBLIC: snarkjs verifies against vk.json, the public signals match cuzk's
  local out
  out=$(snarkjs groth16 verify vk.json "$3" "$2" 2>&1) || true
  grep -q 'OK!' <<< "$out" || { echo "$1: the proof does not verify: $out" >&2; exit 1; }
  cmp -s <(tr -d ' \n' < "$3") <(tr -d ' \n' < cuzk-1.public.json) ||
    { echo "$1: public signals differ from cuzk's" >&2; exit 1; }
}
ratio() { # A B: A / B, or — when either is missing
  if [ -z "$1" ] || [ -z "$2" ]; then echo "—"; else awk -v a="$1" -v b="$2" 'BEGIN { printf "%.2f", a / b }'; fi
}

rows=()
for c in $circuits; do
  work=$root/build/bench-cpu-$c
  mkdir -p "$work"
  cd "$work"
  echo "$c: artifacts in $work"
  prepare "$c"
  [ -z "${PREPARE_ONLY:-}" ] || continue
  constraints=$(r1cs_constraints "$r1cs")
  has_rs=
  [ -z "$rs" ] || [ "$curve" != bn254 ] || has_rs=1
  for n in 1 2; do
    echo " $n thread(s): $c ($constraints constraints, $curve), best of $runs"
    measure "cuzk-$n" "$n" "$cuzk" prove --backend cpu --zkey "$key" --wtns "$wtns" \
      --proof "cuzk-$n.proof.json" --public "cuzk-$n.public.json" --threads "$n"
    [ -z "$has_rs" ] || measure "rapidsnark-$n" "$n" "$rs" "$key" "$wtns" "rapidsnark-$n.proof.json" "rapidsnark-$n.public.json"
    measure "snarkjs-$n" "$n" node "$bin/snarkjs" groth16 prove "$key" "$wtns" "snarkjs-$n.proof.json" "snarkjs-$n.public.json"
  done
  for n in 1 2; do
    for p in cuzk rapidsnark snarkjs; do
      [ -n "${t[$p-$n]:-}" ] || continue
      verify "$p-$n" "$p-$n.proof.json" "$p-$n.public.json"
    done
  done
  echo " every proof verified by snarkjs"
  {
    echo "# $c: $constraints constraints, $curve; best of $runs; $(date -u +%FT%TZ); $(nproc) cores,$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)"
    echo "# circuit constraints threads prover best_s peak_mb run_times_s"
    for n in 1 2; do
      for p in cuzk rapidsnark snarkjs; do
        [ -n "${t[$p-$n]:-}" ] || continue
        echo "$c $constraints $n $p ${t[$p-$n]} ${m[$p-$n]} ${all_t[$p-$n]}"
      done
    done
  } > results.txt
  for n in 1 2; do
    tc=${t[cuzk-$n]} tr=${t[rapidsnark-$n]:-} ts=${t[snarkjs-$n]}
    rows+=("| $c | $constraints | $n | $tc | ${tr:-—} | $ts | $(ratio "$tc" "$tr") | $(ratio "$ts" "$tc") | ${m[cuzk-$n]} / ${m[rapidsnark-$n]:-—} / ${m[snarkjs-$n]} |")
    unset "t[rapidsnark-$n]" "m[rapidsnark-$n]"
  done
done
[ -z "${PREPARE_ONLY:-}" ] || exit 0

printf '\nbest of %d; %s cores, %s\n\n' "$runs" "$(nproc)" "$(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //')"
echo "| circuit | constraints | threads | cuzk s | rapidsnark s | snarkjs s | cuzk/rapidsnark | snarkjs/cuzk | peak MB cuzk / rapidsnark / snarkjs |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|---|"
printf '%s\n' "${rows[@]}"
