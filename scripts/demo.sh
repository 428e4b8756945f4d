#!/usr/bin/env bash
# Setup + build + run the demo.
#   scripts/demo.sh                 the default demo: the service (below)
#   scripts/demo.sh service         a pool (cuzk-shm), cuzk-gpu-server (CPU
#                                   backend when there is no GPU) and two
#                                   cuzk-synth-workers; a mixed workload from
#                                   cuzk-bench and one `cuzk submit --wait`,
#                                   every proof verified; a summary; clean stop
#   scripts/demo.sh all             service, bench, prove
#   scripts/demo.sh bench [ARGS]    micro-benchmarks; ARGS go to the benchmark
#                                   binary, e.g. --benchmark_filter=fp
#   scripts/demo.sh prove           the cuzk CLI on the native circuits: setup,
#                                   prove, verify with cuzk and with snarkjs
# CUZK_DEMO_MIN_TIME (seconds per benchmark repetition, default 0.2) trades
# precision for time; with the default the run takes about a minute.
# CUZK_DEMO_FILTER (default: everything but the NTT and MSM benchmarks, which
# take minutes at 2^20) selects benchmarks; a --benchmark_filter in ARGS wins.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

DEFAULT_DEMO=service

demo_bench() {
  if ! compgen -G "$CUZK_ROOT/bench/micro/*_bench.cpp" >/dev/null; then
    cuzk_die "no micro-benchmarks in bench/micro yet: nothing to demo"
  fi
  cuzk_configure
  cuzk_build cuzk-micro-bench

  local out="$CUZK_ROOT/$CUZK_BUILD_DIR/demo"
  mkdir -p "$out"
  cuzk_log "micro-benchmarks (3 repetitions each; a warning that" \
    "the library was built as DEBUG is about Debian's Google Benchmark, not cuzk)"
  # The console shows the median of each benchmark as it finishes (line
  # buffered through the filter); the JSON file keeps every repetition.
  stdbuf -oL "$CUZK_ROOT/$CUZK_BUILD_DIR/bench/micro/cuzk-micro-bench" \
    --benchmark_min_time="${CUZK_DEMO_MIN_TIME:-0.2}" \
    --benchmark_repetitions=3 --benchmark_display_aggregates_only=true \
    --benchmark_filter="${CUZK_DEMO_FILTER:--msm|ntt}" \
    --benchmark_out="$out/micro-bench.json" --benchmark_out_format=json "$@" |
    { grep --line-buffered -v -E '_(mean|stddev|cv) ' || true; }

  echo
  cuzk_log "summary (raw results: $CUZK_BUILD_DIR/demo/micro-bench.json)"
  node "$CUZK_ROOT/scripts/bench-summary.mjs" "$out/micro-bench.json"
}

demo_prove() {
  cuzk_configure
  cuzk_build cuzk
  local cuzk="$CUZK_ROOT/$CUZK_BUILD_DIR/client/cuzk" out="$CUZK_ROOT/$CUZK_BUILD_DIR/demo/prove"
  local snarkjs="$CUZK_ROOT/tests/interop/node_modules/.bin/snarkjs"
  mkdir -p "$out"
  cuzk_log "native circuits: cuzk setup, prove, verify (cuzk and snarkjs)"
  local rows=() spec name t0 t1 t2
  for spec in chain:size=16000 poseidon-merkle:depth=20 sha256:blocks=2; do
    name=${spec%%:*}
    t0=$(date +%s.%N)
    "$cuzk" setup --circuit "$spec" --zkey "$out/$name.zkey" --seed demo 2>/dev/null
    "$cuzk" export-vk --zkey "$out/$name.zkey" --vk "$out/$name.vk.json"
    "$cuzk" inputs --circuit "$spec" --seed "$RANDOM" --out "$out/$name.in.json"
    t1=$(date +%s.%N)
    "$cuzk" prove --zkey "$out/$name.zkey" --circuit "$spec" --inputs "$out/$name.in.json" \
      --proof "$out/$name.proof.json" --public "$out/$name.public.json" 2> "$out/$name.prove.log"
    t2=$(date +%s.%N)
    "$cuzk" verify --vk "$out/$name.vk.json" --public "$out/$name.public.json" --proof "$out/$name.proof.json" > /dev/null
    node "$snarkjs" groth16 verify "$out/$name.vk.json" "$out/$name.public.json" "$out/$name.proof.json" | grep -q OK
    rows+=("$(awk -v s="$spec" -v a="$t0" -v b="$t1" -v c="$t2" -v d="$(grep -o 'domain 2^[0-9]*' "$out/$name.prove.log" | head -1)" \
      'BEGIN { sub(/domain /, "", d); printf "%-26s %-11s %9.2f %9.2f   valid (cuzk, snarkjs)", s, d, b - a, c - b }')")
  done
  echo
  printf '%-26s %-11s %9s %9s   %s\n' circuit domain "setup s" "prove s" verify
  printf '%s\n' "${rows[@]}"
  cuzk_log "files: $CUZK_BUILD_DIR/demo/prove (keys, inputs, proofs; prove logs show the stage times)"
}

demo_service() {
  cuzk_configure
  cuzk_build cuzk cuzk-shm cuzk-gpu-server cuzk-synth-worker cuzk-bench
  local b="$CUZK_ROOT/$CUZK_BUILD_DIR" out="$CUZK_ROOT/$CUZK_BUILD_DIR/demo/service"
  local snarkjs="$CUZK_ROOT/tests/interop/node_modules/.bin/snarkjs"
  local pool="cuzk-demo-$$" ep="ipc://$out/cuzk.sock" wep="ipc://$out/worker.sock" backend=cpu
  cuzk_has_gpu && backend=auto
  mkdir -p "$out"
  rm -f "$out"/*.log
  local pids=()
  # shellcheck disable=SC2317  # runs from the trap
  stop_all() {
    local p
    for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
    for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
    "$b/shm/tool/cuzk-shm" destroy --force --name "$pool" >/dev/null 2>&1 || true
  }
  trap stop_all EXIT

  cuzk_log "pool: cuzk-shm create --name $pool --slots 4x4096 --slots 2x32768"
  "$b/shm/tool/cuzk-shm" create --name "$pool" --slots 4x4096 --slots 2x32768
  cuzk_log "cuzk-gpu-server --backend $backend and two cuzk-synth-workers (logs: $CUZK_BUILD_DIR/demo/service)"
  # Clients name keys and witnesses under $out only (--keys-dir); workers have their own socket.
  "$b/gpu-server/cuzk-gpu-server" --pool "$pool" --endpoint "$ep" --worker-endpoint "$wep" --backend "$backend" \
    --keys-dir "$out" > "$out/server.log" 2>&1 &
  pids+=($!)
  local i
  for i in 1 2; do
    "$b/synth-worker/cuzk-synth-worker" --pool "$pool" --endpoint "$wep" --name "worker@$i" > "$out/worker$i.log" 2>&1 &
    pids+=($!)
  done

  cuzk_log "one job through the CLI: cuzk submit --wait, then cuzk verify and snarkjs groth16 verify"
  local spec=chain:size=3000
  "$b/client/cuzk" setup --circuit "$spec" --zkey "$out/chain.zkey" --seed demo 2>/dev/null
  "$b/client/cuzk" export-vk --zkey "$out/chain.zkey" --vk "$out/chain.vk.json"
  "$b/client/cuzk" inputs --circuit "$spec" --seed "$RANDOM" --out "$out/chain.in.json"
  "$b/client/cuzk" submit --endpoint "$ep" --zkey "$out/chain.zkey" --circuit "$spec" --inputs "$out/chain.in.json" \
    --job-id "demo-cli-$$" --wait --proof "$out/chain.proof.json" --public "$out/chain.public.json"
  "$b/client/cuzk" verify --vk "$out/chain.vk.json" --public "$out/chain.public.json" --proof "$out/chain.proof.json"
  node "$snarkjs" groth16 verify "$out/chain.vk.json" "$out/chain.public.json" "$out/chain.proof.json" | tail -1

  cuzk_log "a mixed workload: 16 jobs, 4 circuits, mixed priorities (cuzk-bench verifies every proof)"
  "$b/bench/e2e/cuzk-bench" --endpoint "$ep" --keys "$out/keys" --jobs 16 --mixed-priorities \
    --mix "chain:size=1000;poseidon-merkle:depth=4;sha256:bytes=3;chain:size=4000" --json "$out/summary.json"
  echo
  cuzk_log "cuzk status"
  "$b/client/cuzk" status --endpoint "$ep" | head -n 12
  cuzk_log "cuzk status --capacity (what a scheduler in front of the node reads)"
  "$b/client/cuzk" status --endpoint "$ep" --capacity
  cuzk_log "stopping (SIGTERM): the server finishes its proof in flight, workers their synthesis"
  stop_all
  trap - EXIT
  cuzk_log "done; summary in $CUZK_BUILD_DIR/demo/service/summary.json"
}

demo="$DEFAULT_DEMO"
if [[ $# -gt 0 && "$1" != -* ]]; then demo="$1"; shift; fi

cuzk_setup
case "$demo" in
  bench) demo_bench "$@" ;;
  prove) demo_prove ;;
  service) demo_service ;;
  all) demo_service; demo_bench "$@"; demo_prove ;;
  *) cuzk_die "unknown demo '$demo' (known: service, all, bench, prove)" ;;
esac
