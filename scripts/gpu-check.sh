#!/usr/bin/env bash
# The GPU run of issues 9 and 11, on a machine with a CUDA device: every `gpu`
# test (the service with --backend cuda among them: cuzk-gpu-service-test),
# `cuzk prove --backend cuda` against `--backend cpu` on prepared keys
# (byte-identical proofs with fixed blinding), H2D from a registered pool slot
# vs cudaHostAlloc vs pageable (cuzk-h2d-bench), and the CUDA benchmarks. Full
# results go to OUT (default gpu-results/); a short table is printed last.
#   scripts/gpu-check.sh [OUT]
# Binaries come from .gpurun/ when scripts/gpu-pack.sh made it (build here,
# run there); otherwise they are built here first (needs CUDA, and the -dev
# packages unpacked from .devdeps/ when the machine has no package registry).
# Knobs: CUZK_GPU_BENCH_FILTER (benchmark regex, default all),
#        CUZK_GPU_BENCH=0 (skip the benchmarks), CUZK_GPU_TEST_FILTER (gtest filter).
set -uo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
out="${1:-$root/gpu-results}"
mkdir -p "$out"
log() { printf '==> %s\n' "$*" >&2; }

if [[ ! -d "$root/.gpurun/bin" && -f "$root/.gpupack/gpurun.tar.xz" ]]; then  # carried packed (scripts/gpu-pack.sh)
  mkdir -p "$root/.gpurun" && xz -dc "$root/.gpupack/gpurun.tar.xz" | tar -C "$root/.gpurun" -xf -
fi
if [[ -d "$root/.gpurun/bin" ]]; then
  bin="$root/.gpurun/bin"
  export LD_LIBRARY_PATH="$root/.gpurun/lib${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}"
else
  if [[ -d "$root/.devdeps" ]]; then
    mkdir -p /opt/devdeps
    for f in "$root"/.devdeps/*.deb; do dpkg -x "$f" /opt/devdeps; done
    export CMAKE_PREFIX_PATH=/opt/devdeps/usr LD_LIBRARY_PATH=/opt/devdeps/usr/lib/x86_64-linux-gnu
  fi
  build="$root/build-gpu"
  cmake -G Ninja -S "$root" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON \
    -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}" >"$out/configure.log" 2>&1 || { tail -20 "$out/configure.log"; exit 1; }
  ninja -C "$build" tests/gpu/all cuzk-cuda-bench cuzk-h2d-bench cuzk cuzk-bench cuzk-gpu-server cuzk-synth-worker cuzk-shm \
    >"$out/build.log" 2>&1 || { tail -40 "$out/build.log"; exit 1; }
  bin="$out/bin"
  mkdir -p "$bin"
  find "$build/tests/gpu" -maxdepth 2 -type f -executable -name 'cuzk-*' -exec cp {} "$bin/" \;
  cp "$build/bench/cuda/cuzk-cuda-bench" "$build/bench/cuda/cuzk-h2d-bench" "$build/client/cuzk" "$build/bench/e2e/cuzk-bench" \
    "$build/gpu-server/cuzk-gpu-server" "$build/synth-worker/cuzk-synth-worker" "$build/shm/tool/cuzk-shm" "$bin/"
fi

nvidia-smi --query-gpu=name,memory.total,clocks.sm,clocks.max.sm,driver_version --format=csv >"$out/device.txt" 2>&1
log "device: $(tail -1 "$out/device.txt")"
summary=()

# 1. the gpu tests (the engine conformance test up to 2^CUZK_GPU_MAX_LOG constraints; the
#    service test starts these server, worker and cuzk-shm binaries)
export CUZK_GPU_MAX_LOG="${CUZK_GPU_MAX_LOG:-20}"
export CUZK_SHM_BIN="$bin/cuzk-shm" CUZK_SERVER_BIN="$bin/cuzk-gpu-server" CUZK_WORKER_BIN="$bin/cuzk-synth-worker" \
  CUZK_CLI_BIN="$bin/cuzk"
[[ -f "$root/.gpurun/data/mix.r1cs" ]] && export CUZK_GPU_CIRCOM="$root/.gpurun/data/mix"
[[ -f "$root/.gpurun/data/mix_bn254.zkey" ]] && export CUZK_GPU_CIRCOM_BN254="$root/.gpurun/data/mix_bn254"
# the service's BN254 circom proof joins the CLI's in proofs.tar.gz (snarkjs verifies them where node is)
export CUZK_GPU_PROOFS="$out/proofs"
status=0
for t in "$bin"/cuzk-*-test; do
  [[ -x "$t" ]] || continue
  name=$(basename "$t")
  log "test $name"
  timeout "${CUZK_GPU_TEST_TIMEOUT:-400}" "$t" --gtest_filter="${CUZK_GPU_TEST_FILTER:-*}" --gtest_output="json:$out/$name.json" >"$out/$name.log" 2>&1
  rc=$?
  ((rc == 0)) || status=1
  pass=$(grep -c '^\[       OK \]' "$out/$name.log")
  fail=$(grep -c '^\[  FAILED  \].*(' "$out/$name.log")
  skip=$(grep -c '^\[  SKIPPED \].*(' "$out/$name.log")
  summary+=("$(printf '%-28s passed %4d  failed %3d  skipped %3d  rc %d' "$name" "$pass" "$fail" "$skip" "$rc")")
  ((rc == 0)) || grep -E '^\[  FAILED  \]|Failure|error' "$out/$name.log" | head -20 >&2
done

# 2. cuzk setup + prove --backend cuda against --backend cpu, circuits the
#    tests never saw (fixed blinding: the proofs must be byte-identical); the
#    proofs, public signals and verifying keys come back in proofs.tar.gz for
#    `snarkjs groth16 verify` (scripts/gpu-verify.sh, where node is).
cases=("chain-16 odd-coset --circuit chain:size=65000"
       "chain-16c coefficient --circuit chain:size=65000"
       "sha256-2 odd-coset --circuit sha256:blocks=2"
       "poseidon-20 coefficient --circuit poseidon-merkle:depth=20")
[[ -f "$root/.gpurun/data/mix.r1cs" ]] && cases+=("circom-mix odd-coset --r1cs $root/.gpurun/data/mix.r1cs")
# BN254 with a snarkjs bn128 ceremony's key (no setup here): circom's default prime
[[ -f "$root/.gpurun/data/mix_bn254.zkey" ]] && cases+=("circom-bn254-ceremony bn128 --zkey $root/.gpurun/data/mix_bn254")
mkdir -p "$out/proofs"
for c in "${cases[@]}"; do
  read -r stem form kind src <<<"$c"
  p="$out/proofs/$stem"
  if [[ $kind == --zkey ]]; then  # a ready key: STEM.zkey, with STEM.vk.json and STEM.wtns beside it
    zkey="$src.zkey" setup="snarkjs"
    cp "$src.vk.json" "$p.vk.json"
    wit=(--wtns "$src.wtns")
  else
    zkey="$p.zkey"
    "$bin/cuzk" setup "$kind" "$src" --h-form "$form" --seed "gpu-check $stem" --zkey "$zkey" >"$p.setup.log" 2>&1 || { status=1; continue; }
    setup="$(grep -o 'fixed-base.*' "$p.setup.log" | head -1 | grep -oE '[0-9.]+ ?s' | head -1)"
    "$bin/cuzk" export-vk --zkey "$zkey" --vk "$p.vk.json" >/dev/null 2>&1
    if [[ $kind == --r1cs ]]; then wit=(--wtns "$root/.gpurun/data/mix.wtns")
    else "$bin/cuzk" inputs --circuit "$src" --seed $RANDOM >"$p.inputs.json"; wit=(--circuit "$src" --inputs "$p.inputs.json"); fi
  fi
  for be in cpu cuda; do
    /usr/bin/time -f %e -o "$p.$be.time" "$bin/cuzk" prove --zkey "$zkey" "${wit[@]}" --blinding 12345,67890 \
      --backend "$be" --proof "$p.$be.proof.json" --public "$p.$be.public.json" >"$p.$be.log" 2>&1 || status=1
  done
  same=differ
  cmp -s "$p.cpu.proof.json" "$p.cuda.proof.json" && same=identical
  [[ $same == identical ]] || status=1
  summary+=("$(printf 'prove %-12s %-11s setup %7s cpu %6ss cuda %6ss  proofs %s' "$stem" "$form" "$setup" \
    "$(cat "$p.cpu.time" 2>/dev/null)" "$(cat "$p.cuda.time" 2>/dev/null)" "$same")")
  [[ $kind == --zkey ]] || rm -f "$zkey"
done
tar -C "$out" -czf "$out/proofs.tar.gz" proofs && rm -rf "$out/proofs"

# 3. H2D from a registered pool slot vs cudaHostAlloc vs pageable, and the pool's registration (s/GiB)
if [[ -x "$bin/cuzk-h2d-bench" ]]; then
  log "h2d bench"
  "$bin/cuzk-h2d-bench" --log2 "${CUZK_GPU_H2D_LOG:-24}" >"$out/h2d.log" 2>&1 || status=1
  while read -r line; do summary+=("$line"); done < <(grep -E '^(h2d|register) ' "$out/h2d.log")
fi

# 4. the benchmarks
if [[ "${CUZK_GPU_BENCH:-1}" != 0 && -x "$bin/cuzk-cuda-bench" ]]; then
  log "benchmarks"
  "$bin/cuzk-cuda-bench" --benchmark_filter="${CUZK_GPU_BENCH_FILTER:-.}" --benchmark_out="$out/bench.json" \
    --benchmark_out_format=json >"$out/bench.log" 2>&1 || status=1
  while read -r line; do summary+=("$line"); done < <(grep -E '^[A-Za-z].*(ms|us|s) ' "$out/bench.log" |
    awk '{printf "bench %-44s %12s %s\n", $1, $2, $3}')
fi

printf '\n%s\n' "---- cuzk gpu-check ($(tail -1 "$out/device.txt" | cut -d, -f1)) ----"
printf '%s\n' "${summary[@]}"
# issue 21's side-by-side table (cuzk beside sppark's figures, the targets), last
if [[ -f "$out/bench.json" ]] && command -v python3 >/dev/null; then
  python3 "$root/bench/cuda/side_by_side.py" "$out/bench.json" | tee "$out/side_by_side.md"
fi
exit $status
