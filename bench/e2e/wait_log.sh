# shellcheck shell=bash
# Sourced by the e2e benches (it needs their fail WHAT [LOG]).
# wait_log PID LOG PATTERN SECONDS: until PATTERN is in LOG; fails if PID dies first.
wait_log() {
  local end=$((SECONDS + $4))
  until grep -q "$3" "$2" 2>/dev/null; do
    kill -0 "$1" 2>/dev/null || fail "process $1 exited before '$3'" "$2"
    ((SECONDS < end)) || fail "no '$3' within $4 s" "$2"
    sleep 0.05
  done
}
