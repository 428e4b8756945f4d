#!/usr/bin/env bash
# Installs what cuzk's build and tests need on Debian 12: the Debian packages
# (apt) and the pinned npm test oracles (tests/interop, `npm ci`).
# Idempotent and non-interactive; needs root (uses sudo when not root) only
# when a Debian package is missing.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
export DEBIAN_FRONTEND=noninteractive

# Build: compilers, CMake + Ninja, ccache (test.sh's CPU-only build reuses
# the objects it shares with the CUDA one; reruns reuse everything). Tests/bench: GoogleTest/Mock, Google
# Benchmark, GMP (field oracle). Library: oneTBB, Boost (Interprocess, Asio),
# ZeroMQ + cppzmq, libsodium (the network endpoint's CURVE), spdlog/fmt, nlohmann-json, CLI11, libsystemd (sd_notify),
# xxHash (slot checksums, SRS content hashes), protobuf (the control protocol);
# clang builds the libFuzzer targets (tests/fuzz); clang-format checks the tree's format (.clang-format). PostgreSQL and libpqxx: the
# cluster's job store (gpu-server/cluster_store) and the real server its tests start;
# iproute2: the network namespaces the cluster tests put nodes and clients in.
# chromium: the timeline test renders /timeline headless and checks the screenshot.
# libseccomp: the confinement of circom's witness generators (job/generator_sandbox); nasm (with g++, GMP and
# nlohmann-json) builds circom's C++ generator; Node.js (below) runs its wasm one.
PACKAGES=(
  build-essential cmake ninja-build ccache pkg-config git
  libgtest-dev libgmock-dev libbenchmark-dev libgmp-dev
  libtbb-dev libboost-dev libzmq3-dev cppzmq-dev libsodium-dev
  libspdlog-dev libfmt-dev nlohmann-json3-dev libcli11-dev libsystemd-dev libtomlplusplus-dev
  libssl-dev libxxhash-dev libprotobuf-dev protobuf-compiler clang clang-format
  systemd systemd-container python3
  postgresql libpqxx-dev iproute2 chromium
  libseccomp-dev nasm
)
# Node.js runs the test oracles. Machines of this project's kind ship Node.js
# (with its own npm) outside Debian's packages; install Debian's only when absent.
command -v node >/dev/null 2>&1 || PACKAGES+=(nodejs)
command -v npm >/dev/null 2>&1 || PACKAGES+=(npm)

# One dpkg-query for all packages; unknown ones print nothing (exit 1: ignored).
declare -A status=()
while read -r name state; do
  status[${name%%:*}]=$state
done < <(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${PACKAGES[@]}" 2>/dev/null || true)
missing=()
for p in "${PACKAGES[@]}"; do
  [[ "${status[$p]:-}" == installed ]] || missing+=("$p")
done

# `apt-get update` runs first whenever something has to be installed. When
# every package is already installed it is skipped: it would change nothing
# and costs a network round trip on every test run.
if ((${#missing[@]})); then
  cuzk_log "apt: installing ${missing[*]}"
  apt_opts=(-y -q -o DPkg::Lock::Timeout=600 --no-install-recommends)
  cuzk_as_root apt-get -q -o DPkg::Lock::Timeout=600 update
  cuzk_as_root env DEBIAN_FRONTEND=noninteractive apt-get install "${apt_opts[@]}" "${missing[@]}"
else
  cuzk_log "apt: all ${#PACKAGES[@]} packages already installed"
fi

command -v node >/dev/null 2>&1 || cuzk_die "node is still missing after apt"
command -v npm >/dev/null 2>&1 || cuzk_die "npm is still missing after apt"

# npm oracles: `npm ci` from the committed lock into tests/interop/node_modules.
# A stamp (hash of the lock + node's major version) skips it when unchanged.
interop="$CUZK_ROOT/tests/interop"
stamp="$interop/node_modules/.cuzk-stamp"
want="$(sha256sum "$interop/package-lock.json" | cut -d' ' -f1) node-$(node -p 'process.versions.node.split(".")[0]')"
if [[ -f "$stamp" && "$(cat "$stamp")" == "$want" ]]; then
  cuzk_log "npm: tests/interop/node_modules matches package-lock.json"
else
  cuzk_log "npm: npm ci in tests/interop (node $(node --version))"
  (cd "$interop" && npm ci --no-audit --no-fund --loglevel=error)
  printf '%s\n' "$want" >"$stamp"
fi
