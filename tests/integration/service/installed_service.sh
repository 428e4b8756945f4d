#!/usr/bin/env bash
# Circom circuits installed by name, proven from their input JSON through
# the whole service (issue 39): cuzk circuit install (C++ and wasm
# generators, both primes), cuzk submit --circuit NAME --inputs, the witness
# computed by a synthesis worker in its confined generator, every proof
# checked by snarkjs; a failing assert and a generator that sleeps past the
# deadline fail their jobs by name while the workers live on and prove the
# next; kill -9 of a worker mid-generation requeues the partition, leaks no
# generator, and the job is proven.
#   installed_service.sh CUZK CUZK_SHM GPU_SERVER SYNTH_WORKER FIXTURE_DIR WORKDIR
# FIXTURE_DIR is the witness fixture (tests/interop/witness/witness.sh): only read.
set -euo pipefail
abs() { realpath -m -- "$1"; }
cuzk=$(abs "$1") cuzk_shm=$(abs "$2") server_bin=$(abs "$3") worker_bin=$(abs "$4") fixture=$(abs "$5") work=$(abs "$6")
here=$(cd "$(dirname "$0")/../../interop" && pwd)
bin=$here/node_modules/.bin
snarkjs() { node "$bin/snarkjs" "$@"; }
seed=${CUZK_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "[cuzk] test seed $seed (replay with CUZK_TEST_SEED=$seed)"
inputs() { # SALT [bad]: four values below a bound, or one past it
  node -e 'let s=BigInt(process.argv[1])*7919n+BigInt(process.argv[2]);const r=()=>{s=(s*6364136223846793005n+1442695040888963407n)%(1n<<64n);return s>>33n};
    const bound=1000000n+r()%1000000000n;const x=[0,1,2,3].map(()=>(r()%bound).toString());
    if(process.argv[3]==="bad")x[1]=(bound+1n).toString();
    console.log(JSON.stringify({x,bound:bound.toString()}))' "$seed" "$1" "${2:-good}"
}
. "$(dirname "$0")/service_lib.sh"

rm -rf "$work"
mkdir -p "$work"
cd "$work"
pool=cuzk-installed-$$
endpoint=ipc://$work/cuzk.sock
worker_endpoint=ipc://$work/worker.sock

step "pool and circuits"
"$cuzk_shm" create --name "$pool" --slots 4x2048 --jobs 64 > shm.log
"$cuzk" circuit install b-cpp --pool "$pool" --zkey "$fixture/bn128/bounded.zkey" --cpp "$fixture/bn128/bounded_cpp/bounded"
"$cuzk" circuit install b-wasm --pool "$pool" --zkey "$fixture/bn128/bounded.zkey" \
  --wasm "$fixture/bn128/bounded_js/bounded.wasm" --sym "$fixture/bn128/bounded.sym"
"$cuzk" circuit install b-bls --pool "$pool" --zkey "$fixture/bls12381/bounded.zkey" \
  --cpp "$fixture/bls12381/bounded_cpp/bounded"
# generators of the operator's that misbehave: one sleeps (exec: it may not fork), one is slow, then the real one
printf '#!/bin/bash\nexec sleep 3600\n' > sleeper
printf '#!/bin/bash\nSECONDS=0\nwhile ((SECONDS < 3)); do :; done\nexec %s "$@"\n' "$fixture/bn128/bounded_cpp/bounded" > slow
# and hostile ones: one forks, one opens a socket, one writes without end, one allocates without end
printf '#!/bin/bash\n/bin/true\nexec %s "$@"\n' "$fixture/bn128/bounded_cpp/bounded" > forker
printf '#!/bin/bash\nexec 3<>/dev/tcp/127.0.0.1/5432 && echo connected > witness.wtns\n' > socket
printf '#!/bin/bash\nexec dd if=/dev/zero of=witness.wtns bs=1M count=10240 status=none\n' > writer
printf '#!/bin/bash\nexec python3 -c "x = bytearray(4 << 30)"\n' > eater
hostile="forker socket writer eater"
for g in sleeper slow $hostile; do
  chmod +x $g
  : > $g.dat
  "$cuzk" circuit install $g --pool "$pool" --zkey "$fixture/bn128/bounded.zkey" --cpp "$work/$g"
done
"$cuzk" circuits --pool "$pool" | tee circuits.txt
[ "$(grep -c ' key ' circuits.txt)" = 9 ] || fail "cuzk circuits does not list the nine circuits"

step "server (ipc, and TCP with CURVE for one authorized client) and two workers (synthesis deadline 8 s)"
mkdir -p clients
"$cuzk" keygen --out server.key > /dev/null
"$cuzk" keygen --out alice.key > /dev/null
"$cuzk" keygen --out mallory.key > /dev/null
cp alice.key.pub clients/alice.pub
"$server_bin" --pool "$pool" --endpoint "$endpoint" --worker-endpoint "$worker_endpoint" --backend cpu \
  --metrics 127.0.0.1:0 --network-endpoint 'tcp://127.0.0.1:*' --server-key server.key --clients-dir clients \
  > server.log 2>&1 &
server_pid=$!
start_worker() {
  "$worker_bin" --pool "$pool" --endpoint "$worker_endpoint" --name "worker@$1" --synth-deadline 8 \
    --generator-memory 1 --generator-output 0.01 \
    >> "worker$1.log" 2>&1 &
  worker_pids+=($!)
}
workers() { "$cuzk" status --endpoint "$endpoint" --json > st.json 2> /dev/null &&
  node -e 'console.log(JSON.parse(require("fs").readFileSync("st.json")).workers.filter(w=>w.state!=="hung").length)'; }
start_worker 1
start_worker 2
for _ in $(seq 150); do
  [ -S "$work/cuzk.sock" ] && [ "$(workers || echo 0)" = 2 ] && break
  kill -0 "$server_pid" 2> /dev/null || fail "the server exited"
  sleep 0.2
done
[ "$(workers)" = 2 ] || fail "the workers did not register"

step "the capacity reply lists the installed circuits (what a scheduler routes by)"
"$cuzk" status --endpoint "$endpoint" --capacity --json > cap.json
node -e 'const c=JSON.parse(require("fs").readFileSync("cap.json")).circuits;
  const n=c.map(x=>x.name+":"+x.generator).sort().join(",");
  const want="b-bls:cpp,b-cpp:cpp,b-wasm:wasm,eater:cpp,forker:cpp,sleeper:cpp,slow:cpp,socket:cpp,writer:cpp";
  if(n!==want){console.error("circuits:",n);process.exit(1)}' ||
  fail "the capacity reply does not list the nine circuits"
"$cuzk" status --endpoint "$endpoint" --capacity | grep -q "^  b-wasm  *wasm" || fail "cuzk status --capacity does not show them"

prove() { # NAME CIRCUIT PRIME SALT: submitted with its inputs, waited for, verified by snarkjs
  inputs "$4" > "$1.in.json"
  "$cuzk" submit --endpoint "$endpoint" --job-id "$1" --circuit "$2" --inputs "$1.in.json" --wait \
    --proof "$1.proof.json" --public "$1.public.json" --vk "$fixture/$3/vk.json" 2> "$1.err" ||
    { cat "$1.err"; fail "job $1 ($2) was not proven"; }
  snarkjs groth16 verify "$fixture/$3/vk.json" "$1.public.json" "$1.proof.json" | grep -q OK ||
    fail "snarkjs rejects job $1's proof"
  echo "job $1 ($2): proven from its inputs, verified by snarkjs"
}

step "inputs to proofs: the C++ and wasm generators, both primes"
prove j1 b-cpp bn128 1
prove j2 b-wasm bn128 2
prove j3 b-bls bls12381 3

step "seen: each proof reply's phases with the witness generation, the timeline's witness spans, the metrics"
for j in j1 j2 j3; do
  grep -Eq "partition 0: synthesis [0-9.]+ s \(witness [0-9.]+ s\), waited [0-9.]+ s, proved [0-9.]+ s" "$j.err" ||
    { cat "$j.err"; fail "job $j's reply does not carry its phases with the witness generation"; }
done
grep -h "partition 0:" j1.err j2.err
port=$(sed -n 's/.*metrics on 127\.0\.0\.1:\([0-9]*\).*/\1/p' server.log | head -1)
[ -n "$port" ] || fail "no metrics port in the server's log"
curl -sf "http://127.0.0.1:$port/metrics" > metrics.txt || fail "no /metrics"
for c in b-cpp b-wasm b-bls; do
  grep -q "^cuzk_witness_seconds_count{circuit=\"$c\"} 1$" metrics.txt ||
    { grep cuzk_witness metrics.txt; fail "cuzk_witness_seconds does not count circuit $c's generation"; }
done
grep -q '^cuzk_phase_duration_seconds_count{curve="bn254",phase="witness"} 2$' metrics.txt ||
  fail "the witness phase of cuzk_phase_duration_seconds is not counted"
curl -sf "http://127.0.0.1:$port/trace.json" > trace.json || fail "no /trace.json"
node -e 'const t=JSON.parse(require("fs").readFileSync("trace.json"));const ev=t.traceEvents||t;
  const w=ev.filter(e=>e.name==="witness"), s=ev.filter(e=>e.name==="synthesis");
  if(w.length<3)throw new Error("witness spans: "+w.length);
  for(const x of w){const y=s.find(e=>e.args.job===x.args.job&&e.tid===x.tid&&e.pid===x.pid);
    if(!y||x.ts<y.ts||x.ts+x.dur>y.ts+y.dur+0.001)throw new Error("a witness span outside its synthesis")}
  console.log(w.length+" witness spans, each inside its synthesis")' || fail "the timeline's witness spans"

step "over the network: an authorized CURVE client proves from inputs; a key the operator never authorized is refused"
tcp=$(sed -n 's/.*network clients on \(tcp:[^ ]*\).*/\1/p' server.log | head -1)
[ -n "$tcp" ] || fail "no network endpoint in the server's log"
inputs 9 > net.in.json
"$cuzk" submit --endpoint "$tcp" --curve-key alice.key --server-public server.key.pub --job-id net1 --circuit b-wasm \
  --inputs net.in.json --wait --proof net.proof.json --public net.public.json --vk "$fixture/bn128/vk.json" 2> net.err ||
  { cat net.err; fail "the network client's job was not proven"; }
snarkjs groth16 verify "$fixture/bn128/vk.json" net.public.json net.proof.json | grep -q OK ||
  fail "snarkjs rejects the network client's proof"
rc=0
timeout 30 "$cuzk" submit --endpoint "$tcp" --curve-key mallory.key --server-public server.key.pub --job-id net2 \
  --circuit b-wasm --inputs net.in.json --wait --proof never.json --public never.json 2> mallory.err || rc=$?
cat mallory.err
[ $rc != 0 ] && [ ! -e never.json ] || fail "a key the operator never authorized proved a circuit"
echo "network: alice proven from inputs over CURVE; mallory refused (rc $rc)"

step "a failing assert fails its job with circom's message; the workers prove the next"
inputs 4 bad > bad.in.json
rc=0
"$cuzk" submit --endpoint "$endpoint" --job-id bad --circuit b-cpp --inputs bad.in.json --wait \
  --proof bad.proof.json --public bad.public.json 2> bad.err || rc=$?
cat bad.err
[ $rc != 0 ] && [ ! -e bad.proof.json ] || fail "a failing assert gave a proof (rc $rc)"
grep -q "Failed assert in template/function Bounded line 15" bad.err || fail "the job's error is not circom's"
prove j4 b-wasm bn128 5
[ "$(workers)" = 2 ] || fail "a worker went with the failing assert"

step "a generator past the deadline fails its job saying so; the workers live on"
inputs 6 > sleep.in.json
rc=0
"$cuzk" submit --endpoint "$endpoint" --job-id sleepy --circuit sleeper --inputs sleep.in.json --wait \
  --proof s.proof.json --public s.public.json 2> sleepy.err &
sleepy=$!
# While it runs: a second uid (nobody) reads neither its inputs nor the circuits, and installs nothing.
shm_dir=${CUZK_SHM_DIR:-/dev/shm/cuzk}
if [ "$(id -u)" = 0 ]; then
  as_nobody() { setpriv --reuid=nobody --regid=nogroup --clear-groups "$@"; }
  for _ in $(seq 50); do
    in_file=$(find "$shm_dir" -maxdepth 1 -name "$pool.inputs.*" | head -1)
    [ -n "$in_file" ] && break
    sleep 0.1
  done
  [ -n "$in_file" ] || fail "the sleeping job's inputs file is not there"
  as_nobody cat "$in_file" > /dev/null 2>&1 && fail "another uid read a job's inputs"
  as_nobody cat "$shm_dir/$pool.circuit.b-cpp" > /dev/null 2>&1 && fail "another uid read an installed circuit"
  as_nobody "$cuzk" circuit install evil --pool "$pool" --zkey "$fixture/bn128/bounded.zkey" \
    --wasm "$fixture/bn128/bounded_js/bounded.wasm" > nobody.out 2>&1 && fail "another uid installed a circuit"
  [ ! -e "$shm_dir/$pool.circuit.evil" ] || fail "another uid's circuit file exists"
  grep -q "may not use" nobody.out || fail "another uid's install was refused for another reason than the pool's directory"
  echo "nobody: the inputs and circuits are unreadable and nothing was installed ($(tail -1 nobody.out))"
fi
wait "$sleepy" || rc=$?
cat sleepy.err
[ $rc != 0 ] && grep -q "was stopped at the deadline" sleepy.err || fail "the sleeping generator was not stopped"
prove j5 b-cpp bn128 7
[ "$(workers)" = 2 ] || fail "a worker went with the sleeping generator"
grep -q "syntheses\|ended its worker" server.log && fail "the generator's failure counted as a worker's crash" || true

step "hostile generators and inputs, each bounded with its error, while another client keeps proving"
(for i in 1 2 3 4 5 6; do prove "steady$i" b-cpp bn128 "$((100 + i))" || exit 1; done) > steady.log 2>&1 &
steady=$!
for h in "forker:fork: Operation not permitted" "socket:socket: Permission denied" \
  "writer:was stopped at the output size limit (10737418 bytes)" "eater:ran out of memory (its limit: 1024 MiB)"; do
  rc=0
  "$cuzk" submit --endpoint "$endpoint" --job-id "hostile-${h%%:*}" --circuit "${h%%:*}" --inputs j1.in.json --wait \
    --proof h.proof.json --public h.public.json 2> hostile.err || rc=$?
  cat hostile.err
  [ $rc != 0 ] && grep -qF "${h#*:}" hostile.err || fail "the ${h%%:*} generator was not stopped with its error"
done
node -e 'process.stdout.write(JSON.stringify({x: "1".repeat(100 << 20)}))' > huge.in.json  # 100 MB
node -e 'let v="1";for(let i=0;i<10000;i++)v="["+v+"]";process.stdout.write("{\"x\":"+v+"}")' > deep.in.json
for h in "huge:bytes, over the limit of 196608" "deep:the inputs nest deeper than 16 arrays"; do
  rc=0
  "$cuzk" submit --endpoint "$endpoint" --job-id "hostile-${h%%:*}" --circuit b-cpp --inputs "${h%%:*}.in.json" \
    2> hostile.err || rc=$?
  cat hostile.err
  [ $rc != 0 ] && grep -qF "${h#*:}" hostile.err || fail "the ${h%%:*} inputs were not refused with their error"
done
wait "$steady" || { cat steady.log; fail "the other client's proofs failed beside the hostile ones"; }
cat steady.log
[ "$(workers)" = 2 ] || fail "a worker went with a hostile generator"
grep -q "syntheses\|ended its worker" server.log && fail "a hostile generator counted as a worker's crash" || true

step "an unknown circuit is refused at once"
rc=0
"$cuzk" submit --endpoint "$endpoint" --job-id nope --circuit no-such --inputs j1.in.json 2> nope.err || rc=$?
cat nope.err
[ $rc != 0 ] && grep -q "holds no circuit no-such" nope.err || fail "an unknown circuit was not refused"

step "inputs that do not match the circuit's input signals are refused at submit, naming them"
echo '{"x": ["1", "2", "3", "4"], "bound": "9", "y": "1"}' > extra.in.json
echo '{"x": ["1", "2", "3"], "bound": "9"}' > short.in.json
for bad in "b-wasm:extra:the circuit has no input signal y (its inputs: bound, x)" \
  "b-cpp:short:input signal x takes 4 values, not 3"; do
  IFS=: read -r circuit file message <<< "$bad"
  rc=0
  "$cuzk" submit --endpoint "$endpoint" --job-id "refused-$file" --circuit "$circuit" --inputs "$file.in.json" \
    2> refused.err || rc=$?
  cat refused.err
  [ $rc != 0 ] && grep -qF "$message" refused.err || fail "inputs not matching $circuit were not refused at submit"
done

step "kill -9 of the worker mid-generation: requeued, no generator left, proven"
inputs 8 > slow.in.json
"$cuzk" submit --endpoint "$endpoint" --job-id slow --circuit slow --inputs slow.in.json > /dev/null 2> slow.err
victim=""
for _ in $(seq 100); do
  for i in 0 1; do
    gen=$(pgrep -f "^/bin/bash .*/slow input.json" | head -1 || true)
    [ -n "$gen" ] && victim=$(ps -o ppid= -p "$gen" | tr -d ' ') && break 2
  done
  sleep 0.1
done
[ -n "$victim" ] || fail "no worker ran the slow generator"
kill -9 "$victim"
for _ in $(seq 50); do # its generator dies with it (PR_SET_PDEATHSIG): waited for, at most 5 s
  kill -0 "$gen" 2> /dev/null || break
  sleep 0.1
done
kill -0 "$gen" 2> /dev/null && fail "the killed worker's generator lives on"
start_worker 3
"$cuzk" wait --endpoint "$endpoint" --job-id slow --proof slow.proof.json --public slow.public.json --timeout 120 \
  2> slow-wait.err || { cat slow-wait.err; fail "the job of the killed worker was not proven"; }
snarkjs groth16 verify "$fixture/bn128/vk.json" slow.public.json slow.proof.json | grep -q OK ||
  fail "snarkjs rejects the requeued job's proof"
grep -q "died" server.log || fail "the server did not see the worker die"
echo "killed worker $victim mid-generation: requeued and proven"
step "every ended job's inputs file is gone (the server's next tick removes it)"
for _ in $(seq 50); do
  left=$(find "${CUZK_SHM_DIR:-/dev/shm/cuzk}" -maxdepth 1 -name "$pool.inputs.*" | wc -l)
  [ "$left" = 0 ] && break
  sleep 0.1
done
[ "$left" = 0 ] || fail "$left inputs file(s) outlive their jobs"
echo "PASS"
