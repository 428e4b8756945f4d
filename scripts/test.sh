#!/usr/bin/env bash
# Setup + configure + build + ctest. Exits non-zero on any failure.
# Extra arguments go to ctest:   scripts/test.sh -L math
#                                scripts/test.sh -R Fp --repeat until-fail:3
# Random tests print their seed; replay one with CUZK_TEST_SEED=<seed>.
#
# Both machines are covered: where nvcc is found the build has the CUDA
# backend, and the CPU-only configuration (what a machine without the CUDA
# Toolkit builds) is built beside it in $CUZK_BUILD_DIR-cpu, every target,
# with the objects both share taken from ccache. The demo's service (pool,
# server, workers, jobs proven and verified) then runs on the CPU-only
# binaries before ctest runs on the main build. CUZK_CPU_CHECK=0 skips that
# step (a developer's quick run; CI always makes it).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

cuzk_setup
cuzk_configure
# shellcheck disable=SC2119  # no targets: build everything
cuzk_build

if [[ "${CUZK_CPU_CHECK:-1}" == 1 ]]; then
  cpu_dir=$CUZK_BUILD_DIR cpu_args=${CUZK_CMAKE_ARGS:-}
  if cuzk_has_cuda; then
    cpu_dir=$CUZK_BUILD_DIR-cpu cpu_args="$cpu_args -DCUZK_CUDA=OFF"
    cuzk_log "the CPU-only configuration ($cpu_dir, -DCUZK_CUDA=OFF): every target links without CUDA"
    CUZK_BUILD_DIR=$cpu_dir CUZK_CMAKE_ARGS=$cpu_args cuzk_configure
    # shellcheck disable=SC2119
    CUZK_BUILD_DIR=$cpu_dir cuzk_build
  fi
  cuzk_log "the demo's service on the CPU-only binaries ($cpu_dir)"
  CUZK_SKIP_SETUP=1 CUZK_BUILD_DIR=$cpu_dir CUZK_CMAKE_ARGS=$cpu_args bash "$CUZK_ROOT/scripts/demo.sh" service
fi

cuzk_log "ctest $*"
# --timeout is the default per test (tests that set TIMEOUT keep theirs), so a
# hung test fails instead of stalling CI; --no-tests=error catches a label or
# regex that matches nothing.
ctest --test-dir "$CUZK_ROOT/$CUZK_BUILD_DIR" --output-on-failure \
  -j "$(cuzk_jobs)" --timeout "${CUZK_TEST_TIMEOUT:-600}" --no-tests=error "$@"
