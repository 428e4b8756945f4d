#!/usr/bin/env bash
# The service on a GPU (issue 11, docs/benchmarks.md "GPU service"), from the
# binaries in BIN (scripts/gpu-pack.sh's .gpurun/bin):
#   steady   server + synth-workers on every other core, cuzk-bench keeping
#            IN_FLIGHT jobs outstanding for SECONDS: proofs/min, p50/p99
#            latency, the server's GPU busy ratio (CUDA events) and NVML's
#            utilization sampled over the same window; MODES picks the runs
#            (cuda, noreg = --no-register, cpu = --backend cpu)
#   restart  kill -9 of a server holding a POOL_GIB pool and a resident key,
#            to the next server's READY and to its first proof
#   backlog  the seed's effect where it bites: BACKLOG slots of a boolean-heavy
#            partition (BACKLOG_SPEC, sha256 at 2^25) synthesized while the
#            server holds proving (--hold-proving), then drained after
#            SIGUSR2 while the workers synthesize the next jobs into the freed
#            slots (the host's memory bandwidth busy); per mode of
#            BACKLOG_MODES (cuda noreg; cuda1: --workers-per-gpu 1, one worker
#            of two lanes, the next proof's copy during the MSMs; cuda1serial:
#            the same with CUZK_CUDA_PREFETCH=0, one proof at a time):
#            partitions/min and the GPU's busy share over the drain, from
#            SIGUSR2 to the last drained proof's end on the server's timeline
#            (/trace.json, kept as backlog.MODE.trace.json): CUDA events
#            (cuzk_gpu_busy_seconds_total), the union of the timeline's kernel
#            phases and where the rest went (before the first kernel, gaps
#            between proofs, after the last), NVML's; the mean phases per
#            proof; then the ratios to the first mode
#   bench/e2e/gpu_service_bench.sh BIN OUT [steady|restart]...
# Knobs: SPEC (circuit, default chain:size=1000000), SECONDS (300), MODES
# (cuda noreg cpu), SHORT (seconds for noreg and cpu, 60), WORKERS (cores-2),
# IN_FLIGHT (3 x workers), POOL_GIB (64), RESTART_SPEC (chain:size=4000000),
# HUGEPAGES (a hugetlbfs directory for the restart's pool), GPUS (--gpus for
# the steady state, e.g. 0 or 0,1: the 1-GPU / 2-GPU comparison of issue 13),
# KEY_SOURCE (the restart's key: zkey, a .zkey file as today, or pool: made by
# `cuzk setup --pool` straight into an SRS region of the pool, no file, so a
# 2^26 key (~42 GiB; RESTART_SPEC=chain:size=67108000) fits beside the pool
# where the 64 GiB disk cannot hold the file; the servers then get --key
# KEYID), ZKEY_STANDIN=1 (KEY_SOURCE=pool through `cuzk setup --zkey` and
# `cuzk-shm load-srs`), RESTART_BACKEND (cuda; cpu to try the script here),
# BACKLOG (6), BACKLOG_SPEC (sha256:blocks=1246; a sha256 spec), BACKLOG_WORKERS (6),
# BACKLOG_BACKEND (cuda; cpu to try the script here).
set -uo pipefail
bin=$(cd "${1:?bin dir}" && pwd) out=${2:?out dir}
shift 2
mkdir -p "$out"
spec=${SPEC:-chain:size=1000000} secs=${SECONDS_STEADY:-300} short=${SHORT:-60}
workers=${WORKERS:-$(($(nproc) - 2))} inflight=${IN_FLIGHT:-$((3 * workers))}
work=$(mktemp -d /tmp/cuzk-gpu-bench.XXXXXX)
pool=cuzk-gpu-bench-$$ ep="ipc://$work/cuzk.sock"
keys="$work/keys"
mkdir -p "$keys"
pids=()
log() { printf '==> %s\n' "$*" >&2; }
stop() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  pids=()
  "$bin/cuzk-shm" destroy --force --name "$pool" ${HUGEPAGES:+--hugepages "$HUGEPAGES"} >/dev/null 2>&1 || true
}
trap 'stop; rm -rf "$work"' EXIT
keyfile() { local n=$1; n=${n//:/_}; n=${n//=/_}; n=${n//,/_}; echo "$keys/$n.zkey"; }
setup_key() {
  local k; k=$(keyfile "$1")
  [[ -f $k ]] || "$bin/cuzk" setup --circuit "$1" --zkey "$k" --seed "gpu-bench $1" >"$out/setup.$(basename "$k").log" 2>&1
  echo "$k"
}
# pool_key SPEC BACKEND: a key made in the pool's SRS region; prints its key id
pool_key() {
  local l="$out/setup.pool.log"
  if [[ ${ZKEY_STANDIN:-0} == 1 ]]; then
    "$bin/cuzk" setup --circuit "$1" --zkey "$work/standin.zkey" --seed "gpu-bench $1" >"$l" 2>&1 &&
      "$bin/cuzk-shm" load-srs --name "$pool" ${HUGEPAGES:+--hugepages "$HUGEPAGES"} --zkey "$work/standin.zkey" \
        2>>"$l" | tail -1
    rm -f "$work/standin.zkey"
  else
    "$bin/cuzk" setup --circuit "$1" --pool "$pool" --backend "$2" \
      --seed "gpu-bench $1" 2>"$l" | tail -1
  fi
}
sub() { python3 -c "import sys; print(f'{float(sys.argv[1]) - float(sys.argv[2]):.3f}')" "$1" "$2"; }
ready_wait() { # ready_wait LOG [PID]: seconds until "serving pool" appears (fails if PID exits first)
  local t0; t0=$(date +%s.%N)
  until grep -q "serving pool" "$1" 2>/dev/null; do
    [[ -z ${2:-} ]] || kill -0 "$2" 2>/dev/null || { log "the server exited:"; tail -20 "$1" >&2; return 1; }
    sleep 0.01
  done
  sub "$(date +%s.%N)" "$t0"
}
summary=()

steady() { # steady MODE SECONDS
  local mode=$1 dur=$2 args=(--backend cuda ${GPUS:+--gpus "$GPUS"})
  [[ $mode == noreg ]] && args+=(--no-register)
  [[ $mode == cpu ]] && args=(--backend cpu)
  local k; k=$(setup_key "$spec")
  local n=${spec#*=}; local dom; dom=$(python3 -c "print(1<<(($n+2)-1).bit_length())")
  "$bin/cuzk-shm" create --name "$pool" --slots "$((inflight + 4))x$dom" >"$out/steady.$mode.shm.log" 2>&1 ||
    { log "pool creation failed"; cat "$out/steady.$mode.shm.log" >&2; return 1; }
  "$bin/cuzk-gpu-server" --pool "$pool" --endpoint "$ep" "${args[@]}" --key "$k" --keys-dir "$keys" \
    >"$out/steady.$mode.server.log" 2>&1 &
  pids+=($!)
  ready_wait "$out/steady.$mode.server.log" >/dev/null
  for i in $(seq 1 "$workers"); do
    "$bin/cuzk-synth-worker" --pool "$pool" --endpoint "$ep.worker" --name "worker@$i" >"$out/steady.$mode.w$i.log" 2>&1 &
    pids+=($!)
  done
  nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader,nounits -lms 500 >"$out/steady.$mode.nvml" 2>/dev/null &
  local smi=$!
  "$bin/cuzk-bench" --endpoint "$ep" --keys "$keys" --mix "$spec" --duration "$dur" --in-flight "$inflight" \
    --json "$out/steady.$mode.json" >"$out/steady.$mode.txt" 2>"$out/steady.$mode.bench.err"
  kill "$smi" 2>/dev/null; wait "$smi" 2>/dev/null
  stop
  local nvml; nvml=$(awk '{s+=$1;n++} END {if(n) printf "%.1f", s/n; else print "n/a"}' "$out/steady.$mode.nvml")
  local line; line=$(python3 - "$out/steady.$mode.json" "$mode" "$dur" "$nvml" <<'PY'
import json, sys
j = json.load(open(sys.argv[1])); mode, dur, nvml = sys.argv[2], sys.argv[3], sys.argv[4]
busy = ", ".join(f"{100*g['busy_ratio']:.1f}%" for g in j.get("gpus", [])) or "n/a"
t = j["phases"]["total"]; p = j["phases"]["prove"]
print(f"steady {mode:6s} {dur:>4s}s: {j['proofs_per_min']:8.1f} proofs/min, latency p50 {t['p50_s']:.3f} s p99 {t['p99_s']:.3f} s, "
      f"prove mean {p['mean_s']*1e3:.1f} ms, busy (events, last min) {busy}, NVML util mean {nvml}%, "
      f"failed {j['failed']}, bad {j['bad_proofs']}")
PY
)
  summary+=("$line")
  log "$line"
}

# restart_submit ID KEY SPEC INPUTS PROOF PUBLIC LOG: a job, waited for. A key file: `submit --wait`,
# which also checks the proof against the file. A key id: submit, then wait (no file to check with; the
# server counts a large circuit before it answers, which `submit --wait` gives only 10 s)
restart_submit() {
  if [[ -f $2 ]]; then
    "$bin/cuzk" submit --endpoint "$ep" --zkey "$2" --circuit "$3" --inputs "$4" --job-id "$1" \
      --wait --proof "$5" --public "$6" >"$7" 2>&1
  else
    "$bin/cuzk" submit --endpoint "$ep" --zkey "$2" --circuit "$3" --inputs "$4" --job-id "$1" --timeout 600 >"$7" 2>&1 &&
      "$bin/cuzk" wait --endpoint "$ep" --job-id "$1" --proof "$5" --public "$6" >>"$7" 2>&1
  fi
}

restart() {
  local rspec=${RESTART_SPEC:-chain:size=4000000} gib=${POOL_GIB:-64} be=${RESTART_BACKEND:-cuda}
  local src=${KEY_SOURCE:-zkey} k=
  [[ $src == zkey ]] && k=$(setup_key "$rspec")
  local n=${rspec#*=}; local dom; dom=$(python3 -c "print(1<<(($n+2)-1).bit_length())")
  # a 64 GiB pool: as many slots of this domain as fit (a, b, c, z: 4 x 32 B per constraint)
  local per=$((dom * 128)) count; count=$(((gib << 30) / per))
  local hp=()
  [[ -n ${HUGEPAGES:-} ]] && hp=(--hugepages "$HUGEPAGES")
  "$bin/cuzk-shm" create --name "$pool" --slots "${count}x$dom" "${hp[@]}" >"$out/restart.shm.log" 2>&1 ||
    { log "pool creation failed"; cat "$out/restart.shm.log" >&2; return 1; }
  if [[ $src == pool ]]; then
    log "key $rspec into the pool ($(df -h --output=avail /dev/shm | tail -1 | xargs) free in /dev/shm)"
    k=$(pool_key "$rspec" "$be")
    [[ $k =~ ^[0-9a-f]{32}$ ]] || { log "cuzk setup --pool failed"; tail -20 "$out/setup.pool.log" >&2; return 1; }
    log "key $k: $(du -h "${CUZK_SHM_DIR:-/dev/shm/cuzk}/$pool.srs.$k" | cut -f1) in /dev/shm"
  fi
  "$bin/cuzk-gpu-server" --pool "$pool" "${hp[@]}" --endpoint "$ep" --backend "$be" --key "$k" --keys-dir "$keys" \
    >"$out/restart.server1.log" 2>&1 &
  local s1=$!
  local first; first=$(ready_wait "$out/restart.server1.log" "$s1") || { kill "$s1" 2>/dev/null; return 1; }
  "$bin/cuzk-synth-worker" --pool "$pool" "${hp[@]}" --endpoint "$ep.worker" --name "worker@1" >"$out/restart.w1.log" 2>&1 &
  pids+=($!)
  "$bin/cuzk" inputs --circuit "$rspec" --seed 1 >"$work/in.json"
  restart_submit warm "$k" "$rspec" "$work/in.json" "$work/p.json" "$work/pub.json" "$out/restart.submit1.log"
  kill -9 "$s1"
  wait "$s1" 2>/dev/null
  local t0; t0=$(date +%s.%N)
  "$bin/cuzk-gpu-server" --pool "$pool" "${hp[@]}" --endpoint "$ep" --backend "$be" --key "$k" --keys-dir "$keys" \
    >"$out/restart.server2.log" 2>&1 &
  pids+=($!)
  local s2=$!
  until grep -q "serving pool" "$out/restart.server2.log" 2>/dev/null; do
    kill -0 "$s2" 2>/dev/null || { log "the server exited:"; tail -20 "$out/restart.server2.log" >&2; return 1; }
    sleep 0.01
  done
  local t1; t1=$(date +%s.%N)
  "$bin/cuzk" inputs --circuit "$rspec" --seed 2 >"$work/in2.json"
  restart_submit after "$k" "$rspec" "$work/in2.json" "$work/p2.json" "$work/pub2.json" "$out/restart.submit2.log"
  local t2; t2=$(date +%s.%N)
  stop
  local reg; reg=$(grep -o 'registered the pool.*' "$out/restart.server2.log" | head -1)
  local line
  line=$(printf 'restart: pool %d GiB (%d slots of 2^%d), key %s (%s): kill -9 -> READY %.2f s, -> first proof %.2f s (cold start READY %.2f s); %s' \
    "$gib" "$count" "$(python3 -c "print(($dom).bit_length() - 1)")" "$rspec" "$src" "$(sub "$t1" "$t0")" \
    "$(sub "$t2" "$t0")" "$first" "$reg")
  summary+=("$line")
  log "$line"
}

metric() { # metric PORT NAME: the sum of a Prometheus series' samples
  python3 - "$1" "$2" <<'PY'
import sys, urllib.request
text = urllib.request.urlopen(f"http://127.0.0.1:{sys.argv[1]}/metrics", timeout=5).read().decode()
name = sys.argv[2]  # a name, or a name and the start of its labels: cuzk_slots{state="filled"
print(sum(float(l.rsplit(" ", 1)[1]) for l in text.splitlines()
          if l.startswith(name) and ("{" in name or l[len(name)] in " {")))
PY
}

backlog() {
  local bspec=${BACKLOG_SPEC:-sha256:blocks=1246} slots=${BACKLOG:-6} nw=${BACKLOG_WORKERS:-6}
  local be=${BACKLOG_BACKEND:-cuda}
  local blocks=${bspec#*blocks=} cons dom=1
  cons=$((26928 * blocks - 676))
  while ((dom < cons + 3)); do dom=$((dom * 2)); done
  "$bin/cuzk-shm" create --name "$pool" --slots "${slots}x$dom" --jobs 256 >"$out/backlog.shm.log" 2>&1 ||
    { log "pool creation failed"; cat "$out/backlog.shm.log" >&2; return 1; }
  local t0; t0=$(date +%s.%N)
  local k; k=$(pool_key "$bspec" "$be")
  [[ $k =~ ^[0-9a-f]{32}$ ]] || { log "cuzk setup --pool failed"; tail -20 "$out/setup.pool.log" >&2; return 1; }
  log "backlog: key $bspec ($k) set up in $(sub "$(date +%s.%N)" "$t0") s; $slots slots of $dom, $nw workers"
  local wpids=() rates=() i m n=0
  for m in ${BACKLOG_MODES:-cuda noreg}; do
    local args=(--backend "$be") envs=()
    case $m in
      noreg) args+=(--no-register) ;;
      cuda1) args+=(--workers-per-gpu 1) ;;
      cuda1serial) args+=(--workers-per-gpu 1) envs+=(CUZK_CUDA_PREFETCH=0) ;;
    esac
    local l="$out/backlog.$m.server.log"
    env "${envs[@]}" "$bin/cuzk-gpu-server" --pool "$pool" --endpoint "$ep" "${args[@]}" --key "$k" --keys-dir "$keys" \
      --hold-proving --metrics 127.0.0.1:0 >"$l" 2>&1 &
    local srv=$!
    ready_wait "$l" "$srv" >/dev/null || return 1
    local port; port=$(grep -o 'metrics on 127.0.0.1:[0-9]*' "$l" | head -1 | cut -d: -f2)
    if ((${#wpids[@]} == 0)); then  # the workers outlive the servers: the next mode's server takes them over
      for i in $(seq 1 "$nw"); do
        "$bin/cuzk-synth-worker" --pool "$pool" --endpoint "$ep.worker" --name "worker@$i" >"$out/backlog.w$i.log" 2>&1 &
        wpids+=($!) pids+=($!)
      done
    fi
    # the backlog, and as many jobs again to synthesize while it drains
    local tf; tf=$(date +%s.%N)
    for i in $(seq 1 $((slots + nw))); do
      n=$((n + 1))
      # sha256's inputs are a seed of its preimage (a whole preimage is more than a Submit carries)
      printf '{"preimage_seed": "%s"}\n' "$n" >"$work/in$n.json"
      "$bin/cuzk" submit --endpoint "$ep" --zkey "$k" --circuit "$bspec" --inputs "$work/in$n.json" --job-id "b$n" \
        --timeout 600 >>"$out/backlog.$m.submit.log" 2>&1 ||
        { log "submit b$n failed"; tail -5 "$out/backlog.$m.submit.log" >&2; return 1; }
    done
    until [[ $(metric "$port" 'cuzk_slots{state="filled"') == "$slots.0" ]]; do
      kill -0 "$srv" 2>/dev/null || { log "the server exited"; tail -20 "$l" >&2; return 1; }
      [[ $(metric "$port" cuzk_proofs_failed_total) == 0* ]] ||
        { log "jobs failed while the backlog filled"; grep -m3 'failed' "$l" >&2; return 1; }
      (($(date +%s) - ${tf%.*} < ${BACKLOG_FILL_TIMEOUT:-900})) || { log "the backlog did not fill"; tail -5 "$l" >&2; return 1; }
      sleep 0.5
    done
    local filled_s; filled_s=$(sub "$(date +%s.%N)" "$tf")
    local p0 b0; p0=$(metric "$port" cuzk_proofs_completed_total) b0=$(metric "$port" cuzk_gpu_busy_seconds_total)
    nvidia-smi --query-gpu=utilization.gpu --format=csv,noheader,nounits -lms 100 >"$out/backlog.$m.nvml" 2>/dev/null &
    local smi=$! r0
    sleep 0.3  # nvidia-smi's start, before the clock
    r0=$(date +%s.%N)
    kill -USR2 "$srv"
    until python3 -c "import sys; sys.exit(float(sys.argv[1]) < float(sys.argv[2]) + $slots)" \
      "$(metric "$port" cuzk_proofs_completed_total)" "$p0"; do
      kill -0 "$srv" 2>/dev/null || { log "the server exited"; tail -20 "$l" >&2; return 1; }
      sleep 0.05
    done
    local r1; r1=$(date +%s.%N)
    local b1; b1=$(metric "$port" cuzk_gpu_busy_seconds_total)
    python3 -c "import sys, urllib.request; open(sys.argv[2], 'wb').write(urllib.request.urlopen(
f'http://127.0.0.1:{sys.argv[1]}/trace.json', timeout=10).read())" "$port" "$out/backlog.$m.trace.json" ||
      log "no /trace.json"
    kill "$smi" 2>/dev/null; wait "$smi" 2>/dev/null
    kill -TERM "$srv"; wait "$srv" 2>/dev/null
    local line; line=$(python3 - "$m" "$slots" "$r0" "$r1" "$b0" "$b1" "$out/backlog.$m.nvml" "$l" "$filled_s" \
      "$out/backlog.$m.trace.json" "$out/backlog.$m.gaps.txt" <<'PY'
import json, re, sys
m, slots, r0, r1, b0, b1, nvml, log, filled, trace, gaps_out = sys.argv[1:]
r0, r1, slots = float(r0), float(r1), int(slots)
u = [float(x) for x in open(nvml).read().split() if x.replace(".", "").isdigit()]
proven = [dict(re.findall(r"(\w+_ms)=([\d.]+)", l)) for l in open(log) if "proven job=" in l][:slots]
mean = lambda k: sum(float(p.get(k, 0)) for p in proven) / max(1, len(proven))
# the drain on the server's clock: SIGUSR2 (r0) to the end of the slots-th proof that ended after it
try:
    ev = [e for e in json.load(open(trace))["traceEvents"] if e.get("ph") == "X" and e.get("cat") == "prove"]
except Exception:
    ev = []
span = lambda e: (e["ts"] / 1e6, (e["ts"] + e["dur"]) / 1e6)
proofs = sorted((span(e) for e in ev if e["name"] == "proof" and span(e)[1] > r0), key=lambda s: s[1])[:slots]
end = proofs[-1][1] if len(proofs) == slots else r1
wall = end - r0
# the union of the kernel phases inside the drain, and where the rest of it went
kern = sorted(span(e) for e in ev if e["name"] in ("split", "ntt", "msm_a", "msm_b_g1", "msm_l", "msm_b_g2", "msm_h")
              and span(e)[1] > r0 and span(e)[0] < end)
busy, cur, gaps = 0.0, r0, []
for a, b in kern:
    a, b = max(a, r0), min(b, end)
    if a > cur: gaps.append((cur, a))
    if b > cur: busy += b - max(a, cur); cur = b
if cur < end: gaps.append((cur, end))
head = gaps[0][1] - gaps[0][0] if gaps and gaps[0][0] == r0 else 0.0
tail = gaps[-1][1] - gaps[-1][0] if gaps and gaps[-1][1] == end and kern else 0.0
mid = sum(b - a for a, b in gaps) - head - tail
with open(gaps_out, "w") as f:
    for a, b in gaps: f.write(f"{(a - r0) * 1e3:9.1f} ms +{(b - a) * 1e3:7.1f} ms\n")
print(f"backlog {m:11s} {slots} partitions (filled in {float(filled):.1f} s): drained in {wall:.3f} s = "
      f"{60 * slots / wall:.1f} partitions/min (script's clock {r1 - r0:.2f} s), GPU busy "
      f"{100 * (float(b1) - float(b0)) / wall:.1f}% (CUDA events), kernels {100 * busy / wall:.1f}% (timeline; idle: "
      f"{head * 1e3:.0f} ms before the first, {mid * 1e3:.0f} ms between, {tail * 1e3:.0f} ms after the last), "
      f"NVML {sum(u) / max(1, len(u)):.1f}% ({len(u)} samples); per proof: total {mean('total_ms'):.0f} ms, "
      f"wait {mean('wait_ms'):.0f}, h2d {mean('h2d_ms'):.0f}, ntt {mean('ntt_ms'):.0f}, msm {mean('msm_ms'):.0f}, "
      f"staging {mean('stage_ms'):.0f} ms")
PY
)
    summary+=("$line")
    log "$line"
    rates+=("$m $(sed -E 's/.* = ([0-9.]+) partitions\/min.*/\1/' <<<"$line")")
  done
  stop
  local r
  for r in "${rates[@]:1}"; do  # e.g. "cuda 60.1" and "noreg 40.2"
    local line; line=$(python3 -c "import sys; a, b = sys.argv[1].split(), sys.argv[2].split(); \
print(f'backlog ratio {a[0]} / {b[0]}: {float(a[1]) / float(b[1]):.2f}x the partitions per minute')" "${rates[0]}" "$r")
    summary+=("$line")
    log "$line"
  done
}

for what in "${@:-steady restart}"; do
  case $what in
    steady) for m in ${MODES:-cuda noreg cpu}; do
              d=$secs; [[ $m != cuda ]] && d=$short
              steady "$m" "$d"
            done ;;
    restart) restart || { log "restart failed"; failed=1; } ;;
    backlog) backlog || { log "backlog failed"; failed=1; } ;;
  esac
done
printf '%s\n' "${summary[@]}" | tee "$out/summary.txt"
exit "${failed:-0}"
