#!/usr/bin/env bash
# cuzk plan against the server it plans for (label ops): plan a native
# circuit's key, create the pool from the plan (cuzk-shm create --plan), set
# the key up in that pool, start the real server (CPU backend, or CUDA with
# BACKEND=cuda on a GPU machine) and synth workers on it, prove a job, and
# compare what cuzk-shm and the server report with the plan: layout hash,
# region size, slot classes, the key's shape, the processes' private memory,
# and on a GPU the budget, the resident key and its copies.
#   [BACKEND=cuda] [SPEC=chain:size=N] [HOST_RAM=GiB] plan_service.sh CUZK CUZK_SHM GPU_SERVER SYNTH_WORKER WORKDIR
set -euo pipefail
abs() { realpath -m -- "$1"; }
cuzk=$(abs "$1") cuzk_shm=$(abs "$2") server_bin=$(abs "$3") worker_bin=$(abs "$4") work=$(abs "$5")
backend=${BACKEND:-cpu}
. "$(dirname "$0")/service_lib.sh"
json() { python3 -c "import json,sys; j=json.load(open(sys.argv[1])); print(eval(sys.argv[2]))" "$@"; }

rm -rf "$work"
mkdir -p "$work"
cd "$work"
pool=cuzk-plan-$$
endpoint=ipc://$work/cuzk.sock
worker_endpoint=ipc://$work/worker.sock
spec=${SPEC:-chain:size=3000}

gpus=(--gpus 0)
[ "$backend" = cuda ] && gpus=(--gpus auto)

step "plan the circuit's key"
"$cuzk" plan --circuit "$spec" --pool "$pool" --synth-workers 2 --host-ram "${HOST_RAM:-16}" "${gpus[@]}" > plan.txt ||
  fail "cuzk plan exited $?"
cat plan.txt
grep -q "^everything fits" plan.txt || fail "a small key on 16 GiB should fit"
"$cuzk" plan --circuit "$spec" --pool "$pool" --synth-workers 2 --host-ram "${HOST_RAM:-16}" "${gpus[@]}" --json --out plan.json > /dev/null
[ "$(json plan.json 'j["pool"]["name"]')" = "$pool" ] || fail "the plan's pool name"

step "create the pool from the plan"
echo '{"pool": {"slots": ["1x64"]}}' > not-a-plan.json
grep -q "is not a cuzk plan" <("$cuzk_shm" create --plan not-a-plan.json 2>&1 || true) || fail "a file that is no plan"
"$cuzk_shm" create --plan plan.json | tee create.txt
"$cuzk_shm" status --name "$pool" --json > shm.json
[ "$(json shm.json 'j["layout_hash"]')" = "$(json plan.json 'j["layout_hash"]')" ] || fail "layout hash: pool vs plan"
[ "$(json shm.json 'j["total_bytes"]')" = "$(json plan.json 'j["pool_bytes"]')" ] || fail "region bytes: pool vs plan"
python3 - shm.json plan.json <<'PY' || fail "slot classes: pool vs plan"
import json, sys
shm, plan = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
got = [(c["count"], c["domain"], c["witness"], c["slot_bytes"]) for c in shm["classes"]]
want = [(c["count"], c["domain"], c["witness"], c["slot_bytes"]) for c in plan["slot_classes"]]
print("pool classes", got, "plan", want)
sys.exit(got != want)
PY

step "set the key up in the pool; plan it again by its id"
key=$("$cuzk" setup --circuit "$spec" --pool "$pool" --seed plan-test 2> setup.log | tail -n 1)
[[ "$key" =~ ^[0-9a-f]{32}$ ]] || fail "cuzk setup printed '$key', not a key id"
"$cuzk" plan --key "$key" --pool "$pool" --synth-workers 2 --host-ram "${HOST_RAM:-16}" "${gpus[@]}" --json > plan_id.json
for f in domain n_vars n_public zkey_bytes; do
  [ "$(json plan_id.json "j['keys'][0]['$f']")" = "$(json plan.json "j['keys'][0]['$f']")" ] ||
    fail "$f: the key in the pool vs the circuit's plan"
done
[ "$(json plan_id.json 'j["layout_hash"]')" = "$(json plan.json 'j["layout_hash"]')" ] || fail "the key's plan lays out another pool"
grep -q "no key 00000000000000000000000000000000 in pool '$pool' (its keys: $key)" \
  <("$cuzk" plan --key 00000000000000000000000000000000 --pool "$pool" 2>&1 || true) || fail "an unknown key id"
rc=0; "$cuzk" plan --key "$key" --pool "$pool" --host-ram 0.001 "${gpus[@]}" > small.txt || rc=$?
[ $rc = 1 ] && grep -q "host RAM: the pool (" small.txt || fail "too little RAM: exit $rc, $(cat small.txt)"

step "start the server and two workers on the planned pool"
"$server_bin" --pool "$pool" --endpoint "$endpoint" --worker-endpoint "$worker_endpoint" --backend "$backend" \
  --key "$key" --threads 2 > server.log 2>&1 &
server_pid=$!
for n in 1 2; do
  "$worker_bin" --pool "$pool" --endpoint "$worker_endpoint" --name "worker@$n" > "worker$n.log" 2>&1 &
  worker_pids+=($!)
done
for _ in $(seq 150); do
  [ -S "$work/cuzk.sock" ] && "$cuzk" status --endpoint "$endpoint" --json > st.json 2> /dev/null &&
    [ "$(json st.json 'len(j["workers"])')" = 2 ] && break
  kill -0 "$server_pid" 2> /dev/null || fail "the server exited"
  sleep 0.2
done
[ "$(json st.json 'len(j["workers"])')" = 2 ] || fail "the workers did not register"

step "prove a job in the planned slot class"
"$cuzk" inputs --circuit "$spec" --seed 7 --out in.json
"$cuzk" submit --endpoint "$endpoint" --zkey "$key" --circuit "$spec" --inputs in.json --job-id "plan-$$" \
  --wait --proof proof.json --public public.json > submit.txt 2>&1 || fail "the job did not prove: $(cat submit.txt)"

step "what the server reports, against the plan"
"$cuzk" status --endpoint "$endpoint" --json --capacity > cap.json
"$cuzk" status --endpoint "$endpoint" --json > st.json
python3 - cap.json st.json plan.json "$server_pid" "${worker_pids[@]}" <<'PY' || fail "the server disagrees with the plan"
import json, sys
cap, st, plan = (json.load(open(f)) for f in sys.argv[1:4])
server, workers = sys.argv[4], sys.argv[5:]
c = cap.get("capacity", cap)
got = [(k["domain"], k["witness"], k["slots"]) for k in c["classes"]]
want = [(k["domain"], k["witness"], k["count"]) for k in plan["slot_classes"]]
print("server's classes", got, "plan", want)
ok = got == want and len(st["slots"]) == sum(k["count"] for k in plan["slot_classes"])
def rss_anon(pid):  # private memory: the pool's and SRS regions' pages are shared, counted with /dev/shm
    for line in open(f"/proc/{pid}/status"):
        if line.startswith("RssAnon:"):
            return int(line.split()[1]) * 1024
host = plan["host"]
for w in workers:
    r = rss_anon(w)
    print(f"synth worker {w}: {r / 2**20:.1f} MiB private, planned {host['synth_worker_bytes'] / 2**20:.1f} MiB")
    ok &= r <= host["synth_worker_bytes"]
r = rss_anon(server)
print(f"server: {r / 2**20:.1f} MiB private, planned {host['server_bytes'] / 2**20:.1f} MiB")
ok &= r <= host["server_bytes"]
for g, pg in zip(st["gpus"], plan["gpus"]):
    k = pg["keys"][0]
    print(f"GPU {g['device']}: budget {g['budget']} (plan {pg['budget_bytes']}), resident {g['resident_bytes']} "
          f"(plan {k['footprint_bytes']}), copies {g['resident_shifts']} (plan {k['copies']})")
    ok &= g["budget"] == pg["budget_bytes"] and g["resident_bytes"] == k["footprint_bytes"]
    ok &= g["resident_shifts"] == [k["copies"]]
ok &= len(st["gpus"]) == len(plan["gpus"])
sys.exit(0 if ok else 1)
PY
echo "plan_service: the server runs the planned pool as planned"
