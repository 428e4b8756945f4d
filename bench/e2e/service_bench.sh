#!/usr/bin/env bash
# The service's throughput and overhead (docs/benchmarks.md, "Service"):
#   1. proofs/min on chain:size=16000 (domain 2^14) with 1 and 2 workers;
#   2. one job at a time at domain 2^16 (chain:size=65000): the service's
#      submit-to-proof time against standalone `cuzk prove` on the same key
#      and inputs (the key is read from disk by prove, from the SRS region by
#      the service; the same in-process synthesis and prover otherwise).
#   bench/e2e/service_bench.sh BUILD_DIR [JOBS] [REPEATS]
set -euo pipefail
b=$(cd "${1:?build dir}" && pwd) jobs=${2:-12} reps=${3:-3}
work=$(mktemp -d /tmp/cuzk-service-bench.XXXXXX)
pool=cuzk-bench-$$ ep="ipc://$work/cuzk.sock"
pids=()
stop() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
  "$b/shm/tool/cuzk-shm" destroy --force --name "$pool" >/dev/null 2>&1 || true
}
trap 'stop; rm -rf "$work"' EXIT
start() { # start SLOTS... WORKERS
  local n=${*: -1}
  local slots=("${@:1:$#-1}") args=()
  for s in "${slots[@]}"; do args+=(--slots "$s"); done
  "$b/shm/tool/cuzk-shm" create --name "$pool" "${args[@]}" > /dev/null
  "$b/gpu-server/cuzk-gpu-server" --pool "$pool" --endpoint "$ep" --backend cpu > "$work/server.log" 2>&1 &
  pids+=($!)
  for i in $(seq 1 "$n"); do
    "$b/synth-worker/cuzk-synth-worker" --pool "$pool" --endpoint "$ep.worker" --name "worker@$i" > "$work/w$i.log" 2>&1 &
    pids+=($!)
  done
}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"

for w in 1 2; do
  start 4x16384 "$w"
  "$b/bench/e2e/cuzk-bench" --endpoint "$ep" --keys "$work/keys" --jobs "$jobs" --mix "chain:size=16000" \
    --json "$work/tp$w.json" > "$work/tp$w.txt"
  stop
  echo "throughput, 2^14, $w worker(s): $(node -p "(j=>j.proofs_per_min.toFixed(1)+' proofs/min (prove '+j.phases.prove.mean_s.toFixed(3)+' s, synth '+j.phases.synth.mean_s.toFixed(3)+' s per job)')(require('$work/tp$w.json'))")"
done

spec=chain:size=65000
"$b/client/cuzk" setup --circuit "$spec" --zkey "$work/k16.zkey" --seed bench 2> /dev/null
"$b/client/cuzk" inputs --circuit "$spec" --seed 7 --out "$work/in16.json"
start 1x65536 1
# warm-up: the service loads the key into its SRS region once and keeps it
"$b/client/cuzk" submit --endpoint "$ep" --zkey "$work/k16.zkey" --circuit "$spec" --inputs "$work/in16.json" \
  --job-id overhead-warm-up --wait --proof "$work/sp.json" --public "$work/spub.json" > /dev/null 2>&1
standalone=() service=()
for r in $(seq 1 "$reps"); do
  t0=$(date +%s.%N)
  "$b/client/cuzk" prove --zkey "$work/k16.zkey" --circuit "$spec" --inputs "$work/in16.json" \
    --proof "$work/p.json" --public "$work/pub.json" 2> /dev/null
  t1=$(date +%s.%N)
  "$b/client/cuzk" submit --endpoint "$ep" --zkey "$work/k16.zkey" --circuit "$spec" --inputs "$work/in16.json" \
    --job-id "overhead-$r" --wait --proof "$work/sp.json" --public "$work/spub.json" > /dev/null 2>&1
  t2=$(date +%s.%N)
  standalone+=("$(echo "$t1 - $t0" | bc -l)") service+=("$(echo "$t2 - $t1" | bc -l)")
done
stop
med() { printf '%s\n' "$@" | sort -g | awk '{a[NR]=$1} END {print a[int((NR+1)/2)]}'; }
s=$(med "${standalone[@]}") v=$(med "${service[@]}")
echo "one job at 2^16 ($spec), median of $reps: cuzk prove $(printf %.3f "$s") s, service submit->proof $(printf %.3f "$v") s, overhead $(echo "($v / $s - 1) * 100" | bc -l | xargs printf %+.1f)%"
echo "(runs: prove ${standalone[*]}; service ${service[*]})"
