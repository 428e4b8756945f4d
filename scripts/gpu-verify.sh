#!/usr/bin/env bash
# Checks, where node is, the proofs a GPU run brought back (scripts/gpu-check.sh
# writes them to OUT/proofs.tar.gz): `snarkjs groth16 verify` on every proof
# made with --backend cuda, against the verifying key of its own setup.
#   scripts/gpu-verify.sh path/to/proofs.tar.gz
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
tarball=$(realpath "$1")
snarkjs="$CUZK_ROOT/tests/interop/node_modules/.bin/snarkjs"
[[ -x "$snarkjs" ]] || cuzk_die "snarkjs is missing: run scripts/setup.sh"
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
tar -C "$work" -xzf "$tarball"
fail=0 n=0
for proof in "$work"/proofs/*.cuda.proof.json; do
  stem=$(basename "$proof" .cuda.proof.json)
  n=$((n + 1))
  if node "$snarkjs" groth16 verify "$work/proofs/$stem.vk.json" "$work/proofs/$stem.cuda.public.json" "$proof" |
    grep -q OK; then
    printf 'snarkjs verify %-14s OK\n' "$stem"
  else
    printf 'snarkjs verify %-14s FAILED\n' "$stem"
    fail=1
  fi
done
((n > 0)) || cuzk_die "no CUDA proofs in $tarball"
exit $fail
