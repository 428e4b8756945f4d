#!/usr/bin/env bash
# systemd-analyze verify on cuzk's units (ExecStart on this build's binaries):
# syntax, directives, dependencies. Exit 77 (skipped) without systemd-analyze.
#   tests/deploy/verify_units.sh BUILD/systemd/verify
set -uo pipefail
dir=${1:?units directory}
command -v systemd-analyze >/dev/null || { echo "SKIP: systemd-analyze is not installed (Debian: systemd)"; exit 77; }
out=$(cd "$dir" && SYSTEMD_LOG_LEVEL=notice systemd-analyze verify --man=no ./cuzk-shm.service ./cuzk-gpu-server.service \
  ./cuzk-synth-worker@.service ./cuzk-gateway.service ./cuzk.target 2>&1)
rc=$?
printf '%s\n' "$out"
# systemd-analyze exits 0 on warnings too: any line about our units fails the test
if ((rc != 0)) || grep -E '^(cuzk|/)' <<<"$out" | grep -v 'sysinit.target' | grep -q .; then
  echo "FAIL: systemd-analyze verify reported problems"
  exit 1
fi
echo "OK: 5 units verify"
