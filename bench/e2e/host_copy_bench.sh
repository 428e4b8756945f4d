#!/usr/bin/env bash
# Host memory by host_copy policy (issue 24 item 5, docs/benchmarks.md): a key
# set up to a .zkey file on disk (SPEC, default a chain at 2^26, ~45 GB), a
# pool of one slot of its domain, one server (one proving worker) and one
# synthesis worker; for each policy in PHASES: the server started with
# --key FILE --host-copy POLICY (time to READY), a job proven, the server
# killed with kill -9 and started again (time to READY), a new job proven
# (restart -> first proof). bench/e2e/mem_sampler.sh samples the host's memory
# in use (MemTotal - MemAvailable), /dev/shm and the RSS/PSS of the server and
# the worker through the run; a table of the peaks per phase is printed last.
#   bench/e2e/host_copy_bench.sh BIN OUT
# Knobs: SPEC (chain:size=67108000), PHASES ("drop keep"), RESTART (the policies that get the kill -9
# and the second job; default all of PHASES), BACKEND (cuda; cpu for a test run),
# KEYFILE (/var/tmp/cuzk-hcbench.zkey; an existing file is reused, so a second
# device call can run the other policy), POOL (cuzk-hcbench), KEEP_KEY=1 (leave the file).
set -uo pipefail
bin=$(cd "${1:?bin dir}" && pwd) out=${2:?out dir}
mkdir -p "$out"
out=$(cd "$out" && pwd)
rm -f "$out"/ready.* "$out"/job.*
[[ -d $bin/../lib ]] && export LD_LIBRARY_PATH="$bin/../lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
spec=${SPEC:-chain:size=67108000} phases=${PHASES:-drop keep} backend=${BACKEND:-cuda}
keyfile=${KEYFILE:-/var/tmp/cuzk-hcbench.zkey} pool=${POOL:-cuzk-hcbench}
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
work=$(mktemp -d /tmp/cuzk-hcbench.XXXXXX)
ep="ipc://$work/cuzk.sock"
t0=$EPOCHREALTIME
since() { awk -v a="$EPOCHREALTIME" -v b="$1" 'BEGIN {printf "%.2f", a - b}'; }
log() { printf '==> [%7s s] %s\n' "$(since "$t0")" "$*" | tee -a "$out/steps.log" >&2; }
fail() {
  log "FAILED: $1"
  [[ -n ${2:-} && -f $2 ]] && { echo "--- tail of $2" >&2; tail -30 "$2" >&2; }
  exit 1
}
server='' worker='' sampler=''
cleanup() {
  for p in $server $worker; do kill -TERM "$p" 2>/dev/null; done
  for p in $server $worker; do wait "$p" 2>/dev/null; done
  [[ -n $sampler ]] && kill "$sampler" 2>/dev/null
  "$bin/cuzk-shm" destroy --force --name "$pool" >>"$out/shm.log" 2>&1
  [[ ${KEEP_KEY:-0} == 1 ]] || rm -f "$keyfile"
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
phase() { echo "$1" >"$work/phase"; log "phase $1"; }
pids() { { [[ -n $server ]] && echo "server $server"; [[ -n $worker ]] && echo "worker $worker"; } >"$work/pids"; }
# shellcheck source=bench/e2e/wait_log.sh
source "$(dirname "${BASH_SOURCE[0]}")/wait_log.sh"
start_server() { # POLICY LOG: its time to READY in $out/ready.LOG
  local s0=$EPOCHREALTIME
  "$bin/cuzk-gpu-server" --pool "$pool" --endpoint "$ep" --backend "$backend" --workers-per-gpu 1 \
    --key "$keyfile" --host-copy "$1" >"$out/$2.log" 2>&1 &
  server=$!
  pids
  wait_log "$server" "$out/$2.log" "serving pool" 900
  since "$s0" >"$out/ready.$2"
  log "    $2: READY in $(cat "$out/ready.$2") s"
}
prove() { # ID: submitted, synthesized, proven; its time in $out/job.ID
  local j0=$EPOCHREALTIME
  "$bin/cuzk" inputs --circuit "$spec" --seed "$RANDOM" >"$work/in.json"
  "$bin/cuzk" submit --endpoint "$ep" --zkey "$keyfile" --circuit "$spec" --inputs "$work/in.json" --job-id "$1" \
    --timeout 1200 >"$out/submit.$1.log" 2>&1 || fail "submit $1" "$out/submit.$1.log"
  "$bin/cuzk" wait --endpoint "$ep" --job-id "$1" --proof "$work/p.json" --public "$work/pub.json" --timeout 1800 \
    >>"$out/submit.$1.log" 2>&1 || fail "job $1" "$out/submit.$1.log"
  since "$j0" >"$out/job.$1"
  log "    job $1: proven in $(cat "$out/job.$1") s (synthesis and proof)"
}

echo "baseline (nothing started)" >"$work/phase"
"$here/mem_sampler.sh" "$out/memory.csv" "$work/phase" "$work/pids" 0.2 &
sampler=$!
sleep 1
if [[ -s $keyfile ]]; then
  log "key file $keyfile exists: reused"
else
  phase setup
  s0=$EPOCHREALTIME
  "$bin/cuzk" setup --circuit "$spec" --zkey "$keyfile" --backend "$backend" --seed "hcbench" >"$out/setup.log" 2>&1 ||
    fail "cuzk setup" "$out/setup.log"
  log "    setup in $(since "$s0") s: $(stat -c %s "$keyfile") bytes"
fi
log_dom=$(grep -o 'domain 2^[0-9]*' "$out/setup.log" 2>/dev/null | tail -1 | cut -d^ -f2)
[[ -n $log_dom ]] || log_dom=$(cat "$keyfile.logdom" 2>/dev/null)
[[ -n $log_dom ]] || fail "the key's domain is unknown (no setup log)"
echo "$log_dom" >"$keyfile.logdom"
"$bin/cuzk-shm" destroy --force --name "$pool" >/dev/null 2>&1
"$bin/cuzk-shm" create --name "$pool" --slots "1x$((1 << log_dom))" --jobs 16 >"$out/shm.log" 2>&1 ||
  fail "cuzk-shm create" "$out/shm.log"

for policy in $phases; do
  phase "$policy: start"
  start_server "$policy" "server-$policy"
  if [[ -z $worker ]]; then
    "$bin/cuzk-synth-worker" --pool "$pool" --endpoint "$ep.worker" --name "worker@1" >"$out/worker.log" 2>&1 &
    worker=$!
    pids
  fi
  phase "$policy: proving"
  prove "$policy-1"
  if [[ " ${RESTART:-$phases} " == *" $policy "* ]]; then
    phase "$policy: restart"
    kill -9 "$server"
    wait "$server" 2>/dev/null
    start_server "$policy" "server-$policy-restart"
    phase "$policy: after restart"
    prove "$policy-2"
  fi
  kill -TERM "$server"
  wait "$server" 2>/dev/null
  server=''
  pids
done
kill "$sampler" 2>/dev/null
sampler=''
{
  echo "host_copy bench: $spec, backend $backend, $(nproc) cores, $(awk '/MemTotal/ {printf "%.1f GiB", $2 / 2^20}' /proc/meminfo)"
  for policy in $phases; do
    echo "$policy: READY $(cat "$out/ready.server-$policy") s, first job $(cat "$out/job.$policy-1") s;" \
      "after kill -9: READY $(cat "$out/ready.server-$policy-restart" 2>/dev/null) s, then a new job $(cat "$out/job.$policy-2" 2>/dev/null) s"
    grep -h "proven job=" "$out/server-$policy.log" "$out/server-$policy-restart.log" 2>/dev/null | grep -o 'total_ms=[0-9.]*' | tr '\n' ' '
    echo
  done
  awk -f "$here/mem_peaks.awk" "$out/memory.csv"
} | tee "$out/summary.txt"
