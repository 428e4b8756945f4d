# Sourced by the gateway's shell tests: their arguments and work directory,
# a test CA made with openssl, a node with the witness fixture's circuit
# installed, the gateway in front of it, and `api`, which calls it with curl
# over TLS and records every response for openapi_check.mjs.

# gateway_test_start CUZK CUZK_SHM GPU_SERVER SYNTH_WORKER GATEWAY FIXTURE_DIR WORKDIR: a fresh WORKDIR as the
# cwd; at exit the node, the gateway and extra_pids are killed (service_lib.sh's cleanup, logs when it failed).
gateway_test_start() {
  abs() { realpath -m -- "$1"; }
  cuzk=$(abs "$1") cuzk_shm=$(abs "$2") server_bin=$(abs "$3") worker_bin=$(abs "$4") gateway_bin=$(abs "$5")
  fixture=$(abs "$6") work=$(abs "$7")
  nm=$here/../../interop/node_modules
  . "$here/../service/service_lib.sh"
  gateway_pid="" extra_pids=()
  trap 'code=$?; set +e; kill -9 $gateway_pid "${extra_pids[@]}" 2> /dev/null || true; (exit $code); service_cleanup' EXIT
  rm -rf "$work"
  mkdir -p "$work"
  cd "$work"
  responses=$PWD/responses.ndjson
  mkdir -p responses
  : > "$responses"
}

# make_test_ca: ca.pem, and server.pem / server.key for 127.0.0.1 and localhost signed by it.
make_test_ca() {
  openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -days 2 -subj "/CN=cuzk test CA" \
    -keyout ca.key -out ca.pem 2> openssl.log
  openssl req -newkey ec -pkeyopt ec_paramgen_curve:P-256 -nodes -subj "/CN=localhost" \
    -keyout server.key -out server.csr 2>> openssl.log
  printf 'subjectAltName=IP:127.0.0.1,DNS:localhost\nextendedKeyUsage=serverAuth\n' > server.ext
  openssl x509 -req -in server.csr -CA ca.pem -CAkey ca.key -CAcreateserial -days 2 -extfile server.ext \
    -out server.pem 2>> openssl.log
}

# start_node [SERVER ARGS...]: a pool with `bounded` installed (install.log: its key id is the 4th word), the server
# trusting this uid as its gateway, one worker.
start_node() {
  pool=cuzk-gw-$$
  endpoint=ipc://$work/cuzk.sock
  "$cuzk_shm" create --name "$pool" --slots 2x2048 --jobs 64 > shm.log
  "$cuzk" circuit install bounded --pool "$pool" --zkey "$fixture/bn128/bounded.zkey" \
    --cpp "$fixture/bn128/bounded_cpp/bounded" --sym "$fixture/bn128/bounded.sym" > install.log
  key_id=$(awk '{print $4}' install.log)
  "$server_bin" --pool "$pool" --endpoint "$endpoint" --backend cpu --gateway "$(id -u)" "$@" > server.log 2>&1 &
  server_pid=$!
  for _ in $(seq 100); do [ -S "$work/cuzk.sock" ] && break; sleep 0.1; done
  [ -S "$work/cuzk.sock" ] || fail "the server did not start: $(cat server.log)"
}

start_worker() {
  "$worker_bin" --pool "$pool" --endpoint "$endpoint.worker" --name "worker@$1" > "worker$1.log" 2>&1 &
  worker_pids+=($!)
}

# start_gateway LOG ARGS...: sets url from the gateway's log line.
start_gateway() {
  local log=$1
  shift
  "$gateway_bin" --endpoint "$endpoint" --api-keys api-keys.d "$@" > "$log" 2>&1 &
  gateway_pid=$!
  url=""
  for _ in $(seq 100); do
    url=$(sed -n 's/.*gateway on \(http[^ ]*\) .*/\1/p' "$log" | head -1)
    [ -n "$url" ] && break
    kill -0 $gateway_pid 2> /dev/null || break
    sleep 0.1
  done
  [ -n "$url" ] || fail "the gateway did not start: $(cat "$log")"
}

# api TOKEN METHOD PATH [CURL ARGS...]: prints the status; the body is in body.json; the response is recorded.
api() {
  local who=$1 method=$2 path=$3
  shift 3
  local n
  n=$(($(wc -l < "$responses") + 1))
  local out
  out=$(curl -s --cacert ca.pem -o body.json -w '%{http_code} %{content_type}' -X "$method" \
    ${who:+-H "Authorization: Bearer $who"} "$@" "$url$path")
  cp body.json "responses/$n.body"
  printf '{"method":"%s","path":"%s","status":%s,"content_type":"%s","body_file":"%s"}\n' "$method" "$path" \
    "${out%% *}" "${out#* }" "$PWD/responses/$n.body" >> "$responses"
  echo "${out%% *}"
}
# post_json TOKEN PATH JSON [CURL ARGS...]: api with a JSON body.
post_json() { api "$1" POST "$2" -H 'Content-Type: application/json' --data "$3" "${@:4}"; }
