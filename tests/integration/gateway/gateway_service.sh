#!/usr/bin/env bash
# cuzk-gateway in front of a node (issue 40, first part): a user with only
# curl and an API key proves an installed circom circuit from its inputs
# (POST /v1/proofs, GET /v1/proofs/{id}?wait=), the proof verified by
# snarkjs; the key's jobs are its own (another key sees none of them); a
# missing, unknown or revoked key gets 401 problem+json; an unknown circuit
# and a bad body get the node's sentence; DELETE cancels a queued job.
# (That the server takes on_behalf_of from its trusted gateway only is
# tests/integration/service/gateway_identity_test.cpp.)
#   gateway_service.sh CUZK CUZK_SHM GPU_SERVER SYNTH_WORKER GATEWAY FIXTURE_DIR WORKDIR
set -euo pipefail
abs() { realpath -m -- "$1"; }
cuzk=$(abs "$1") cuzk_shm=$(abs "$2") server_bin=$(abs "$3") worker_bin=$(abs "$4") gateway_bin=$(abs "$5")
fixture=$(abs "$6") work=$(abs "$7")
bin=$(cd "$(dirname "$0")/../../interop" && pwd)/node_modules/.bin
snarkjs() { node "$bin/snarkjs" "$@"; }
. "$(dirname "$0")/../service/service_lib.sh"
gateway_pid=""
trap 'code=$?; kill -9 $gateway_pid 2> /dev/null; (exit $code); service_cleanup' EXIT

rm -rf "$work"
mkdir -p "$work"
cd "$work"
pool=cuzk-gateway-$$
endpoint=ipc://$work/cuzk.sock

step "a node with one circuit installed, trusting this uid as its gateway"
"$cuzk_shm" create --name "$pool" --slots 2x2048 --jobs 32 > shm.log
"$cuzk" circuit install bounded --pool "$pool" --zkey "$fixture/bn128/bounded.zkey" \
  --cpp "$fixture/bn128/bounded_cpp/bounded" --sym "$fixture/bn128/bounded.sym" > install.log
"$server_bin" --pool "$pool" --endpoint "$endpoint" --backend cpu --gateway "$(id -u)" > server.log 2>&1 &
server_pid=$!
for _ in $(seq 100); do [ -S "$work/cuzk.sock" ] && break; sleep 0.1; done
"$cuzk" keygen --api alice --api-dir api-keys.d > alice.token
"$cuzk" keygen --api bob --api-dir api-keys.d > bob.token
"$gateway_bin" --listen 127.0.0.1:0 --insecure-loopback --endpoint "$endpoint" --api-keys api-keys.d > gateway.log 2>&1 &
gateway_pid=$!
url=""
for _ in $(seq 100); do
  url=$(sed -n 's/.*gateway on \(http:[^ ]*\).*/\1/p' gateway.log | head -1)
  [ -n "$url" ] && break
  sleep 0.1
done
[ -n "$url" ] || fail "the gateway did not start: $(cat gateway.log)"
alice=$(cat alice.token) bob=$(cat bob.token)
inputs='{"x": ["11", "22", "33", "44"], "bound": "1000"}' # four values below the bound
api() { # WHO METHOD PATH [BODY]: prints "STATUS BODY"
  local who=$1 method=$2 path=$3
  shift 3
  curl -s -o body.json -w '%{http_code}' -X "$method" -H "Authorization: Bearer $who" \
    -H 'Content-Type: application/json' ${1:+--data "$1"} "$url$path"
}

step "without a good key: 401 problem+json"
code=$(curl -s -o body.json -w '%{http_code}' "$url/v1/capacity")
[ "$code" = 401 ] && grep -q '"status":401' body.json || fail "no key: $code $(cat body.json)"
code=$(api cuzk_not-a-key GET /v1/capacity)
[ "$code" = 401 ] || fail "an unknown key: $code"

step "the circuits a key may prove"
code=$(api "$alice" GET /v1/circuits)
[ "$code" = 200 ] && node -e 'const c=require("./body.json").circuits;
  if(c.length!==1||c[0].name!=="bounded"||c[0].generator!=="cpp")throw new Error(JSON.stringify(c))' ||
  fail "GET /v1/circuits: $code $(cat body.json)"

step "a job queued with no worker yet is cancelled by DELETE"
code=$(api "$alice" POST /v1/proofs "{\"circuit\": \"bounded\", \"inputs\": $inputs}")
[ "$code" = 202 ] || fail "POST /v1/proofs: $code $(cat body.json)"
first=$(node -p 'require("./body.json").id')
code=$(api "$alice" DELETE "/v1/proofs/$first")
[ "$code" = 200 ] && grep -q 'cancelled by its client' body.json || fail "DELETE: $code $(cat body.json)"

step "with a worker: inputs to a proof over HTTP, verified by snarkjs"
"$worker_bin" --pool "$pool" --endpoint "$endpoint.worker" --name worker@1 > worker.log 2>&1 &
worker_pids+=($!)
code=$(api "$alice" POST /v1/proofs "{\"circuit\": \"bounded\", \"inputs\": $inputs}")
[ "$code" = 202 ] || fail "POST /v1/proofs: $code $(cat body.json)"
id=$(node -p 'require("./body.json").id')
code=$(api "$alice" GET "/v1/proofs/$id?wait=60s")
[ "$code" = 200 ] || fail "GET ?wait: $code $(cat body.json)"
node -e 'const j=require("./body.json");if(j.state!=="done")throw new Error(JSON.stringify(j));
  require("fs").writeFileSync("proof.json",JSON.stringify(j.proof));require("fs").writeFileSync("public.json",JSON.stringify(j.public_signals));
  if(!(j.phases&&j.phases.witness_s>0))throw new Error("no witness phase: "+JSON.stringify(j.phases))'
snarkjs groth16 verify "$fixture/bn128/vk.json" public.json proof.json | grep -q OK || fail "snarkjs rejects the proof"
echo "proven over HTTP and verified by snarkjs"

step "each key sees only its own jobs; bad requests get the node's sentence"
code=$(api "$bob" GET "/v1/proofs/$id")
[ "$code" = 404 ] || fail "bob reads alice's job: $code $(cat body.json)"
code=$(api "$alice" POST /v1/proofs '{"circuit": "no-such", "inputs": {}}')
[ "$code" = 404 ] && grep -q 'holds no circuit no-such' body.json || fail "unknown circuit: $code $(cat body.json)"
code=$(api "$alice" POST /v1/proofs '{"circuit": "bounded", "inputs": {"x": ["1"], "bound": "2"}}')
[ "$code" = 400 ] && grep -q 'input signal x takes 4 values' body.json || fail "short inputs: $code $(cat body.json)"
code=$(api "$alice" POST /v1/proofs 'not json')
[ "$code" = 400 ] || fail "a body that is not JSON: $code"

step "a revoked key is refused within a second"
rm api-keys.d/bob
sleep 1.1
code=$(api "$bob" GET /v1/capacity)
[ "$code" = 401 ] || fail "a revoked key: $code"

echo PASS
