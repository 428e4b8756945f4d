#!/usr/bin/env bash
# cuzk-gateway's throughput and latency (issue 40), on this machine, in one run:
#  1. requests per second for a job's status (GET /v1/proofs/{id}), the capacity and submits (POST /v1/proofs),
#     over TLS 1.3 and plaintext loopback, CONC keep-alive clients (gateway_load.mjs) for SECONDS each;
#     submits go to a node with no worker (they only queue), so they measure the gateway and the node's queue;
#     the proofs below go to another node, with one worker and an empty queue;
#  2. a small proof (the witness fixture's `bounded`, 4 range checks, bn128) from inputs, one after another:
#     through HTTPS by a keep-alive client (POST, then GET ?wait=; for SECONDS), and RUNS times by curl (a process
#     and a TLS handshake per request, as a shell script does) and by the ipc CLI (cuzk submit --circuit --inputs
#     --wait --proof --public: a process per proof); p50 and p99 of each.
# Needs a build (CUZK_BUILD, default build/) whose tests made the witness fixture (ctest -R interop.witness).
#   bench/e2e/gateway_bench.sh [RUNS] [CONC] [SECONDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/../.." && pwd)
runs=${1:-50} conc=${2:-4} secs=${3:-10}
b=$(realpath "${CUZK_BUILD:-$root/build}")
fixture=$b/tests/interop/witness-work/bn128
[ -f "$fixture/bounded.zkey" ] || { echo "no $fixture: run ctest -R interop.witness.fixture first" >&2; exit 2; }
work=$b/bench-gateway
rm -rf "$work" && mkdir -p "$work" && cd "$work"
pool=cuzk-gwbench-$$ pids=()
cleanup() {
  kill "${pids[@]}" 2> /dev/null
  wait 2> /dev/null
  for n in queue prove; do "$b/shm/tool/cuzk-shm" destroy --force --name "$pool-$n" > /dev/null 2>&1 || true; done
}
trap cleanup EXIT
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 1 -subj "/CN=ca" -keyout ca.key -out ca.pem 2> /dev/null
openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=localhost" -keyout key.pem -out req.csr 2> /dev/null
printf 'subjectAltName=IP:127.0.0.1\n' > ext
openssl x509 -req -in req.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 1 -extfile ext -out cert.pem 2> /dev/null
start_node() { # NAME: a pool with bounded installed and a server at ipc://$work/NAME.sock
  "$b/shm/tool/cuzk-shm" create --name "$pool-$1" --slots 2x2048 --jobs 16384 > /dev/null
  "$b/client/cuzk" circuit install bounded --pool "$pool-$1" --zkey "$fixture/bounded.zkey" \
    --cpp "$fixture/bounded_cpp/bounded" > /dev/null 2>&1
  "$b/gpu-server/cuzk-gpu-server" --pool "$pool-$1" --endpoint "ipc://$work/$1.sock" --backend cpu --gateway "$(id -u)" \
    --max-jobs-per-client 8192 > "server-$1.log" 2>&1 &
  pids+=($!)
  for _ in $(seq 100); do [ -S "$1.sock" ] && break; sleep 0.1; done
}
start_node queue
start_node prove
"$b/client/cuzk" keygen --api bench --api-dir keys > token 2> /dev/null
"$b/client/cuzk" keygen --api bench2 --api-dir keys > token2 2> /dev/null  # a key's jobs are bounded: one a scheme
token=$(cat token) token2=$(cat token2)
gateway() { # PORT NODE ARGS...
  "$b/gateway/cuzk-gateway" --listen "127.0.0.1:$1" --endpoint "ipc://$work/$2.sock" --api-keys keys \
    --requests-per-second 1000000 --max-connections-per-key 1024 "${@:3}" > "gateway-$1.log" 2>&1 &
  pids+=($!)
  sleep 0.5
}
gateway 18443 queue --tls-cert cert.pem --tls-key key.pem
gateway 18080 queue --insecure-loopback
gateway 18444 prove --tls-cert cert.pem --tls-key key.pem
echo "{\"x\": [\"11\", \"22\", \"33\", \"44\"], \"bound\": \"1000\"}" > in.json
load() { node "$root/bench/e2e/gateway_load.mjs" "$@"; }

echo "== requests per second ($conc clients, ${secs} s each; $(nproc) cores: $(lscpu | sed -n 's/^Model name: *//p'))"
id=$(curl -s --cacert ca.pem -H "Authorization: Bearer $token" -d "{\"circuit\": \"bounded\", \"inputs\": $(cat in.json)}" \
  https://127.0.0.1:18443/v1/proofs | sed 's/.*"id":"\([^"]*\)".*/\1/')
id2=$(curl -s -H "Authorization: Bearer $token2" -d "{\"circuit\": \"bounded\", \"inputs\": $(cat in.json)}" \
  http://127.0.0.1:18080/v1/proofs | sed 's/.*"id":"\([^"]*\)".*/\1/')
for scheme in "https://127.0.0.1:18443 ca.pem $token $id" "http://127.0.0.1:18080 - $token2 $id2"; do
  set -- $scheme
  for kind in status capacity submit; do load "$1" "$2" "$3" "$kind" "$conc" "$secs" "$4"; done
done

echo "== a small proof, $runs times: HTTPS (curl) and the ipc CLI"
"$b/synth-worker/cuzk-synth-worker" --pool "$pool-prove" --endpoint "ipc://$work/prove.sock.worker" --name w1 > worker.log 2>&1 &
pids+=($!)
sleep 1
load https://127.0.0.1:18444 ca.pem "$token" prove 1 "$secs"
pct() { sort -n | awk -v p="$1" '{a[NR]=$1} END {i=int(p*NR); if (i<1) i=1; if (i>NR) i=NR; printf "%.1f", a[i]*1000}'; }
: > http.txt
: > cli.txt
for i in $(seq "$runs"); do
  t0=$(date +%s.%N)
  j=$(curl -s --cacert ca.pem -H "Authorization: Bearer $token" -d "{\"circuit\": \"bounded\", \"inputs\": $(cat in.json)}" \
    https://127.0.0.1:18444/v1/proofs | sed 's/.*"id":"\([^"]*\)".*/\1/')
  curl -s --cacert ca.pem -H "Authorization: Bearer $token" "https://127.0.0.1:18444/v1/proofs/$j?wait=60" | grep -q '"state":"done"'
  t1=$(date +%s.%N)
  "$b/client/cuzk" submit --endpoint "ipc://$work/prove.sock" --circuit bounded --inputs in.json --wait \
    --proof p.json --public pub.json > cli.log 2>&1 ||
    { echo "cuzk submit: $(cat cli.log)" >&2; exit 1; }
  t2=$(date +%s.%N)
  awk -v a="$t0" -v b="$t1" 'BEGIN {print b - a}' >> http.txt
  awk -v a="$t1" -v b="$t2" 'BEGIN {print b - a}' >> cli.txt
done
echo "HTTPS by curl (POST + GET ?wait): p50 $(pct 0.5 < http.txt) ms, p99 $(pct 0.99 < http.txt) ms"
echo "ipc CLI (cuzk submit --wait):     p50 $(pct 0.5 < cli.txt) ms, p99 $(pct 0.99 < cli.txt) ms"
