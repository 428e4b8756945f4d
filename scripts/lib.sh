# shellcheck shell=bash
# Shared helpers for scripts/*.sh. Source it; do not run it.
#   CUZK_BUILD_DIR   build folder, relative to the repo root (default: build)
#   CUZK_CMAKE_ARGS  extra configure arguments, e.g. "-DCUZK_CUDA=OFF"
#   CUZK_SKIP_SETUP  set to 1 to skip scripts/setup.sh (no apt, no npm)
#   CUZK_CCACHE      set to 0 not to compile through ccache (used when installed)

CUZK_ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CUZK_BUILD_DIR="${CUZK_BUILD_DIR:-build}"

cuzk_log() { printf '==> %s\n' "$*" >&2; }
cuzk_die() { printf 'error: %s\n' "$*" >&2; exit 1; }

cuzk_jobs() { nproc 2>/dev/null || echo 2; }

# Runs a command as root: directly when we are root, through sudo otherwise.
cuzk_as_root() {
  if [[ $(id -u) -eq 0 ]]; then
    "$@"
  elif command -v sudo >/dev/null 2>&1; then
    sudo "$@"
  else
    cuzk_die "need root for: $* (run as root or install sudo)"
  fi
}

cuzk_setup() {
  if [[ "${CUZK_SKIP_SETUP:-0}" == 1 ]]; then
    cuzk_log "setup skipped (CUZK_SKIP_SETUP=1)"
  else
    bash "$CUZK_ROOT/scripts/setup.sh"
  fi
}

# Whether this machine has an NVIDIA GPU the driver sees.
cuzk_has_gpu() { command -v nvidia-smi >/dev/null 2>&1 && nvidia-smi -L >/dev/null 2>&1; }

# Configures $CUZK_BUILD_DIR (Ninja, Release, CUZK_CUDA=AUTO unless overridden).
cuzk_configure() {
  local cache="$CUZK_ROOT/$CUZK_BUILD_DIR/CMakeCache.txt"
  # A folder configured with another generator cannot be reused: drop its cache.
  if [[ -f "$cache" ]] && ! grep -q '^CMAKE_GENERATOR:INTERNAL=Ninja$' "$cache"; then
    cuzk_log "$CUZK_BUILD_DIR was configured with another generator; reconfiguring with Ninja"
    rm -rf "$cache" "$CUZK_ROOT/$CUZK_BUILD_DIR/CMakeFiles"
  fi
  # ccache with the checkout as its base directory: a second build folder (the
  # CPU-only configuration test.sh builds beside the CUDA one) reuses every
  # object whose compile command is the same, and so does the next run.
  local launch=()
  if [[ "${CUZK_CCACHE:-1}" == 1 ]] && command -v ccache >/dev/null 2>&1; then
    launch=("-DCMAKE_CXX_COMPILER_LAUNCHER=env;CCACHE_BASEDIR=$CUZK_ROOT;ccache"
            "-DCMAKE_CUDA_COMPILER_LAUNCHER=env;CCACHE_BASEDIR=$CUZK_ROOT;ccache")
  else
    launch=(-UCMAKE_CXX_COMPILER_LAUNCHER -UCMAKE_CUDA_COMPILER_LAUNCHER)
  fi
  # Where no GPU can run it, the CUDA code is compiled to PTX only (90-virtual):
  # every kernel still goes through nvcc's front end and NVVM, and ptxas (a
  # third of the CUDA build) is left to the driver of a machine that has a
  # device. With a GPU: SASS for sm_90 and PTX. CUZK_CMAKE_ARGS may name others.
  local arch=90
  cuzk_has_gpu || arch=90-virtual
  cuzk_log "configure ($CUZK_BUILD_DIR${CUZK_CMAKE_ARGS:+ $CUZK_CMAKE_ARGS})"
  # shellcheck disable=SC2086  # CUZK_CMAKE_ARGS is a word list on purpose
  cmake -G Ninja -S "$CUZK_ROOT" -B "$CUZK_ROOT/$CUZK_BUILD_DIR" \
    -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=AUTO -DCMAKE_CUDA_ARCHITECTURES="$arch" "${launch[@]}" ${CUZK_CMAKE_ARGS:-}
}

# Whether $CUZK_BUILD_DIR was configured with the CUDA backend (nvcc found).
cuzk_has_cuda() {
  grep -q '^CUZK_CUDA_BUILT:INTERNAL=ON$' "$CUZK_ROOT/$CUZK_BUILD_DIR/CMakeCache.txt" 2>/dev/null
}

# Builds the given targets (all when none are given).
cuzk_build() {
  local targets=()
  local t
  for t in "$@"; do targets+=(--target "$t"); done
  cuzk_log "build ${*:-all} (-j$(cuzk_jobs))"
  cmake --build "$CUZK_ROOT/$CUZK_BUILD_DIR" -j "$(cuzk_jobs)" "${targets[@]}"
}
