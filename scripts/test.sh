#!/usr/bin/env bash
# Setup + configure + build + ctest. Exits non-zero on any failure.
# Extra arguments go to ctest:   scripts/test.sh -L math
#                                scripts/test.sh -R Fp --repeat until-fail:3
# Random tests print their seed; replay one with CUZK_TEST_SEED=<seed>.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

cuzk_setup
cuzk_configure
# shellcheck disable=SC2119  # no targets: build everything
cuzk_build

# --timeout is the default per test (tests that set TIMEOUT keep theirs), so a
# hung test fails instead of stalling CI; --no-tests=error catches a label or
# regex that matches nothing.
run_ctest() {
  cuzk_log "ctest $*"
  ctest --test-dir "$CUZK_ROOT/$CUZK_BUILD_DIR" --output-on-failure \
    --timeout "${CUZK_TEST_TIMEOUT:-600}" --no-tests=error "$@"
}
if [ $# -gt 0 ]; then
  run_ctest -j "$(cuzk_jobs)" "$@"
else
  # The crash label kills real processes at each failpoint 200 times and
  # mostly waits on their starts and exits (a worker's kill: 136 ms of wall
  # time, 23 ms of CPU): it runs apart, two tests per core.
  rc=0
  run_ctest -j "$(cuzk_jobs)" -LE '^crash$' || rc=$?
  run_ctest -j "$((2 * $(cuzk_jobs)))" -L '^crash$' || rc=$?
  exit $rc
fi
