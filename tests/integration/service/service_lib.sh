# Sourced by the service's shell tests (circom_service.sh, plan_service.sh):
# failing, steps, and the cleanup that kills what a test started, destroys
# its pool and, when it failed, prints the tails of its logs.
# The test sets: cuzk_shm, pool, work, server_pid, worker_pids (an array).
fail() { echo "FAIL: $*" >&2; exit 1; }
step() { echo "== $*"; }
service_cleanup() {
  local rc=$?
  for p in $server_pid "${worker_pids[@]}"; do kill -9 "$p" 2> /dev/null || true; done
  for p in $server_pid "${worker_pids[@]}"; do wait "$p" 2> /dev/null || true; done
  [ -n "${pool:-}" ] && { "$cuzk_shm" destroy --force --name "$pool" > /dev/null 2>&1 || true; }
  if [ $rc != 0 ] && [ -n "${work:-}" ]; then
    for log in "$work"/*.log "$work"/*.txt; do [ -e "$log" ] && { echo "--- $log"; tail -n 40 "$log"; }; done
  fi
  exit $rc
}
server_pid="" worker_pids=()
trap service_cleanup EXIT
trap 'exit 143' TERM INT
