#!/usr/bin/env bash
# A hostile HTTP client against cuzk-gateway (issue 40, label security),
# beside a legitimate client that keeps proving (legit_client.mjs): for
# 30 seconds the hostile one (hostile_http.mjs, from other loopback
# addresses, with its own key) tries slowloris, idle TCP, TLS handshake
# floods, huge and malformed bodies, too many and too large headers, header
# injection, deep JSON, path traversal, webhooks to private addresses, a
# request-rate flood and a long-poll flood; a TLS 1.2 client (the version
# with renegotiation) is refused. Every attack must get its refusal and its
# metric; the legitimate client's proofs verify (snarkjs) and each of its
# requests is answered within 200 ms; the gateway serves on after.
#   gateway_security.sh CUZK CUZK_SHM GPU_SERVER SYNTH_WORKER GATEWAY FIXTURE_DIR WORKDIR
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
. "$here/gateway_lib.sh"
gateway_test_start "$@"

step "a node with one worker; the gateway on TLS with tight bounds"
make_test_ca
"$cuzk" keygen --api alice --api-dir api-keys.d > alice.token
"$cuzk" keygen --api mallory --api-dir api-keys.d > mallory.token
"$cuzk" keygen --api eve --api-dir api-keys.d > eve.token
start_node
start_worker 1
start_gateway gateway.log --listen 127.0.0.1:0 --tls-cert server.pem --tls-key server.key \
  --max-connections-per-address 16 --max-connections-per-key 16 --handshake-timeout 2 --header-timeout 2 \
  --body-timeout 2 --idle-timeout 5 --requests-per-second 20 --max-long-polls-per-key 8 --max-wait 5 \
  --webhook-allow hooks.example.invalid

step "TLS 1.2 (renegotiation's version) is refused"
openssl s_client -connect "${url#https://}" -tls1_2 -CAfile ca.pem < /dev/null > tls12.log 2>&1 &&
  fail "a TLS 1.2 handshake succeeded"
grep -qi "alert\|error" tls12.log || fail "no TLS alert: $(cat tls12.log)"

step "30 s: the legitimate client proves while the hostile client attacks"
node "$here/hostile_http.mjs" "$url" ca.pem "$(cat mallory.token)" "$(cat eve.token)" 30 hostile.json > hostile.log 2>&1 &
hostile_pid=$!
extra_pids+=($hostile_pid)
node "$here/legit_client.mjs" "$url" ca.pem "$(cat alice.token)" 30 legit > legit.log 2>&1 ||
  fail "the legitimate client: $(cat legit.log)"
wait $hostile_pid || fail "the hostile client: $(cat hostile.log)"
cat legit.log hostile.log
kill -0 $gateway_pid || fail "the gateway died"

step "every attack met its bound"
node -e '
  const { got, rounds } = require("./hostile.json");
  const bad = [];
  const only = (a, ok) => { const g = got[a] || {}; if (!Object.keys(g).length) bad.push(a + ": nothing");
    for (const k of Object.keys(g)) if (!ok.includes(k)) bad.push(`${a}: ${k} x${g[k]}`); };
  const has = (a, k) => { if (!(got[a] || {})[k]) bad.push(`${a}: never ${k}`); };
  only("slowloris", ["closed", "ECONNRESET", "EPIPE"]);
  // every keyed attack may also meet the request rate of its key (429)
  only("hugeBodies", ["413", "429"]); has("hugeBodies", "413"); only("hugeWitness", ["413", "429"]); has("hugeWitness", "413");
  only("malformed", ["400", "429"]); has("malformed", "400");
  only("headerFields", ["431"]); only("headerBytes", ["431"]);
  only("headerInjection", ["400", "429"]); has("headerInjection", "400");
  only("deepJson", ["400", "429"]); has("deepJson", "400");
  only("traversal", ["400", "404", "429"]); has("traversal", "404");
  only("traversalRapidsnark", ["200", "failed", "429"]); has("traversalRapidsnark", "failed");
  only("privateWebhook", ["400", "429"]); has("privateWebhook", "400");
  has("rateFlood", "429"); only("rateFlood", ["200", "429"]);
  has("longPollFlood", "429"); has("longPollFlood", "200"); only("longPollFlood", ["200", "429", "submit 429"]);
  only("unknownKey", ["401"]);
  only("handshakeFlood", ["handshake", "ECONNRESET"]); has("handshakeFlood", "handshake");
  only("idleTcp", ["closed"]);
  if (got.error) bad.push("errors: " + JSON.stringify(got.error));
  if (rounds < 2) bad.push("only " + rounds + " rounds");
  if (bad.length) { console.error(bad.join("\n")); process.exit(1); }'
code=$(api "$(cat alice.token)" GET /metrics)
for bound in header_timeout connections_per_address body_bytes header_fields header_bytes malformed json_depth \
  requests_per_second long_polls_per_key api_key; do
  grep -q "cuzk_gateway_refused_total{bound=\"$bound\"} [1-9]" body.json || fail "no refusal counted for $bound"
done
grep -q 'cuzk_gateway_tls_handshake_failures_total [1-9]' body.json || fail "no TLS handshake failure counted"

step "the legitimate client: its proofs verify, every request within 200 ms"
node -e 'const l=require("./legit/latency.json");
  if(l.proofs<3)throw new Error("only "+l.proofs+" proofs");
  if(l.max_ms>=200)throw new Error("a request took "+l.max_ms+" ms: "+JSON.stringify(l.slowest))'
for i in 1 2 3; do
  node "$nm/.bin/snarkjs" groth16 verify "$fixture/bn128/vk.json" legit/public$i.json legit/proof$i.json | grep -q OK ||
    fail "snarkjs rejects the legitimate client's proof $i"
done
code=$(api "$(cat alice.token)" GET /v1/capacity)
[ "$code" = 200 ] || fail "the gateway does not serve after: $code"
echo PASS
