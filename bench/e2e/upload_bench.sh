#!/usr/bin/env bash
# Streamed files (issue 22): MB/s of one client streaming into the server's
# spool (Upload chunks of 128 KiB, each acknowledged before the next) over
# the ipc socket, over TCP with CURVE on loopback, and over plaintext TCP on
# loopback (--insecure-loopback), on one machine (docs/benchmarks.md).
#   bench/e2e/upload_bench.sh BUILD_DIR [MIB] [ROUNDS]
set -euo pipefail
b=$(cd "${1:?build dir}" && pwd) mib=${2:-256} rounds=${3:-3}
work=$(mktemp -d /tmp/cuzk-upload-bench.XXXXXX)
pool=cuzk-upload-bench-$$ ep="ipc://$work/cuzk.sock"
pid=
stop() {
  [[ -n "$pid" ]] && { kill -TERM "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; }
  pid=
}
trap 'stop; "$b/shm/tool/cuzk-shm" destroy --force --name "$pool" >/dev/null 2>&1 || true; rm -rf "$work"' EXIT
endpoint() { # the tcp endpoint the server logged
  for _ in $(seq 100); do
    e=$(grep -o 'network clients on tcp://[0-9.:]*' "$work/server.log" | head -1 | cut -d' ' -f4)
    [[ -n "$e" ]] && { echo "$e"; return; }
    sleep 0.1
  done
  cat "$work/server.log" >&2
  exit 1
}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | xargs)"
"$b/shm/tool/cuzk-shm" create --name "$pool" --slots 2x4096 > /dev/null
mkdir -p "$work/clients.d"
"$b/client/cuzk" keygen --out "$work/server.key" > /dev/null 2>&1
"$b/client/cuzk" keygen --out "$work/client.key" > /dev/null 2>&1
cp "$work/client.key.pub" "$work/clients.d/bench.pub"
quota=$(( (mib * rounds * 2 + 1023) / 1024 + 1 ))
run() { # run LABEL SERVER-ARGS... -- BENCH-ARGS...
  local label=$1
  shift
  local sargs=() bargs=()
  while [[ $1 != -- ]]; do sargs+=("$1"); shift; done
  shift
  bargs=("$@")
  "$b/gpu-server/cuzk-gpu-server" --pool "$pool" --endpoint "$ep" --backend cpu --spool-dir "$work/spool" \
    --max-spool-per-client "$quota" "${sargs[@]}" > "$work/server.log" 2>&1 &
  pid=$!
  local target=$ep
  if [[ " ${sargs[*]} " == *" --network-endpoint "* ]]; then target=$(endpoint); fi
  "$b/bench/e2e/cuzk-bench" --endpoint "$target" --upload-mib "$mib" --upload-rounds "$rounds" "${bargs[@]}" |
    sed "s/^/$label /"
  stop
}
run ipc --
run curve --network-endpoint 'tcp://127.0.0.1:*' --server-key "$work/server.key" --clients-dir "$work/clients.d" -- \
  --curve-key "$work/client.key" --server-public "$work/server.key.pub"
run plain --network-endpoint 'tcp://127.0.0.1:*' --insecure-loopback --
