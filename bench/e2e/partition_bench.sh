#!/usr/bin/env bash
# A partition the size of the seed system's (issue 11, docs/benchmarks.md):
# sha256:blocks=BLOCKS, boolean-heavy, its key set up straight into an SRS
# region of the pool (`cuzk setup --pool`: no file, no copy), proved through
# the service JOBS times, one job after another. The server is started with
# `--key KEYID`: it parses the key and makes it resident on the GPU before it
# serves (timed in its log); the first proof also allocates the proving
# buffers (warm-up, reported apart). GPU time per partition and each phase,
# from `cuzk status --json` and the server's `proven` log line.
#   bench/e2e/partition_bench.sh BIN OUT
# BIN: cuzk, cuzk-shm, cuzk-gpu-server, cuzk-synth-worker (scripts/gpu-pack.sh's
# .gpurun/bin). Everything goes to OUT; a table is printed last.
# Sizes (counted with the CPU build, `cuzk setup` of blocks 1, 2, 3 and 10 and
# the .zkey's header and coefficient section; exact and linear in N):
# sha256:blocks=N has 26928 N - 676 constraints, 26744 N - 675 witness values
# and 96016 N - 2690 matrix coefficients; its domain is the power of two
# >= constraints + 3 (2 public signals and ONE). N = 4984 is the largest with
# domain 2^27: 134,208,476 constraints (a Filecoin PoRep partition: 130,278,869).
# Its key: 76.9 GB of points + 21.1 GB of coefficients (91.2 GiB in
# /dev/shm; the server and worker do not decode the coefficients, 21.4 GiB
# each); its slot: 16 GiB. 107 GiB of the H200 machine's 125 GiB of RAM.
# Knobs: BLOCKS (4984), JOBS (3), BACKEND (cuda; cpu for a test run), SEED,
# POOL (cuzk-pbench), WORKERS_PER_GPU (1: with 2, a 2^27 key does not stay
# resident next to both workers' buffers and is streamed for every proof),
# SKIP_SETUP=1 (reuse POOL and its key: KEY_ID, else the id in OUT/keyid),
# KEEP=1 (leave the pool and the key for a later SKIP_SETUP=1 run: a device
# command has 10 minutes, so setup and proofs can be two calls),
# ZKEY_STANDIN=1 (make the key with `cuzk setup --zkey` + `cuzk-shm load-srs`
# instead of `cuzk setup --pool`: needs disk for the key), JOBS=0 (setup only),
# SHM_EXTRA_GIB (more free /dev/shm to ask for: tests the remount), PRELOAD=0
# (no --key: the first proof uploads the key), PLAN=1 (print the sizes and
# the memory they need, then stop), POOL_AFTER_SETUP=1 (setup into a pool of
# one 2^10 slot, then the pool made again with its real slot, the key's
# region renamed aside meanwhile: 16 GiB less RAM at the setup's peak),
# MEMORY=1 (bench/e2e/mem_sampler.sh through the run, each step a phase: the
# host's memory in use, /dev/shm, the server's and worker's RSS/PSS; a table
# of the peaks per step is printed last).
set -uo pipefail
bin=$(cd "${1:?bin dir}" && pwd) out=${2:?out dir}
mkdir -p "$out"
out=$(cd "$out" && pwd)
[[ -d $bin/../lib ]] && export LD_LIBRARY_PATH="$bin/../lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
blocks=${BLOCKS:-4984} jobs=${JOBS:-3} backend=${BACKEND:-cuda} seed=${SEED:-$RANDOM$RANDOM}
pool=${POOL:-cuzk-pbench} spec="sha256:blocks=$blocks"
shm=${CUZK_SHM_DIR:-/dev/shm/cuzk}  # the service's directory: the pool and its keys
work=$(mktemp -d /tmp/cuzk-pbench.XXXXXX)
ep="ipc://$work/cuzk.sock"
pids=() owns_pool=0
t0=$EPOCHREALTIME
since() { awk -v a="$EPOCHREALTIME" -v b="$1" 'BEGIN {printf "%.2f", a - b}'; }
log() {
  printf '==> [%7s s] %s\n' "$(since "$t0")" "$*" | tee -a "$out/steps.log" >&2
  local m="$*"
  if [[ $m == \(* ]]; then m=${m//,/}; echo "${m:0:48}" >"$work/phase"; fi  # a step: the sampler's phase
}
gib() { awk -v b="$1" 'BEGIN {printf "%.1f", b / 2^30}'; }
meminfo() { echo $(($(awk -v k="$1:" '$1 == k {print $2}' /proc/meminfo) * 1024)); }
memory() { # RAM and /dev/shm now
  local avail total size free
  avail=$(meminfo MemAvailable) total=$(meminfo MemTotal)
  read -r size free < <(df -B1 --output=size,avail /dev/shm | tail -1)
  log "    memory: RAM $(gib "$avail") GiB available of $(gib "$total"), /dev/shm $(gib "$free") GiB free of $(gib "$size")"
}
fail() { # fail WHAT [LOG]: the step, the log's tail, exit 1
  log "FAILED: $1"
  [[ -n ${2:-} && -f $2 ]] && { echo "--- tail of $2" >&2; tail -30 "$2" >&2; }
  exit 1
}
cleanup() {
  for p in "${pids[@]}"; do kill -TERM "$p" 2>/dev/null || true; done
  for p in "${pids[@]}"; do wait "$p" 2>/dev/null || true; done
  if [[ -n ${sampler:-} ]]; then
    kill "$sampler" 2>/dev/null
    awk -f "$(dirname "${BASH_SOURCE[0]}")/mem_peaks.awk" "$out/memory.csv" | tee "$out/memory.md"
  fi
  if [[ ${KEEP:-0} == 1 ]]; then
    log "KEEP=1: pool $pool and key $(cat "$out/keyid" 2>/dev/null) left for SKIP_SETUP=1"
  elif ((owns_pool)); then
    "$bin/cuzk-shm" destroy --force --name "$pool" >>"$out/shm.log" 2>&1 || true
    rm -f "$shm/$pool-aside.srs."*
    if [[ -f $out/shm-size ]]; then  # the size /dev/shm had before this bench grew it
      mount -o remount,size="$(cat "$out/shm-size")" /dev/shm && rm -f "$out/shm-size"
    fi
  fi
  rm -rf "$work"
}
trap cleanup EXIT
trap 'exit 1' INT TERM
# start_bg LOG CMD...: runs CMD in the background, its output to LOG
start_bg() {
  local l=$1; shift
  "$@" >"$l" 2>&1 &
  pids+=($!)
  echo "$(basename "$1") $!" >>"$work/pids"
}
: >"$work/pids"
echo "start" >"$work/phase"
if [[ ${MEMORY:-0} == 1 ]]; then
  "$(dirname "${BASH_SOURCE[0]}")/mem_sampler.sh" "$out/memory.csv" "$work/phase" "$work/pids" 0.5 &
  sampler=$!
fi
# shellcheck source=bench/e2e/wait_log.sh
source "$(dirname "${BASH_SOURCE[0]}")/wait_log.sh"

# sizes from BLOCKS (see the top)
n_cons=$((26928 * blocks - 676)) n_wit=$((26744 * blocks - 675)) n_coef=$((96016 * blocks - 2690)) log_dom=0
while (((1 << log_dom) < n_cons + 3)); do log_dom=$((log_dom + 1)); done
dom=$((1 << log_dom))
key_bytes=$(((n_coef * 44) + (3 * n_wit - 3 + dom) * 96 + n_wit * 192))
pool_bytes=$((dom * 128 + (16 << 20)))
log "$spec: $n_cons constraints, $n_wit witness values, domain 2^$log_dom; backend $backend, seed $seed"
total_need=$((key_bytes + pool_bytes))
mem_total=$(meminfo MemTotal)
log "    /dev/shm: key ~$(gib "$key_bytes") GiB + pool slot $(gib $((dom * 128))) GiB, in RAM $(gib "$mem_total") GiB" \
  "(a process that decoded the key's coefficients would need $(gib $((n_coef * 48))) GiB more)"
((total_need > mem_total)) && log "    WARNING: that is more than the RAM"
memory
[[ ${PLAN:-0} == 1 ]] && { log "PLAN=1: stop"; exit 0; }

if [[ ${SKIP_SETUP:-0} != 1 ]]; then
  # (a) /dev/shm must hold the key and the pool: grow it when it cannot (restored at exit)
  need=$((key_bytes + pool_bytes + ((1 + ${SHM_EXTRA_GIB:-0}) << 30)))
  read -r shm_size shm_used shm_free < <(df -B1 --output=size,used,avail /dev/shm | tail -1)
  if ((shm_free < need)); then
    [[ $(id -u) == 0 ]] || fail "/dev/shm has $(gib "$shm_free") GiB free, the key and pool need $(gib "$need"): grow it as root"
    new=$(((shm_used + need + (1 << 30) - 1) >> 30))G
    log "(a) remount /dev/shm from $(gib "$shm_size") GiB to $new"
    [[ -f $out/shm-size ]] || echo "$((shm_size >> 10))k" >"$out/shm-size"
    mount -o remount,size="$new" /dev/shm || fail "cannot remount /dev/shm with size=$new"
    memory
  fi
  # (b) the pool: one slot of the key's domain
  after=${POOL_AFTER_SETUP:-0} slot=$dom
  ((after == 1)) && slot=1024
  log "(b) pool $pool: 1 slot of $slot"
  owns_pool=1
  "$bin/cuzk-shm" destroy --force --name "$pool" >/dev/null 2>&1
  "$bin/cuzk-shm" create --name "$pool" --slots "1x$slot" --jobs 16 >"$out/shm.log" 2>&1 ||
    fail "cuzk-shm create" "$out/shm.log"
  memory
  # (c) the key, straight into an SRS region of the pool
  s0=$EPOCHREALTIME
  if [[ ${ZKEY_STANDIN:-0} == 1 ]]; then
    log "(c) setup $spec (stand-in: cuzk setup --zkey, then cuzk-shm load-srs)"
    "$bin/cuzk" setup --circuit "$spec" --zkey "$work/key.zkey" --backend "$backend" --seed "pbench $seed" \
      >"$out/setup.log" 2>&1 || fail "cuzk setup --zkey" "$out/setup.log"
    "$bin/cuzk-shm" load-srs --name "$pool" --zkey "$work/key.zkey" >"$out/setup.out" 2>>"$out/setup.log" ||
      fail "cuzk-shm load-srs" "$out/setup.log"
    rm -f "$work/key.zkey"
  else
    log "(c) setup $spec into pool $pool"
    "$bin/cuzk" setup --circuit "$spec" --pool "$pool" --backend "$backend" --seed "pbench $seed" \
      >"$out/setup.out" 2>"$out/setup.log" || fail "cuzk setup --pool" "$out/setup.log"
  fi
  key=$(tail -1 "$out/setup.out")
  [[ $key =~ ^[0-9a-f]{32}$ ]] || fail "setup printed no key id as its last line" "$out/setup.out"
  echo "$key" >"$out/keyid"
  got=$(grep -o 'domain 2^[0-9]*' "$out/setup.log" | tail -1)
  [[ -z $got || $got == "domain 2^$log_dom" ]] || fail "the key's $got, expected 2^$log_dom (see the sizes at the top)" "$out/setup.log"
  setup_s=$(since "$s0")
  echo "$setup_s" >"$out/setup_s"
  log "    key $key in $setup_s s: $(stat -c %s "$shm/$pool.srs.$key") bytes"
  memory
  if ((after == 1)); then
    log "(b) pool $pool again, with 1 slot of 2^$log_dom (the key's region renamed aside meanwhile)"
    mv "$shm/$pool.srs.$key" "$shm/$pool-aside.srs.$key" || fail "cannot rename the key's region"
    "$bin/cuzk-shm" destroy --force --name "$pool" >>"$out/shm.log" 2>&1 || fail "cuzk-shm destroy" "$out/shm.log"
    "$bin/cuzk-shm" create --name "$pool" --slots "1x$dom" --jobs 16 >>"$out/shm.log" 2>&1 ||
      fail "cuzk-shm create" "$out/shm.log"
    mv "$shm/$pool-aside.srs.$key" "$shm/$pool.srs.$key" || fail "cannot rename the key's region back"
    memory
  fi
else
  key=${KEY_ID:-$(cat "$out/keyid" 2>/dev/null)}
  [[ $key =~ ^[0-9a-f]{32}$ ]] || fail "SKIP_SETUP=1 needs KEY_ID or a key id in $out/keyid"
  [[ -f $shm/$pool.srs.$key ]] || fail "no SRS region $shm/$pool.srs.$key (was the first run made with KEEP=1?)"
  log "(a-c) skipped: pool $pool, key $key"
  owns_pool=1
fi

((jobs > 0)) || { log "JOBS=0: setup only"; exit 0; }

# (d) the server and one synthesis worker
log "(d) cuzk-gpu-server --backend $backend, one cuzk-synth-worker"
sargs=(--backend "$backend")
[[ ${PRELOAD:-1} == 1 ]] && sargs+=(--key "$key")
[[ $backend == cuda ]] && sargs+=(--workers-per-gpu "${WORKERS_PER_GPU:-1}")
start_bg "$out/server.log" "$bin/cuzk-gpu-server" --pool "$pool" --endpoint "$ep" "${sargs[@]}"
server=${pids[-1]}
wait_log "$server" "$out/server.log" "serving pool" 600
start_bg "$out/worker.log" "$bin/cuzk-synth-worker" --pool "$pool" --endpoint "$ep.worker" --name "worker@1"
wait_log "$server" "$out/server.log" "worker worker@1 .* ready" 60
memory

# (e, f) the jobs, one after another; each job's record and the server's proof line
run=$(date +%s)
for i in $(seq 1 "$jobs"); do
  id="pbench-$run-$i"
  log "(e) job $i/$jobs: $id$( ((i == 1)) && echo ' (warm-up)')"
  # the preimage named by a seed: 2 x 318,967 hex digits would not fit a job's 2 KiB of inputs
  printf '{"preimage_seed": "%s"}\n' "$((seed + i))" >"$work/in.json"
  j0=$EPOCHREALTIME
  # submit, then wait: the server counts the circuit before it answers (tens of seconds at 2^27), and
  # `submit --wait` gives that reply only 10 s; without --wait it gets --timeout
  "$bin/cuzk" submit --endpoint "$ep" --zkey "$key" --circuit "$spec" --inputs "$work/in.json" --job-id "$id" \
    --timeout 1200 >"$out/submit.$i.log" 2>&1 || fail "submit $id" "$out/submit.$i.log"
  "$bin/cuzk" wait --endpoint "$ep" --job-id "$id" --proof "$out/proof.$i.json" --public "$out/public.$i.json" \
    --timeout 3600 >>"$out/submit.$i.log" 2>&1 || fail "job $id" "$out/submit.$i.log"
  since "$j0" >"$out/wall.$i"
  "$bin/cuzk" status --endpoint "$ep" --json --job-id "$id" >"$out/job.$i.json" 2>>"$out/submit.$i.log" ||
    fail "cuzk status --job-id $id" "$out/submit.$i.log"
  grep "proven job=" "$out/server.log" | tail -1 >"$out/proven.$i"
  log "    $(grep -o 'total_ms=[0-9.]*' "$out/proven.$i"), submit to proof $(cat "$out/wall.$i") s"
  memory
done

# (g) the table
{
grep -E "key $key.*(registered|resident|too large|not made|loaded in)" "$out/server.log" | sed 's/^\[[^]]*\] \[[^]]*\] \[[a-z]*\] /server: /'
python3 - "$out" "$jobs" "$spec" "$n_cons" "$backend" "$(cat "$out/setup_s" 2>/dev/null || echo -)" <<'PY'
import json, re, sys
out, jobs, spec, n_cons, backend, setup_s = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4]), sys.argv[5], sys.argv[6]
phases = ["h2d", "ntt", "msm_h", "msm_l", "msm_a", "msm_b_g1", "msm_b_g2", "batch_add", "cpu_prep", "verify"]
print(f"partition: {spec} ({n_cons:,} constraints), backend {backend}, key setup {setup_s} s")
print(f"{'job':>4} {'synth s':>8} {'wall s':>7} {'gpu':>4} {'streamed':>8} {'TOTAL ms':>9} {'msm wall':>9} "
      + " ".join(f"{p:>9}" for p in phases))
totals = []
for i in range(1, jobs + 1):
    j = json.load(open(f"{out}/job.{i}.json"))
    p = j["partitions"][0]
    t = p["timings"] or {}
    line = open(f"{out}/proven.{i}").read()
    m = re.search(r"msm_ms=([0-9.]+)", line)
    streamed = re.search(r"streamed=(\w+)", line)
    synth = (p["synth_end_ns"] - p["synth_start_ns"]) / 1e9
    wall = float(open(f"{out}/wall.{i}").read())
    total = t.get("total", 0) * 1e3
    if i > 1: totals.append(total)
    gpu = "cpu" if p["gpu"] < 0 else str(p["gpu"])
    print(f"{i:>4} {synth:8.1f} {wall:7.1f} {gpu:>4} {streamed.group(1) if streamed else '-':>8} {total:9.1f} "
          f"{float(m.group(1)) if m else 0:9.1f} "
          + " ".join(f"{t.get(k, 0) * 1e3:9.1f}" for k in phases) + ("  (warm-up)" if i == 1 else ""))
print("TOTAL = the prove call per partition (a, b, c, z to the GPU, NTTs, the five MSMs, CPU preparation; "
      "verify apart); phases in ms, the MSMs overlap on their own streams (msm wall = their span)")
if totals:
    mean = sum(totals) / len(totals)
    where = "everything on the GPU (B_G2 included)" if backend == "cuda" else f"the {backend} backend"
    print(f"time per partition (jobs 2..{jobs}, mean): {mean / 1e3:.3f} s, {where}; "
          f"anchor Curio cuzk on an RTX 5070 Ti: 1.82 s GPU + 0.48 s B_G2 on the CPU = 2.30 s "
          f"({2300 / mean:.2f}x); target <= 1.0 s: {'met' if mean <= 1000 else f'missed by {mean / 1e3 - 1:.3f} s'}")
PY
} | tee "$out/summary.txt"
log "done: results in $out"
