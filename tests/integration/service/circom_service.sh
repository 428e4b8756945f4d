#!/usr/bin/env bash
# circom jobs through the whole service: cuzk-shm, cuzk-gpu-server (CPU
# backend), two (then three) cuzk-synth-workers and the cuzk CLI
# (submit/wait/status), every proof checked by snarkjs; BN254 (circom's
# default prime, a bn128 ceremony's key) beside BLS12-381 in the same pool
# and server, native circuits on BN254 keys (cuzk setup --curve bn254); at
# the end 24 jobs mixing both curves, circom and native circuits and all
# priorities on three workers.
#   circom_service.sh CUZK CUZK_SHM GPU_SERVER SYNTH_WORKER FIXTURE_DIR WORKDIR
# FIXTURE_DIR is the interop fixture (compiled chain/muladd, pot.ptau); it is
# only read. Everything this test writes goes to WORKDIR.
set -euo pipefail
abs() { realpath -m -- "$1"; }
cuzk=$(abs "$1") cuzk_shm=$(abs "$2") server_bin=$(abs "$3") worker_bin=$(abs "$4") fixture=$(abs "$5") work=$(abs "$6")
here=$(cd "$(dirname "$0")/../../interop" && pwd)
bin=$here/node_modules/.bin
if [ ! -x "$bin/snarkjs" ]; then
  echo "snarkjs is missing from tests/interop/node_modules: run scripts/setup.sh" >&2
  exit 1
fi
snarkjs() { node "$bin/snarkjs" "$@"; }
seed=${CUZK_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "[cuzk] test seed $seed (replay with CUZK_TEST_SEED=$seed)"
rand_fr() { # a random decimal below 2^200 from the seed and a salt (as interop.sh)
  node -e 'let s=BigInt(process.argv[1])*1000003n+BigInt(process.argv[2]);let x=0n;for(let i=0;i<5;i++){s=(s*6364136223846793005n+1442695040888963407n)%(1n<<64n);x=(x<<40n)|(s>>24n);}console.log(x.toString())' "$seed" "$1"
}
. "$(dirname "$0")/service_lib.sh"
t_start=$(date +%s)

rm -rf "$work"
mkdir -p "$work"
cd "$work"
for f in chain.r1cs muladd.r1cs pot.ptau; do cp "$fixture/$f" .; done
cp -r "$fixture/chain_js" "$fixture/muladd_js" .
mkdir bn && cp -r "$fixture/bn254/muladd.r1cs" "$fixture/bn254/muladd_js" "$fixture/bn254/pot.ptau" bn/

pool=cuzk-circom-$$
endpoint=ipc://$work/cuzk.sock
worker_endpoint=ipc://$work/worker.sock

# ---- keys, witnesses, snarkjs's own proofs -------------------------------
step "snarkjs keys and witnesses"
for c in chain muladd; do
  snarkjs groth16 setup "$c.r1cs" pot.ptau "$c.zkey" > /dev/null
  snarkjs zkey export verificationkey "$c.zkey" "$c.vk.json" > /dev/null
done
# BN254: the key a circom user has, from a bn128 ceremony and a contribution
snarkjs groth16 setup bn/muladd.r1cs bn/pot.ptau bn/muladd.0.zkey > /dev/null
snarkjs zkey contribute bn/muladd.0.zkey bnmuladd.zkey --name=cuzk -e="cuzk service $seed" > /dev/null
snarkjs zkey export verificationkey bnmuladd.zkey bnmuladd.vk.json > /dev/null
cp bn/muladd.r1cs bnmuladd.r1cs
cp -r bn/muladd_js bnmuladd_js
salt=0
inputs() { # CIRCUIT: a random inputs JSON on stdout
  if [ "$1" = chain ]; then echo "{\"x\": \"$(rand_fr $((salt += 1)))\"}"
  else echo "{\"a\": \"$(rand_fr $((salt += 1)))\", \"b\": \"$(rand_fr $((salt += 1)))\", \"c\": \"$(rand_fr $((salt += 1)))\"}"; fi
}
# the jobs: name circuit
jobs="c1 chain
c2 chain
c3 chain
m1 muladd
m2 muladd
m3 muladd"
for j in $(awk '{ print $1 }' <<< "$jobs"); do
  c=$(awk -v j="$j" '$1 == j { print $2 }' <<< "$jobs")
  inputs "$c" > "$j.in.json"
  node "${c}_js/generate_witness.js" "${c}_js/${c#bn}.wasm" "$j.in.json" "$j.wtns"
  snarkjs groth16 prove "$c.zkey" "$j.wtns" "$j.snarkjs.proof.json" "$j.snarkjs.public.json"
done

# the slots must hold the largest key: domain 2^k >= constraints + public + 1, witness = wires
for c in chain muladd; do
  node -e '
    const fs=require("fs");const b=fs.readFileSync(process.argv[1]);
    let o=12;while(o<b.length){const t=b.readUInt32LE(o),n=Number(b.readBigUInt64LE(o+4));
      if(t===1){const w=b.readUInt32LE(o+12+36),pub=b.readUInt32LE(o+12+40)+b.readUInt32LE(o+12+44),m=b.readUInt32LE(o+12+60);
        let d=1;while(d<m+pub+1)d*=2;console.log(process.argv[2],"wires",w,"constraints",m,"domain",d);
        if(d>1024||w>1024){console.error("does not fit a 1024 slot");process.exit(1)}process.exit(0)}
      o+=12+n;}
    process.exit(1)' "$c.r1cs" "$c"
done

# ---- the service ---------------------------------------------------------
step "pool and processes"
"$cuzk_shm" create --name "$pool" --slots 4x1024 --jobs 64
"$server_bin" --pool "$pool" --endpoint "$endpoint" --worker-endpoint "$worker_endpoint" --backend cpu \
  --keys-dir "$work" --witness-dir "$work" > server.log 2>&1 &
server_pid=$!
for n in 1 2; do
  "$worker_bin" --pool "$pool" --endpoint "$worker_endpoint" --name "worker@$n" > "worker$n.log" 2>&1 &
  worker_pids+=($!)
done
for _ in $(seq 150); do # 30 s and more: three processes start on a machine that may be busy
  [ -S "$work/cuzk.sock" ] && "$cuzk" status --endpoint "$endpoint" --json > st.json 2> /dev/null &&
    [ "$(node -e 'console.log(JSON.parse(require("fs").readFileSync("st.json")).workers.length)')" = 2 ] && break
  kill -0 "$server_pid" 2> /dev/null || fail "the server exited"
  sleep 0.2
done
[ "$(node -e 'console.log(JSON.parse(require("fs").readFileSync("st.json")).workers.length)')" = 2 ] ||
  fail "the workers did not register"

circuit_of() { awk -v j="$1" '$1 == j { print $2 }' <<< "$jobs"; }
# check_proof JOB PROOF PUBLIC: snarkjs verifies it, same public signals as snarkjs's proof
check_proof() {
  local c
  c=$(circuit_of "$1")
  snarkjs groth16 verify "$c.vk.json" "$3" "$2" > verify.log
  grep -q OK verify.log || { cat verify.log; fail "snarkjs rejects $1's proof"; }
  node -e 'const a=require(process.argv[1]),b=require(process.argv[2]);if(JSON.stringify(a)!==JSON.stringify(b)){console.error("public signals differ",a,b);process.exit(1)}' \
    "$work/$3" "$work/$1.snarkjs.public.json" || fail "$1: public signals differ from snarkjs's"
  echo "$1: verified by snarkjs"
}

# ---- jobs submitted with --wait --------------------------------------------
step "submit --wait (with and without --r1cs, priorities)"
submit_wait() { # JOB [extra args]; the job id is job-JOB-SEED, or $JOB_ID
  local j=$1 c
  shift
  c=$(circuit_of "$j")
  "$cuzk" submit --endpoint "$endpoint" --zkey "$c.zkey" --wtns "$j.wtns" --job-id "${JOB_ID:-job-$j-$seed}" "$@" \
    --wait --proof "$j.proof.json" --public "$j.public.json"
  check_proof "$j" "$j.proof.json" "$j.public.json"
}
submit_wait c1 --r1cs chain.r1cs
submit_wait m1
submit_wait c2 --priority high
submit_wait m2 --r1cs muladd.r1cs --priority low
# concurrently: both workers busy, priorities mixed
submit_wait c3 --priority low > c3.out 2>&1 & p1=$!
submit_wait m3 --r1cs muladd.r1cs --priority high > m3.out 2>&1 & p2=$!
wait $p1 || { cat c3.out; fail "c3"; }
wait $p2 || { cat m3.out; fail "m3"; }
cat c3.out m3.out

# ---- submit, then wait ----------------------------------------------------
step "submit, then cuzk wait"
inputs muladd > w1.in.json
node muladd_js/generate_witness.js muladd_js/muladd.wasm w1.in.json w1.wtns
snarkjs groth16 prove muladd.zkey w1.wtns w1.snarkjs.proof.json w1.snarkjs.public.json
jobs="$jobs
w1 muladd"
out=$("$cuzk" submit --endpoint "$endpoint" --zkey muladd.zkey --wtns w1.wtns --r1cs muladd.r1cs --job-id "job-w1-$seed")
[ "$out" = "job-w1-$seed" ] || fail "submit printed '$out', expected the job id"
"$cuzk" wait --endpoint "$endpoint" --job-id "job-w1-$seed" --proof w1.proof.json --public w1.public.json
check_proof w1 w1.proof.json w1.public.json

# ---- idempotent resubmit ----------------------------------------------------
step "resubmitting a job id"
rc=0
out=$("$cuzk" submit --endpoint "$endpoint" --zkey chain.zkey --wtns c1.wtns --job-id "job-c1-$seed" 2> resubmit.err) || rc=$?
cat resubmit.err
[ $rc = 0 ] || fail "resubmit exited $rc"
[ "$out" = "job-c1-$seed" ] || fail "resubmit printed '$out'"
grep -q "already known (done)" resubmit.err || fail "resubmit did not report the known job"
# with --wait it returns the stored proof at once, the same proof
"$cuzk" submit --endpoint "$endpoint" --zkey chain.zkey --wtns c1.wtns --job-id "job-c1-$seed" \
  --wait --proof c1.again.proof.json --public c1.again.public.json
cmp c1.proof.json c1.again.proof.json || fail "a resubmitted job returned another proof"
"$cuzk" status --endpoint "$endpoint" --job-id "job-c1-$seed" --json > c1.status.json
node -e '
  const s=JSON.parse(require("fs").readFileSync("c1.status.json"));
  if(s.state!=="done"||s.partitions.length!==1||s.partitions[0].syntheses!==1){console.error("job status",s);process.exit(1)}' ||
  fail "the resubmitted job was synthesized again"
"$cuzk" status --endpoint "$endpoint" --job-id "job-c1-$seed"

# ---- a witness that does not satisfy the circuit ---------------------------
step "bad witness"
# one private value changed, the file still well-formed: muladd's last wire is t = a*b
node -e '
  const fs=require("fs");const b=fs.readFileSync(process.argv[1]);
  const i=b.length-32;b[i]^=1;fs.writeFileSync(process.argv[2],b);' m1.wtns bad.wtns
for mode in r1cs plain; do
  extra=()
  [ $mode = r1cs ] && extra=(--r1cs muladd.r1cs)
  rm -f bad.proof.json bad.public.json
  rc=0
  "$cuzk" submit --endpoint "$endpoint" --zkey muladd.zkey --wtns bad.wtns "${extra[@]}" --job-id "job-bad-$mode-$seed" \
    --wait --proof bad.proof.json --public bad.public.json 2> bad.err || rc=$?
  cat bad.err
  [ $rc = 1 ] || fail "a bad witness ($mode) exited $rc, expected 1"
  [ ! -e bad.proof.json ] && [ ! -e bad.public.json ] || fail "a bad witness ($mode) wrote a proof"
  if [ $mode = r1cs ]; then
    grep -q "does not satisfy constraint [0-9]" bad.err || fail "the error does not name the constraint"
  else
    grep -q "does not verify" bad.err || fail "the error does not say the proof does not verify"
  fi
  rc=0
  "$cuzk" status --endpoint "$endpoint" --job-id "job-bad-$mode-$seed" > /dev/null || rc=$?
  [ $rc = 1 ] || fail "status of a failed job exited $rc, expected 1"
done

# ---- a witness of another circuit -------------------------------------------
step "witness of another circuit"
rc=0
"$cuzk" submit --endpoint "$endpoint" --zkey muladd.zkey --wtns c1.wtns --job-id "job-wrong-$seed" \
  --wait --proof wrong.proof.json --public wrong.public.json 2> wrong.err || rc=$?
cat wrong.err
[ $rc = 2 ] || fail "a witness of another circuit exited $rc, expected 2 (bad input)"
grep -q "witness of another circuit" wrong.err || fail "the error does not say the witness is of another circuit"
[ ! -e wrong.proof.json ] || fail "a refused job wrote a proof"
rc=0
"$cuzk" status --endpoint "$endpoint" --job-id "job-wrong-$seed" 2> /dev/null || rc=$?
[ $rc = 2 ] || fail "a refused job is known to the server (status exited $rc)"

# ---- more public signals than a job's result holds (2048 B: 51 signals) -----
step "too many public signals"
printf 'pragma circom 2.0.0;\ntemplate Many(n) {\n  signal input x;\n  signal output y[n];\n  y[0] <== x * x;\n  for (var i = 1; i < n; i++) y[i] <== y[i-1] * x;\n}\ncomponent main = Many(52);\n' > many.circom
node "$bin/circom2" many.circom --r1cs --wasm --prime bls12381 -o . > /dev/null
snarkjs groth16 setup many.r1cs pot.ptau many.zkey > /dev/null
echo "{\"x\": \"$(rand_fr 100)\"}" > many.in.json
node many_js/generate_witness.js many_js/many.wasm many.in.json many.wtns
rc=0
"$cuzk" submit --endpoint "$endpoint" --zkey many.zkey --wtns many.wtns --job-id "job-many-$seed" \
  --wait --proof many.proof.json --public many.public.json --timeout 60 2> many.err || rc=$?
cat many.err
[ $rc = 2 ] || fail "a key with 52 public signals exited $rc, expected 2 (refused at submit)"
grep -q "52 public signals" many.err || fail "the error does not name the public signals"
# the server still serves
JOB_ID=job-c1-after-$seed submit_wait c1

# ---- status ----------------------------------------------------------------
step "status"
"$cuzk" status --endpoint "$endpoint" --json > status.json
node -e '
  const s=JSON.parse(require("fs").readFileSync("status.json"));const seed=process.argv[1];
  const ids=new Set(s.jobs.map(j=>j.job_id));
  for(const j of ["c1","c2","c3","m1","m2","m3","w1","c1-after"])
    if(!ids.has(`job-${j}-${seed}`)){console.error("missing job",j);process.exit(1)}
  const failed=s.jobs.filter(j=>j.state==="failed").map(j=>j.job_id).sort();
  if(JSON.stringify(failed)!==JSON.stringify([`job-bad-plain-${seed}`,`job-bad-r1cs-${seed}`])){console.error("failed jobs",failed);process.exit(1)}
  if(s.jobs.some(j=>j.state!=="done"&&j.state!=="failed")){console.error("unfinished jobs");process.exit(1)}
  if(s.workers.length!==2||s.slots.length!==4||s.slots.some(x=>x.state!=="free")){console.error("workers/slots",s.workers,s.slots);process.exit(1)}
  console.log(`status: ${s.jobs.length} jobs, ${s.slots.length} slots, ${s.workers.length} workers`)' "$seed" ||
  fail "cuzk status --json"
"$cuzk" status --endpoint "$endpoint" | tee status.txt
grep -q "^JOBS (10)" status.txt && grep -q "^SLOTS (4)" status.txt && grep -qE "^WORKERS \(2[;)]" status.txt ||
  fail "the status table"
grep -q "job-m2-$seed  *done  *low" status.txt || fail "the table does not show m2 done at low priority"
"$cuzk_shm" status --name "$pool" > /dev/null

# ---- BN254 beside BLS12-381 ------------------------------------------------
step "BN254 jobs (a bn128 ceremony's key) in the same pool and server"
jobs="$jobs
b1 bnmuladd
b2 bnmuladd"
for j in b1 b2; do
  inputs muladd > "$j.in.json"
  node bnmuladd_js/generate_witness.js bnmuladd_js/muladd.wasm "$j.in.json" "$j.wtns"
  snarkjs groth16 prove bnmuladd.zkey "$j.wtns" "$j.snarkjs.proof.json" "$j.snarkjs.public.json"
done
submit_wait b1 --r1cs bnmuladd.r1cs
submit_wait b2 --priority high
node -e 'if(JSON.parse(require("fs").readFileSync("b1.proof.json")).curve!=="bn128")process.exit(1)' ||
  fail "a BN254 proof does not say bn128"
"$cuzk" status --endpoint "$endpoint" --job-id "job-b1-$seed" --json > b1.status.json
node -e 'const s=JSON.parse(require("fs").readFileSync("b1.status.json"));if(s.curve!=="bn254"){console.error(s);process.exit(1)}' ||
  fail "status does not say the BN254 job's curve"
# the curves never mix: refused at submit with both named, nothing queued
for pair in "muladd.zkey b1.wtns" "bnmuladd.zkey m1.wtns" "bnmuladd.zkey b1.wtns --r1cs muladd.r1cs"; do
  set -- $pair
  rc=0
  "$cuzk" submit --endpoint "$endpoint" --zkey "$1" --wtns "$2" ${3:+$3 $4} --job-id "job-mixed-$seed" \
    --wait --proof mixed.proof.json --public mixed.public.json 2> mixed.err || rc=$?
  cat mixed.err
  [ $rc = 2 ] || fail "key $1 with $2 $3 $4 exited $rc, expected 2 (refused at submit)"
  grep -q "BN254" mixed.err && grep -q "BLS12-381" mixed.err || fail "the refusal does not name both curves"
  [ ! -e mixed.proof.json ] || fail "a refused job wrote a proof"
done

# ---- native circuits on BN254: the key's curve is the circuit's ------------
step "BN254 native jobs (cuzk setup --curve bn254) in the same pool and server"
for spec in chain:size=300 poseidon-merkle:depth=2; do
  n=${spec%%:*}
  "$cuzk" setup --circuit "$spec" --zkey "n-$n.zkey" --seed "$seed" 2> /dev/null
  "$cuzk" export-vk --zkey "n-$n.zkey" --vk "n-$n.vk.json"
  "$cuzk" setup --circuit "$spec" --curve bn254 --zkey "bn-$n.zkey" --seed "$seed" 2> /dev/null
  "$cuzk" export-vk --zkey "bn-$n.zkey" --vk "bn-$n.vk.json"
  grep -q '"curve": "bn128"' "bn-$n.vk.json" || fail "the BN254 key of $spec does not say bn128"
  "$cuzk" inputs --circuit "$spec" --curve bn254 --seed "$seed" --out "bn-$n.in.json"
  "$cuzk" submit --endpoint "$endpoint" --zkey "bn-$n.zkey" --circuit "$spec" --inputs "bn-$n.in.json" \
    --job-id "job-bn-$n-$seed" --wait --proof "bn-$n.proof.json" --public "bn-$n.public.json" ||
    fail "the BN254 $spec job did not prove"
  snarkjs groth16 verify "bn-$n.vk.json" "bn-$n.public.json" "bn-$n.proof.json" > verify.log
  grep -q OK verify.log || { cat verify.log; fail "snarkjs rejects the BN254 $spec proof"; }
done
"$cuzk" status --endpoint "$endpoint" --job-id "job-bn-chain-$seed" --json > bn.status.json
node -e 'const s=JSON.parse(require("fs").readFileSync("bn.status.json"));if(s.curve!=="bn254"){console.error(s);process.exit(1)}' ||
  fail "status does not say the BN254 native job's curve"

# ---- 24 mixed jobs: both curves, circom and native, all priorities, three workers
step "24 mixed jobs on three workers"
"$worker_bin" --pool "$pool" --endpoint "$worker_endpoint" --name worker@3 > worker3.log 2>&1 &
worker_pids+=($!)
prios=(high normal low)
kind_of() {
  case $(($1 % 6)) in 0) echo chain ;; 1) echo muladd ;; 2) echo chain:size=300 ;; 3) echo poseidon-merkle:depth=2 ;;
    4) echo bnmuladd ;; 5) echo bn:poseidon-merkle:depth=2 ;; esac
}
circom_kind() { [ "$1" = chain ] || [ "$1" = muladd ] || [ "$1" = bnmuladd ]; }
# a native kind's key: n-NAME.zkey, or bn-NAME.zkey for bn:SPEC (BN254)
native_key() { local spec=${1#bn:}; if [ "$spec" != "$1" ]; then echo "bn-${spec%%:*}"; else echo "n-${spec%%:*}"; fi; }
native_curve() { if [ "${1#bn:}" != "$1" ]; then echo bn254; else echo bls12-381; fi; }
for i in $(seq 0 23); do
  p=${prios[$(((seed + i) % 3))]} k=$(kind_of "$i")
  if circom_kind "$k"; then
    inputs "${k#bn}" > "x$i.in.json"
    node "${k}_js/generate_witness.js" "${k}_js/${k#bn}.wasm" "x$i.in.json" "x$i.wtns"
    extra=()
    [ $((i % 8)) -lt 4 ] && extra=(--r1cs "$k.r1cs")
    "$cuzk" submit --endpoint "$endpoint" --zkey "$k.zkey" --wtns "x$i.wtns" "${extra[@]}" --priority "$p" \
      --job-id "job-x$i-$seed" > /dev/null
  else
    "$cuzk" inputs --circuit "${k#bn:}" --curve "$(native_curve "$k")" --seed $((seed + i)) --out "x$i.in.json"
    "$cuzk" submit --endpoint "$endpoint" --zkey "$(native_key "$k").zkey" --circuit "${k#bn:}" --inputs "x$i.in.json" \
      --priority "$p" --job-id "job-x$i-$seed" > /dev/null
  fi
done
for i in $(seq 0 23); do
  k=$(kind_of "$i")
  "$cuzk" wait --endpoint "$endpoint" --job-id "job-x$i-$seed" --proof "x$i.proof.json" --public "x$i.public.json" \
    --timeout 120 2> /dev/null || fail "job x$i ($k) did not finish"
  if circom_kind "$k"; then vk=$k.vk.json; else vk=$(native_key "$k").vk.json; fi
  if ! circom_kind "$k" || [ "$k" = bnmuladd ]; then
    "$cuzk" verify --vk "$vk" --public "x$i.public.json" --proof "x$i.proof.json" > /dev/null ||
      fail "cuzk verify rejects x$i ($k)"
  fi
  snarkjs groth16 verify "$vk" "x$i.public.json" "x$i.proof.json" > verify.log
  grep -q OK verify.log || { cat verify.log; fail "snarkjs rejects x$i ($k)"; }
done
echo "24 mixed jobs (BLS12-381 and BN254, circom and native on both; circom: snarkjs verify; native and BN254: cuzk verify and snarkjs verify) proven by 3 workers"

# ---- SIGTERM ---------------------------------------------------------------
step "SIGTERM"
stopped() { # PID NAME: exits 0 within 30 s of SIGTERM
  local t=0 rc=0
  while kill -0 "$1" 2> /dev/null && [ $t -lt 300 ]; do sleep 0.1; t=$((t + 1)); done
  kill -0 "$1" 2> /dev/null && fail "$2 still runs 30 s after SIGTERM"
  wait "$1" || rc=$?
  [ $rc = 0 ] || fail "$2 exited $rc after SIGTERM"
  echo "$2 stopped (exit 0)"
}
kill -TERM "${worker_pids[@]}"
for n in 1 2 3; do stopped "${worker_pids[$((n - 1))]}" "worker@$n"; done
worker_pids=()
kill -TERM "$server_pid"
stopped "$server_pid" server
server_pid=""
echo "circom through the service: OK in $(($(date +%s) - t_start)) s"
