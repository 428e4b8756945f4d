#!/usr/bin/env bash
# cuzk-gateway in front of a node (issue 40): a user with only curl and an
# API key proves an installed circom circuit over HTTPS (a test CA made here
# with openssl), and so does Node's fetch; every route of the API, the
# requests iden3's prover-server and rapidsnark's proverServer take, a
# witness uploaded with its request (sized and chunked), webhooks (signed,
# retried, never to a host off the allow-list, kept across a kill -9 of the
# gateway), keys (another key sees
# nothing, a revoked key gets 401 within a second); every proof verified by
# snarkjs, and every response recorded and checked against the OpenAPI
# document by an OpenAPI validator and Ajv (openapi_check.mjs).
# (That the server takes on_behalf_of from its trusted gateway only is
# tests/integration/service/gateway_identity_test.cpp.)
#   gateway_service.sh CUZK CUZK_SHM GPU_SERVER SYNTH_WORKER GATEWAY FIXTURE_DIR WORKDIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/gateway_lib.sh"
gateway_test_start "$@"
snarkjs() { node "$nm/.bin/snarkjs" "$@"; }
verify() { # JSON_FILE PROOF_KEY SIGNALS_KEY: snarkjs verifies it
  node -e 'const j=require(process.argv[1]);const fs=require("fs");
    const p=typeof j[process.argv[2]]==="string"?JSON.parse(j[process.argv[2]]):j[process.argv[2]];
    const s=typeof j[process.argv[3]]==="string"?JSON.parse(j[process.argv[3]]):j[process.argv[3]];
    fs.writeFileSync("proof.json",JSON.stringify({...p,curve:"bn128"}));fs.writeFileSync("public.json",JSON.stringify(s))' \
    "$PWD/$1" "$2" "$3"
  snarkjs groth16 verify "$fixture/bn128/vk.json" public.json proof.json | grep -q OK || fail "snarkjs rejects $1"
}

step "a test CA; plaintext off loopback and TLS without a key are refused at start"
make_test_ca
"$cuzk" keygen --api alice --api-dir api-keys.d > alice.token
"$cuzk" keygen --api bob --api-dir api-keys.d > bob.token
alice=$(cat alice.token) bob=$(cat bob.token)
! "$gateway_bin" --listen 0.0.0.0:0 --insecure-loopback --api-keys api-keys.d > refused.log 2>&1 ||
  fail "plaintext on 0.0.0.0 was served"
grep -q "not a loopback address" refused.log || fail "no sentence: $(cat refused.log)"
! "$gateway_bin" --listen 127.0.0.1:0 --tls-cert server.pem --api-keys api-keys.d > refused.log 2>&1 ||
  fail "a certificate without its key was served"

step "a node, and the gateway on TLS 1.3 with webhooks allowed to 127.0.0.1"
start_node --spool-dir "$work/spool"
node "$here/webhook_receiver.mjs" api-keys.d/alice hooks > receiver.log 2>&1 &
extra_pids+=($!)
start_gateway gateway.log --listen 127.0.0.1:0 --tls-cert server.pem --tls-key server.key \
  --webhook-allow 127.0.0.1/32 --webhook-backoff 0.2 --webhook-attempts 3 --state-dir state
case "$url" in https://127.0.0.1:*) ;; *) fail "not https: $url" ;; esac
for _ in $(seq 50); do [ -s hooks/port ] && break; sleep 0.1; done
hook=http://127.0.0.1:$(cat hooks/port)
openssl s_client -connect "${url#https://}" -tls1_2 -CAfile ca.pem < /dev/null > tls12.log 2>&1 &&
  fail "a TLS 1.2 handshake succeeded"
curl -s --cacert ca.pem "$url/v1/openapi.json" -o /dev/null -w '%{ssl_verify_result}' | grep -qx 0 ||
  fail "curl does not verify the gateway against the test CA"

step "without a good key: 401 problem+json; the document needs none"
code=$(api "" GET /v1/capacity)
[ "$code" = 401 ] && grep -q '"status":401' body.json || fail "no key: $code $(cat body.json)"
code=$(api cuzk_not-a-key GET /v1/capacity)
[ "$code" = 401 ] || fail "an unknown key: $code"
code=$(api "" GET /v1/openapi.json)
[ "$code" = 200 ] && cp body.json served-openapi.json || fail "GET /v1/openapi.json: $code"
code=$(api "$alice" GET /metrics)
[ "$code" = 200 ] && grep -q cuzk_gateway_requests_total body.json || fail "GET /metrics: $code"

step "the circuits a key may prove; the capacity"
code=$(api "$alice" GET /v1/circuits)
[ "$code" = 200 ] && node -e 'const c=require("./body.json").circuits;
  if(c.length!==1||c[0].name!=="bounded"||c[0].generator!=="cpp")throw new Error(JSON.stringify(c))' ||
  fail "GET /v1/circuits: $code $(cat body.json)"
code=$(api "$alice" GET /v1/capacity)
[ "$code" = 200 ] || fail "GET /v1/capacity: $code $(cat body.json)"

inputs='{"x": ["11", "22", "33", "44"], "bound": "1000"}' # four values below the bound
step "a job queued with no worker yet is cancelled by DELETE"
code=$(post_json "$alice" /v1/proofs "{\"circuit\": \"bounded\", \"inputs\": $inputs}")
[ "$code" = 202 ] || fail "POST /v1/proofs: $code $(cat body.json)"
first=$(node -p 'require("./body.json").id')
code=$(api "$alice" DELETE "/v1/proofs/$first")
[ "$code" = 200 ] && grep -q 'cancelled by its client' body.json || fail "DELETE: $code $(cat body.json)"

step "with a worker: inputs to a proof over HTTPS with curl, verified by snarkjs; Idempotency-Key"
start_worker 1
code=$(post_json "$alice" /v1/proofs "{\"circuit\": \"bounded\", \"inputs\": $inputs, \"priority\": \"high\"}" \
  -H 'Idempotency-Key: alice-job-1')
[ "$code" = 202 ] && grep -q '"created":true' body.json || fail "POST /v1/proofs: $code $(cat body.json)"
code=$(post_json "$alice" /v1/proofs "{\"circuit\": \"bounded\", \"inputs\": $inputs}" -H 'Idempotency-Key: alice-job-1')
[ "$code" = 202 ] && grep -q '"created":false' body.json || fail "the same Idempotency-Key again: $code $(cat body.json)"
code=$(api "$alice" GET "/v1/proofs/alice-job-1?wait=60s")
[ "$code" = 200 ] || fail "GET ?wait: $code $(cat body.json)"
node -e 'const j=require("./body.json");if(j.state!=="done"||!(j.phases&&j.phases.witness_s>0))throw new Error(JSON.stringify(j))'
verify body.json proof public_signals
echo "proven over HTTPS and verified by snarkjs"

step "Node's fetch over TLS (the test CA as NODE_EXTRA_CA_CERTS)"
NODE_EXTRA_CA_CERTS=$PWD/ca.pem node -e '
  const [url, key, inputs] = process.argv.slice(1);
  const h = { Authorization: "Bearer " + key, "Content-Type": "application/json" };
  (async () => {
    let r = await fetch(url + "/v1/proofs", { method: "POST", headers: h, body: JSON.stringify({ circuit: "bounded", inputs: JSON.parse(inputs) }) });
    if (r.status !== 202) throw new Error("POST " + r.status);
    const { id } = await r.json();
    r = await fetch(url + "/v1/proofs/" + id + "?wait=60", { headers: h });
    const j = await r.json();
    if (j.state !== "done") throw new Error(JSON.stringify(j));
    require("fs").writeFileSync("fetched.json", JSON.stringify(j));
  })().catch((e) => { console.error(e); process.exit(1); });' "$url" "$alice" "$inputs" || fail "Node's fetch"
verify fetched.json proof public_signals

step "a witness uploaded with its request: with a Content-Length, and chunked"
echo "$inputs" > in.json
"$fixture/bn128/bounded_cpp/bounded" in.json w.wtns > /dev/null
code=$(api "$alice" POST "/v1/proofs?key=$key_id" -H 'Content-Type: application/octet-stream' --data-binary @w.wtns)
[ "$code" = 202 ] || fail "POST a witness: $code $(cat body.json)"
code=$(api "$alice" GET "/v1/proofs/$(node -p 'require("./body.json").id')?wait=60")
verify body.json proof public_signals
code=$(api "$alice" POST "/v1/proofs?key=$key_id" -H 'Content-Type: application/octet-stream' \
  -H 'Transfer-Encoding: chunked' --data-binary @w.wtns)
[ "$code" = 202 ] || fail "POST a chunked witness: $code $(cat body.json)"
code=$(api "$alice" GET "/v1/proofs/$(node -p 'require("./body.json").id')?wait=60")
verify body.json proof public_signals
head -c 100 w.wtns > short.wtns
code=$(api "$alice" POST "/v1/proofs?key=$key_id" -H 'Content-Type: application/octet-stream' --data-binary @short.wtns)
[ "$code" = 400 ] || fail "a cut witness: $code $(cat body.json)"
code=$(api "$alice" POST "/v1/proofs?key=no-such-key" -H 'Content-Type: application/octet-stream' --data-binary @w.wtns)
[ "$code" -ge 400 ] && [ "$code" -lt 500 ] || fail "a witness for an unknown key: $code $(cat body.json)"
echo "witness uploads: $(grep -c . "$responses") responses so far"

step "iden3 prover-server's request: POST /api/v1/proof/generate {circuit_name, inputs}"
code=$(post_json "$alice" /api/v1/proof/generate "{\"circuit_name\": \"bounded\", \"inputs\": $inputs}")
[ "$code" = 200 ] || fail "iden3 generate: $code $(cat body.json)"
node -e 'const j=require("./body.json");if(Object.keys(j).join()!=="proof,pub_signals"||"curve" in j.proof)throw new Error(JSON.stringify(j))'
verify body.json proof pub_signals
code=$(post_json "$alice" /api/v1/proof/generate '{"circuit_name": "../bounded", "inputs": {}}')
[ "$code" = 400 ] && [ "$(cat body.json)" = '{"code":0,"details":"illegal circuitPath","error":"illegal circuitPath"}' ] ||
  fail "iden3 path traversal: $code $(cat body.json)"
code=$(post_json "$alice" /api/v1/proof/generate '{"circuit_name": "nope", "inputs": {}}')
grep -q "circuitPath doesn't exist" body.json || fail "iden3 unknown circuit: $code $(cat body.json)"
code=$(api "$alice" GET /api/v1/status)
[ "$(cat body.json)" = '{"status":"up and running"}' ] || fail "iden3 status: $(cat body.json)"

step "rapidsnark proverServer's requests: POST /input/<circuit>, GET /status, POST /cancel"
code=$(api "$bob" GET /status)
[ "$(cat body.json)" = '{"status":"ready"}' ] || fail "rapidsnark ready: $(cat body.json)"
code=$(api "$bob" POST /input/bounded -H 'Content-Type: application/json' --data "$inputs")
[ "$code" = 200 ] && [ ! -s body.json ] || fail "rapidsnark input: $code $(cat body.json)"
for _ in $(seq 300); do
  api "$bob" GET /status > /dev/null
  grep -q '"status":"busy"' body.json || break
  sleep 0.2
done
grep -q '"status":"success"' body.json || fail "rapidsnark status: $(cat body.json)"
verify body.json proof pubData
code=$(api "$bob" POST /input/no-such -H 'Content-Type: application/json' --data "$inputs")
api "$bob" GET /status > /dev/null
grep -q '"status":"failed"' body.json && grep -q 'no-such' body.json || fail "rapidsnark unknown circuit: $(cat body.json)"
code=$(api "$bob" POST /cancel)
[ "$code" = 200 ] || fail "rapidsnark cancel: $code"

step "webhooks: signed, retried after a 500, never redirected, never off the allow-list"
for path in ok flaky redirect; do
  code=$(post_json "$alice" /v1/proofs "{\"circuit\": \"bounded\", \"inputs\": $inputs, \"callback_url\": \"$hook/$path\"}")
  [ "$code" = 202 ] || fail "POST with callback_url $path: $code $(cat body.json)"
done
code=$(api "$alice" POST "/v1/proofs?key=$key_id&callback_url=$(node -p 'encodeURIComponent(process.argv[1])' "$hook/ok")" \
  -H 'Content-Type: application/octet-stream' --data-binary @w.wtns)
[ "$code" = 202 ] || fail "a witness with a callback_url: $code $(cat body.json)"
for target in http://10.0.0.1/x http://169.254.169.254/latest/meta-data "http://evil.example/x" "ftp://127.0.0.1/x"; do
  code=$(post_json "$alice" /v1/proofs "{\"circuit\": \"bounded\", \"inputs\": $inputs, \"callback_url\": \"$target\"}")
  [ "$code" = 400 ] || fail "a webhook to $target: $code $(cat body.json)"
done
# A second gateway allows the name localhost but not its address: refused at delivery, not delivered.
main_url=$url main_pid=$gateway_pid
# (it also lets requests without a key act as alice, for clients that send none: --anonymous-key)
start_gateway gateway2.log --listen 127.0.0.1:0 --tls-cert server.pem --tls-key server.key --webhook-allow localhost \
  --anonymous-key alice
code=$(api "" GET "/v1/proofs/alice-job-1")
[ "$code" = 200 ] && grep -q '"state":"done"' body.json || fail "a request without a key as --anonymous-key: $code"
code=$(api cuzk_not-a-key GET /v1/capacity)
[ "$code" = 401 ] || fail "a wrong key under --anonymous-key: $code"
code=$(post_json "$alice" /v1/proofs "{\"circuit\": \"bounded\", \"inputs\": $inputs, \"callback_url\": \"http://localhost:$(cat hooks/port)/ok\"}")
[ "$code" = 202 ] || fail "a webhook to localhost: $code $(cat body.json)"
for _ in $(seq 150); do
  [ "$(grep -c 'signature=ok' receiver.log)" -ge 5 ] && grep -q "given up" gateway.log && grep -q "given up" gateway2.log && break
  sleep 0.2
done
kill $gateway_pid
url=$main_url gateway_pid=$main_pid
grep -q 'POST /ok .*try=2' receiver.log || fail "the /ok webhooks: $(cat receiver.log)"
grep -q 'POST /flaky .*try=2' receiver.log || fail "the flaky webhook was not retried: $(cat receiver.log)"
[ "$(grep -c 'POST /redirect' receiver.log)" = 1 ] || fail "a redirect was retried: $(cat receiver.log)"
! grep -q 'signature=BAD' receiver.log || fail "a bad signature: $(cat receiver.log)"
grep -q 'localhost resolves to .*private address not on the allow-list' gateway2.log || fail "localhost: $(cat gateway2.log)"
[ "$(ls hooks/*.json | wc -l)" = 3 ] || fail "webhook bodies: $(ls hooks)"
api "$alice" GET /metrics > /dev/null
grep -q 'cuzk_gateway_webhooks_total{outcome="delivered"} 3' body.json || fail "webhook metrics: $(grep webhook body.json)"

step "a webhook outlives its gateway: kill -9 while its job waits for a worker; the next gateway delivers it"
kill -9 "${worker_pids[0]}"
code=$(post_json "$alice" /v1/proofs "{\"circuit\": \"bounded\", \"inputs\": $inputs, \"callback_url\": \"$hook/ok\"}")
[ "$code" = 202 ] || fail "POST with a callback_url: $code $(cat body.json)"
later=$(node -p 'require("./body.json").id')
[ "$(ls state/*.webhook | wc -l)" = 1 ] || fail "the pending webhook is not kept: $(ls -la state)"
kill -9 $gateway_pid
start_gateway gateway3.log --listen "${url#https://}" --tls-cert server.pem --tls-key server.key \
  --webhook-allow 127.0.0.1/32 --webhook-backoff 0.2 --webhook-attempts 3 --state-dir state
grep -q '1 resumed' gateway3.log || fail "the next gateway resumed nothing: $(cat gateway3.log)"
start_worker 2
for _ in $(seq 150); do grep -q "id=$later signature=ok" receiver.log && break; sleep 0.2; done
grep -q "POST /ok id=$later signature=ok" receiver.log || fail "the kept webhook was not delivered: $(cat receiver.log)"
for _ in $(seq 20); do [ -z "$(ls state)" ] && break; sleep 0.1; done
[ -z "$(ls state)" ] || fail "a delivered webhook is still kept: $(ls state)"

step "each key sees only its own jobs; bad requests get the node's sentence"
code=$(api "$bob" GET "/v1/proofs/alice-job-1")
[ "$code" = 404 ] || fail "bob reads alice's job: $code $(cat body.json)"
code=$(post_json "$alice" /v1/proofs '{"circuit": "no-such", "inputs": {}}')
[ "$code" = 404 ] && grep -q 'holds no circuit no-such' body.json || fail "unknown circuit: $code $(cat body.json)"
code=$(post_json "$alice" /v1/proofs '{"circuit": "bounded", "inputs": {"x": ["1"], "bound": "2"}}')
[ "$code" = 400 ] && grep -q 'input signal x takes 4 values' body.json || fail "short inputs: $code $(cat body.json)"
code=$(post_json "$alice" /v1/proofs 'not json')
[ "$code" = 400 ] || fail "a body that is not JSON: $code"
code=$(post_json "$alice" /v1/proofs '{"circuit": "bounded", "inputs": {}}' -H 'Idempotency-Key: ../../etc/passwd')
[ "$code" = 400 ] || fail "a path as Idempotency-Key: $code"
code=$(api "$alice" GET "/v1/proofs/..%2F..%2Fetc%2Fpasswd")
[ "$code" = 404 ] || fail "a path as job id: $code"
code=$(api "$alice" GET /v1/nothing)
[ "$code" = 404 ] || fail "an unknown route: $code"

step "a revoked key is refused within a second"
rm api-keys.d/bob
sleep 1.1
code=$(api "$bob" GET /v1/capacity)
[ "$code" = 401 ] || fail "a revoked key: $code"

step "the contract: the document served is gateway/openapi.json, valid OpenAPI 3.1; every response matches it"
cmp -s served-openapi.json "$here/../../../gateway/openapi.json" || fail "the served document is not gateway/openapi.json"
node "$here/openapi_check.mjs" "$nm" "$here/../../../gateway/openapi.json" "$responses" hooks
echo PASS
