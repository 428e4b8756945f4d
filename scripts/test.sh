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

cuzk_log "ctest $*"
# --timeout is the default per test (tests that set TIMEOUT keep theirs), so a
# hung test fails instead of stalling CI; --no-tests=error catches a label or
# regex that matches nothing.
ctest --test-dir "$CUZK_ROOT/$CUZK_BUILD_DIR" --output-on-failure \
  -j "$(cuzk_jobs)" --timeout "${CUZK_TEST_TIMEOUT:-600}" --no-tests=error "$@"
