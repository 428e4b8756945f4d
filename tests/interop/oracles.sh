# Sourced by the interop steps (groth16/interop.sh, witness/witness.sh): the
# npm oracles, snarkjs, and the run's seed. The caller sets `here` (tests/interop)
# and `seed_name` (what the seed line calls its run).
bin=$here/node_modules/.bin
if [ ! -x "$bin/snarkjs" ] || [ ! -x "$bin/circom2" ]; then
  echo "snarkjs/circom2 are missing from tests/interop/node_modules: run scripts/setup.sh" >&2
  exit 1
fi
snarkjs() { node "$bin/snarkjs" "$@"; }
seed=${CUZK_TEST_SEED:-$(od -An -N4 -tu4 /dev/urandom | tr -d ' ')}
echo "[cuzk] $seed_name seed $seed (replay with CUZK_TEST_SEED=$seed)"
