#!/usr/bin/env bash
# cuzk under a real systemd (issue 12): boots one in a container over this
# machine's own root (systemd-nspawn --volatile=yes: a tmpfs root, the host's
# /usr read-only), with this build installed (cmake --install into a
# DESTDIR, bound over its prefix), starts cuzk.target with two workers, and
# checks: READY with a STATUS line; a job proven; circom circuits installed
# and proven from their inputs, and through cuzk-gateway over HTTPS (its
# own user; kill -9 of it -> restarted, the server untouched, the job it
# took still there); kill -9 of the server's
# main PID -> restarted, the job in flight proven without a new synthesis;
# kill -9 of a worker -> restarted; a stalled event loop -> the watchdog
# restarts the server; systemctl stop cuzk.target -> everything stops, the
# pool stays. Exit 77 (skipped) only without root or with an install prefix
# outside /usr; a container that does not boot within 120 s is a failure.
#   tests/deploy/nspawn_test.sh BUILD_DIR
set -uo pipefail
b=$(cd "${1:?build dir}" && pwd)
skip() { echo "SKIP: $*"; exit 77; }
fail() { echo "FAIL: $*"; dump; exit 1; }
((EUID == 0)) || skip "booting a container needs root"
command -v systemd-nspawn >/dev/null || { echo "FAIL: systemd-nspawn is not installed (Debian: systemd-container, scripts/setup.sh installs it)"; exit 1; }
prefix=$(sed -n 's/^CMAKE_INSTALL_PREFIX:PATH=//p' "$b/CMakeCache.txt")
[[ $prefix == /usr/* ]] || skip "the build's install prefix ($prefix) is not under /usr, where the container can see it"

circom=$b/tests/interop/witness-work/bn128  # the witness fixture's circuit (circom --c --wasm), its key and vk
[[ -f $circom/bounded.zkey && -x $circom/bounded_cpp/bounded ]] ||
  { echo "FAIL: no circom circuit in $circom (the fixture interop.witness.fixture makes it)"; exit 1; }
work=$(mktemp -d /tmp/cuzk-deploy.XXXXXX)
nspawn=""
cleanup() {
  [[ -n $nspawn ]] && kill "$nspawn" 2>/dev/null && wait "$nspawn" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
DESTDIR="$work/root" cmake --install "$b" >"$work/install.log" 2>&1 || { cat "$work/install.log"; exit 1; }
bin=$prefix/bin
cfg="$work/root$(sed -n 's/^ExecStart=.*--config \([^ ]*\).*/\1/p' "$work/root$prefix/lib/systemd/system/cuzk-shm.service")"
cat >"$cfg" <<TOML
[pool]
name = "cuzk-deploy"
slots = ["4x262144"]
jobs = 32

[server]
endpoint = "ipc:///run/cuzk/cuzk.sock"
worker_endpoint = "ipc:///run/cuzk/worker.sock"
client_group = "cuzk-clients"
backend = "cpu"
keys_dirs = ["/var/lib/cuzk/keys"]
witness_dirs = ["/var/lib/cuzk/witness"]
hung_timeout = 20
gateways = ["cuzk-gateway"]

[worker]
progress_grace = 10

[metrics]
address = "127.0.0.1:19464"
TOML

echo "booting a container (systemd-nspawn over /, volatile) with $prefix from this build"
systemd-nspawn --directory=/ --volatile=yes --register=no --keep-unit --machine="cuzk-deploy-$$" \
  --bind-ro="$work/root$prefix:$prefix" --bind-ro="$circom:/var/lib/cuzk/circom" -b -- systemd.firstboot=off >"$work/console.log" 2>&1 </dev/null &
nspawn=$!
# systemd-nspawn is here (scripts/setup.sh installs it): a container that does not boot, or boots
# slowly under load, is a failure with its boot log, never a skip (issue 23). 120 s before giving up.
boot_failed() {
  echo "FAIL: $*" >&2
  tail -40 "$work/console.log" >&2
  [[ -n $pid ]] && nsenter -t "$pid" -a systemctl --no-pager list-jobs 2>&1 | tail -20 >&2
  [[ -n $pid ]] && nsenter -t "$pid" -a journalctl --no-pager -b -n 60 2>&1 | tail -60 >&2
  exit 1
}
pid=""
for _ in $(seq 1 1200); do
  pid=$(pgrep -P "$nspawn" -x systemd || true)
  [[ -n $pid ]] && nsenter -t "$pid" -a systemctl is-system-running 2>/dev/null | grep -qE 'running|degraded' && break
  kill -0 "$nspawn" 2>/dev/null || boot_failed "the container exited while booting"
  sleep 0.1
done
[[ -n $pid ]] || boot_failed "the container's systemd did not start within 120 s"
nsenter -t "$pid" -a systemctl is-system-running 2>/dev/null | grep -qE 'running|degraded' ||
  boot_failed "the container's systemd did not finish booting within 120 s"
ct() { nsenter -t "$pid" -a "$@"; }
dump() {
  [[ -n $pid ]] || return
  ct systemctl --no-pager status 'cuzk*' 2>&1 | tail -40
  ct journalctl --no-pager -n 60 -u 'cuzk*' 2>&1 | tail -60
}
prop() { ct systemctl show -p "$2" --value "$1"; }
wait_for() { # wait_for SECONDS CMD...: until CMD succeeds
  local t=$1; shift
  for _ in $(seq 1 $((t * 10))); do "$@" >/dev/null 2>&1 && return 0; sleep 0.1; done
  return 1
}
active() { [[ $(prop "$1" ActiveState) == active ]]; }
# journald stores a line a moment after the process or systemd wrote it: every
# check of the journal waits for its line (bounded), never reads it once.
journal_has() { # journal_has PATTERN JOURNALCTL-ARGS...: grep -qE over the container's journal
  local pat=$1; shift
  ct journalctl --no-pager "$@" 2>/dev/null | grep -qE -- "$pat"
}
echo "container up (systemd pid $pid on the host)"

ct systemd-sysusers >/dev/null && ct systemd-tmpfiles --create >/dev/null 2>&1
ct useradd --system --no-create-home --groups cuzk-clients cuzk-client || fail "useradd cuzk-client"
client() { ct setpriv --reuid=cuzk-client --regid=cuzk-clients --init-groups "$bin/cuzk" "$@"; }
ct systemctl daemon-reload
ct systemctl enable cuzk-synth-worker@1 cuzk-synth-worker@2 >/dev/null 2>&1
ct systemctl start cuzk.target || fail "systemctl start cuzk.target"
wait_for 60 active cuzk-gpu-server || fail "cuzk-gpu-server did not become active (READY)"
status=$(prop cuzk-gpu-server StatusText)
[[ $status == *queued* ]] || fail "no STATUS= line from the server: '$status'"
active cuzk-shm || fail "cuzk-shm is not active"
shmdir=$(ct stat -c '%U:%G %a' /dev/shm/cuzk)
[[ $shmdir == "cuzk:cuzk 750" ]] || fail "the service's directory /dev/shm/cuzk is $shmdir, expected cuzk:cuzk 750 (tmpfiles)"
wait_for 30 active cuzk-synth-worker@2 || fail "worker@2 is not active"
# READY (systemd's "Started") only after the server had its pool, keys and queues ("serving pool")
wait_for 10 journal_has 'serving pool cuzk-deploy' -o cat -u cuzk-gpu-server ||
  fail "no 'serving pool cuzk-deploy' line in the journal within 10 s"
wait_for 10 journal_has 'Started cuzk-gpu-server.service' -o cat ||
  fail "no 'Started cuzk-gpu-server.service' line in the journal within 10 s"
order=$(ct journalctl --no-pager -o cat | grep -nE 'serving pool cuzk-deploy|Started cuzk-gpu-server.service' | head -2)
[[ $(head -1 <<<"$order") == *"serving pool"* ]] || fail "systemd saw READY before the server was serving: $order"
echo "ok: cuzk.target started; server READY after serving, with status: $status"

ep=ipc:///run/cuzk/cuzk.sock
small=chain:size=2000 big=chain:size=200000
ct "$bin/cuzk" setup --circuit "$small" --zkey /var/lib/cuzk/keys/small.zkey >/dev/null 2>&1 || fail "setup small"
ct "$bin/cuzk" setup --circuit "$big" --zkey /var/lib/cuzk/keys/big.zkey >/dev/null 2>&1 || fail "setup big"
client inputs --circuit "$small" --out /var/lib/cuzk/witness/small.json
client inputs --circuit "$big" --out /var/lib/cuzk/witness/big.json
submit() { # submit ID small|big [cuzk submit flags]
  local spec=$small
  [[ $2 == big ]] && spec=$big
  client submit --endpoint "$ep" --zkey "/var/lib/cuzk/keys/$2.zkey" --circuit "$spec" \
    --inputs "/var/lib/cuzk/witness/$2.json" --job-id "$1" "${@:3}"
}
submit first small --wait --proof /tmp/p.json --public /tmp/pub.json >"$work/first.log" 2>&1 ||
  fail "the first job: $(cat "$work/first.log")"
echo "ok: a job proven and verified through the service"

# circom circuits installed by name (by the service user, who owns the pool's directory) and proven from their
# input JSON: the workers run each generator confined, under the unit's sandbox (ProtectSystem=strict, PrivateTmp)
ct sh -c 'echo "{\"x\": [\"11\", \"22\", \"33\", \"44\"], \"bound\": \"1000\"}" > /tmp/circom-in.json && chmod 0644 /tmp/circom-in.json'
for gen in "cpp --cpp /var/lib/cuzk/circom/bounded_cpp/bounded" "wasm --wasm /var/lib/cuzk/circom/bounded_js/bounded.wasm"; do
  set -- $gen
  ct setpriv --reuid=cuzk --regid=cuzk --init-groups "$bin/cuzk" circuit install "bounded-$1" --pool cuzk-deploy \
    --zkey /var/lib/cuzk/circom/bounded.zkey "${@:2}" >"$work/install.log" 2>&1 ||
    fail "cuzk circuit install bounded-$1: $(cat "$work/install.log")"
  client submit --endpoint "$ep" --circuit "bounded-$1" --inputs /tmp/circom-in.json --job-id "circom-$1" \
    --wait --vk /var/lib/cuzk/circom/vk.json --proof "/tmp/circom-$1.json" --public "/tmp/circom-$1.pub.json" \
    >"$work/circom.log" 2>&1 || { dump; fail "proving the installed circuit bounded-$1: $(cat "$work/circom.log")"; }
  grep -q "witness" "$work/circom.log" || fail "no witness time in the reply: $(cat "$work/circom.log")"
done
echo "ok: circom circuits installed (C++ and wasm generators) and proven from their inputs under systemd"

# cuzk-gateway under systemd: TLS with a test CA made here, an API key made by the gateway's user, a proof
# from inputs over HTTPS; kill -9 of the gateway: systemd restarts it, the GPU server is untouched
tls=$work/root$(dirname "${cfg#$work/root}")/tls
mkdir -p "$tls"
(cd "$tls" && openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj "/CN=deploy CA" \
  -keyout ca.key -out ca.pem && openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=localhost" \
  -keyout key.pem -out req.csr && printf 'subjectAltName=IP:127.0.0.1\n' > ext &&
  openssl x509 -req -in req.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 1 -extfile ext -out cert.pem &&
  chmod 0644 key.pem) > "$work/openssl.log" 2>&1 || fail "openssl: $(cat "$work/openssl.log")"
etc=$(dirname "${cfg#$work/root}")
cat > "$(dirname "$cfg")/gateway.toml" <<TOML
listen = "127.0.0.1:18443"
tls-cert = "$etc/tls/cert.pem"
tls-key = "$etc/tls/key.pem"
endpoint = ["ipc:///run/cuzk/cuzk.sock"]
api-keys = "/etc/cuzk/api-keys.d"
TOML
token=$(ct setpriv --reuid=cuzk-gateway --regid=cuzk-gateway --init-groups "$bin/cuzk" keygen --api deploy \
  --api-dir /etc/cuzk/api-keys.d 2>/dev/null) || fail "cuzk keygen --api as cuzk-gateway"
# (a fresh /etc: systemd's presets enabled it under cuzk.target, started with the installed gateway.toml)
ct systemctl restart cuzk-gateway || fail "systemctl restart cuzk-gateway"
wait_for 20 active cuzk-gateway || fail "cuzk-gateway is not active"
https() { # https METHOD PATH [BODY]: the body of the gateway's answer (curl in the container, the test CA)
  ct curl -sf --cacert "$etc/tls/ca.pem" -X "$1" -H "Authorization: Bearer $token" -H 'Content-Type: application/json' \
    ${3:+--data "$3"} "https://127.0.0.1:18443$2"
}
wait_for 10 https GET /v1/capacity || fail "the gateway does not answer: $(ct journalctl --no-pager -n 20 -u cuzk-gateway)"
server_pid=$(prop cuzk-gpu-server MainPID)
gwjob=$(https POST /v1/proofs '{"circuit": "bounded-cpp", "inputs": {"x": ["11", "22", "33", "44"], "bound": "1000"}}' |
  grep -oE '"id":"[^"]+"' | cut -d'"' -f4) || fail "POST /v1/proofs through the gateway"
gwmain=$(prop cuzk-gateway MainPID)
ct kill -9 "$gwmain"
wait_for 30 bash -c "[[ \$(nsenter -t $pid -a systemctl show -p MainPID --value cuzk-gateway) != $gwmain && \$(nsenter -t $pid -a systemctl show -p ActiveState --value cuzk-gateway) == active ]]" ||
  fail "systemd did not restart cuzk-gateway"
[[ $(prop cuzk-gpu-server MainPID) == "$server_pid" ]] || fail "killing the gateway touched the GPU server"
wait_for 10 https GET /v1/capacity || fail "the restarted gateway does not answer"
https GET "/v1/proofs/$gwjob?wait=60" > "$work/gw.json" || fail "GET the job after the gateway's restart"
ct sh -c "cat > /tmp/gw.json" < "$work/gw.json"
ct node -e 'const j=require("/tmp/gw.json");if(j.state!=="done")process.exit(1);const fs=require("fs");
  fs.writeFileSync("/tmp/gw-proof.json",JSON.stringify(j.proof));fs.writeFileSync("/tmp/gw-pub.json",JSON.stringify(j.public_signals))' ||
  fail "the job through the gateway: $(cat "$work/gw.json")"
ct "$bin/cuzk" verify --vk /var/lib/cuzk/circom/vk.json --proof /tmp/gw-proof.json --public /tmp/gw-pub.json \
  > "$work/gwverify.log" 2>&1 || fail "the gateway's proof does not verify: $(cat "$work/gwverify.log")"
echo "ok: cuzk-gateway under systemd (user cuzk-gateway): a proof from inputs over HTTPS; kill -9 -> restarted, the server untouched, the job still there"
# journald-friendly logs: no timestamps of our own, the priority taken from the <N> prefix
wait_for 10 journal_has '^\[gpu-server\] proven job=' -o cat -u cuzk-gpu-server ||
  fail "no '[gpu-server] proven job=' line in the journal within 10 s"
jl=$(ct journalctl --no-pager -o cat -u cuzk-gpu-server)
grep -qE '^(<[0-9]>|\[20[0-9][0-9]-)' <<<"$jl" && fail "journal lines carry a priority prefix or a timestamp of their own"
ct journalctl --no-pager -o cat -p warning -u cuzk-gpu-server | grep -q 'proven job=' &&
  fail "info lines were logged at warning priority"
echo "ok: the journal has the server's lines without timestamps, at their priority"
get() { ct bash -c "exec 3<>/dev/tcp/127.0.0.1/19464 && printf 'GET $1 HTTP/1.0\r\nHost: cuzk\r\n\r\n' >&3 && cat <&3"; }
# The series as the server counts them; the second worker may announce itself after the first job.
# (the three circom jobs, one through the gateway, are bn254's)
series=('cuzk_proofs_completed_total{curve="bls12-381"} 1' 'cuzk_workers 2' 'cuzk_proof_duration_seconds_count{curve="bls12-381"} 1'
        'cuzk_queue_depth{priority="normal"}' 'cuzk_jobs{state="done"} 4' 'cuzk_uptime_seconds'
        'cuzk_proofs_completed_total{curve="bn254"} 3' 'cuzk_witness_seconds_count{circuit="bounded-cpp"} 2'
        'cuzk_witness_seconds_count{circuit="bounded-wasm"} 1')
missing_series() {
  local m s
  m=$(get /metrics)
  for s in "${series[@]}"; do grep -qF "$s" <<<"$m" || { echo "$s"; return 0; }; done
  return 1
}
no_missing_series() { ! missing_series; }
wait_for 10 no_missing_series || fail "/metrics lacks '$(missing_series)' after 10 s"
get /healthz | head -1 | grep -q ' 200 ' || fail "/healthz did not answer 200"
get /readyz | head -1 | grep -q ' 200 ' || fail "/readyz did not answer 200"
echo "ok: /metrics, /healthz and /readyz answer with the expected series"

# kill -9 of the server while a partition is in flight
submit inflight big >"$work/inflight.log" 2>&1 || fail "submit inflight: $(cat "$work/inflight.log")"
filled() { ct setpriv --reuid=cuzk --regid=cuzk --init-groups "$bin/cuzk-shm" status --name cuzk-deploy --json | grep -qE '"state": *"(filled|proving)"'; }
wait_for 120 filled || fail "the in-flight job never reached a FILLED slot"
main=$(prop cuzk-gpu-server MainPID)
ct kill -9 "$main"
echo "killed the server (pid $main in the container) with a slot FILLED or PROVING"
wait_for 30 bash -c "[[ \$(nsenter -t $pid -a systemctl show -p MainPID --value cuzk-gpu-server) != $main ]]" ||
  fail "systemd did not restart the server"
wait_for 60 active cuzk-gpu-server || fail "the restarted server did not become READY"
submit inflight big --wait --proof /tmp/p2.json --public /tmp/pub2.json >"$work/inflight2.log" 2>&1 ||
  fail "the in-flight job after the restart: $(cat "$work/inflight2.log")"
syn=$(client status --endpoint "$ep" --job-id inflight --json | grep -oE '"syntheses": *[0-9]+' | grep -oE '[0-9]+$')
[[ $syn == 1 ]] || fail "the in-flight job was synthesized $syn times"
echo "ok: server restarted by systemd (NRestarts $(prop cuzk-gpu-server NRestarts)); the job finished, 1 synthesis"

# kill -9 of a worker
wmain=$(prop cuzk-synth-worker@1 MainPID)
ct kill -9 "$wmain"
wait_for 30 bash -c "[[ \$(nsenter -t $pid -a systemctl show -p MainPID --value cuzk-synth-worker@1) != $wmain && \$(nsenter -t $pid -a systemctl show -p ActiveState --value cuzk-synth-worker@1) == active ]]" ||
  fail "systemd did not restart worker@1"
submit after-worker small --wait --proof /tmp/p3.json --public /tmp/pub3.json >"$work/w.log" 2>&1 ||
  fail "a job after the worker restart: $(cat "$work/w.log")"
echo "ok: worker@1 restarted by systemd; a job proven after it"

# a stalled event loop: the watchdog restarts the server
ct mkdir -p /run/systemd/system/cuzk-gpu-server.service.d
ct sh -c 'printf "[Service]\nWatchdogSec=2\nEnvironment=CUZK_FAILPOINT=server.tick:20:stall\n" > /run/systemd/system/cuzk-gpu-server.service.d/stall.conf'
ct systemctl daemon-reload
ct systemctl restart cuzk-gpu-server
before=$(prop cuzk-gpu-server NRestarts)
wait_for 30 bash -c "(( \$(nsenter -t $pid -a systemctl show -p NRestarts --value cuzk-gpu-server) > $before ))" ||
  fail "the stalled server was not restarted by the watchdog"
wait_for 10 journal_has '[Ww]atchdog timeout' -u cuzk-gpu-server || fail "no watchdog timeout in the journal within 10 s"
ct rm /run/systemd/system/cuzk-gpu-server.service.d/stall.conf
ct systemctl daemon-reload
ct systemctl restart cuzk-gpu-server
wait_for 60 active cuzk-gpu-server || fail "the server did not come back after the watchdog test"
echo "ok: a stalled loop was restarted by the watchdog"

# stop everything: the pool stays
ct systemctl stop cuzk.target
for u in cuzk-gpu-server cuzk-synth-worker@1 cuzk-synth-worker@2 cuzk-gateway cuzk-shm; do
  wait_for 30 bash -c "[[ \$(nsenter -t $pid -a systemctl show -p ActiveState --value $u) == inactive ]]" ||
    fail "$u did not stop cleanly: $(prop $u ActiveState) $(prop $u Result)"
  [[ $(prop $u Result) == success ]] || fail "$u stopped with result $(prop $u Result)"
done
ct test -e /dev/shm/cuzk/cuzk-deploy || fail "stopping cuzk.target removed the pool"
echo "ok: systemctl stop cuzk.target: every unit inactive (success), the pool /dev/shm/cuzk/cuzk-deploy remains"
echo "PASS"
