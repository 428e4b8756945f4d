#!/usr/bin/env bash
# The critical class under load (issue 23, docs/benchmarks.md "Critical
# jobs"): a server and synth-workers kept saturated with SPEC jobs of normal
# and low priority (cuzk-bench --duration, IN_FLIGHT outstanding), while
# CRITICAL jobs of CRITICAL_SPEC are submitted one at a time; their
# Submit-to-proof latency (p50/p99) against the same jobs on the idle service,
# and the target: p99 under load <= 1.5 x p99 alone + the longest phase of a
# background proof.
#   bench/e2e/critical_bench.sh BIN OUT
# BIN holds cuzk, cuzk-shm, cuzk-gpu-server, cuzk-synth-worker and cuzk-bench
# (scripts/gpu-pack.sh's .gpurun/bin, or a directory of links into a build).
# Knobs: BACKEND (cuda; cpu here), SPEC (chain:size=1000000, domain 2^20),
# CRITICAL_SPEC (chain:size=1000), CRITICAL (50), WORKERS (cores - 2),
# IN_FLIGHT (2 x workers), EXTRA (more cuzk-gpu-server flags, e.g.
# "--critical-reserve-provers 1").
set -uo pipefail
bin=$(cd "${1:?bin dir}" && pwd) out=${2:?out dir}
mkdir -p "$out"
backend=${BACKEND:-cuda} spec=${SPEC:-chain:size=1000000} cspec=${CRITICAL_SPEC:-chain:size=1000}
n=${CRITICAL:-50} workers=${WORKERS:-$(($(nproc) - 2))}
((workers < 1)) && workers=1
inflight=${IN_FLIGHT:-$((2 * workers))}
work=$(mktemp -d /tmp/cuzk-critical-bench.XXXXXX)
pool=cuzk-critical-bench-$$ ep="ipc://$work/cuzk.sock" keys="$work/keys"
pids=()
stop() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  "$bin/cuzk-shm" destroy --force --name "$pool" >/dev/null 2>&1 || true
}
trap 'stop; rm -rf "$work"' EXIT
size=${spec##*=}
dom=$(python3 -c "print(1 << (($size + 2) - 1).bit_length())")
# keys first, named as cuzk-bench names its dev keys, made by cuzk setup (on the GPU where there is one), so
# that the server loads them before READY
mkdir -p "$keys"
for c in "$spec" "$cspec"; do
  k=${c//:/_}; k=${k//=/_}; k=${k//,/_}
  "$bin/cuzk" setup --circuit "$c" --zkey "$keys/$k.zkey" >>"$out/keys.log" 2>&1 ||
    { echo "cuzk setup $c failed:" >&2; tail -5 "$out/keys.log" >&2; exit 1; }
done
"$bin/cuzk-shm" create --name "$pool" --slots "$((inflight + 2))x$dom" >"$out/shm.log" 2>&1 || { cat "$out/shm.log" >&2; exit 1; }
key_args=()
for k in "$keys"/*.zkey; do key_args+=(--key "$k"); done
# shellcheck disable=SC2086
"$bin/cuzk-gpu-server" --pool "$pool" --endpoint "$ep" --backend "$backend" --keys-dir "$keys" "${key_args[@]}" \
  ${EXTRA:-} >"$out/server.log" 2>&1 &
pids+=($!)
for _ in $(seq 600); do grep -q 'serving pool' "$out/server.log" && break; sleep 0.5; done
grep -q 'serving pool' "$out/server.log" || { echo "the server did not start:" >&2; tail -20 "$out/server.log" >&2; exit 1; }
for i in $(seq 1 "$workers"); do
  "$bin/cuzk-synth-worker" --pool "$pool" --endpoint "$ep.worker" --name "worker@$i" >"$out/w$i.log" 2>&1 &
  pids+=($!)
done
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs); backend $backend; $workers workers; $inflight in flight of $spec (2^$(python3 -c "print(($dom).bit_length() - 1)")); ${EXTRA:-no reserve}"
"$bin/cuzk-bench" --endpoint "$ep" --keys "$keys" --mix "$spec" --in-flight "$inflight" --critical "$n" \
  --critical-mix "$cspec" --json "$out/critical.json" >"$out/critical.txt" 2>"$out/bench.err"
rc=$?
grep -E '^(jobs|critical)' "$out/critical.txt"
grep -c 'preempted for a critical one' "$out/server.log" | sed 's/^/proofs preempted: /'
grep -c 'synthesis aborted for a critical job' "$out/server.log" | sed 's/^/syntheses aborted: /'
exit $rc
