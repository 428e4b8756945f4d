#!/usr/bin/env bash
# Builds, on this machine, what scripts/gpu-check.sh runs on a GPU machine, and
# packs it into .gpurun/ (bin/, lib/ with the shared libraries the binaries
# need beyond the C/C++ runtime, data/ with test keys and witnesses), so the
# GPU machine only runs: carry .gpurun and call scripts/gpu-check.sh there.
#   scripts/gpu-pack.sh            # CUDA arch 90 (H100/H200)
# Knobs: CUZK_GPU_BUILD_DIR (default build-gpu), CUDA_ARCH (default 90).
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

build="$CUZK_ROOT/${CUZK_GPU_BUILD_DIR:-build-gpu}"
pack="$CUZK_ROOT/.gpurun"
cmake -G Ninja -S "$CUZK_ROOT" -B "$build" -DCMAKE_BUILD_TYPE=Release -DCUZK_CUDA=ON \
  -DCMAKE_CUDA_ARCHITECTURES="${CUDA_ARCH:-90}" >/dev/null
cuzk_log "build (gpu tests, cuzk-cuda-bench, cuzk-h2d-bench, cuzk, the service) in $build"
ninja -C "$build" -j "$(cuzk_jobs)" tests/gpu/all cuzk-cuda-bench cuzk-h2d-bench cuzk cuzk-bench cuzk-gpu-server cuzk-synth-worker cuzk-shm

rm -rf "$pack/bin" "$pack/lib"
mkdir -p "$pack/bin" "$pack/lib" "$pack/data"
# The device binaries only: the device code's host tests (label math) run in CI, and the pack must stay
# under the 64 MiB a GPU call carries.
mapfile -t bins < <(find "$build/tests/gpu" -maxdepth 2 -type f -executable -name 'cuzk-*' \
  ! -name '*-host-test' ! -name '*-emulator-test' ! -name 'cuzk-key-shifts-test')
bins+=("$build/bench/cuda/cuzk-cuda-bench" "$build/bench/cuda/cuzk-h2d-bench" "$build/client/cuzk" "$build/bench/e2e/cuzk-bench"
       "$build/gpu-server/cuzk-gpu-server" "$build/synth-worker/cuzk-synth-worker" "$build/shm/tool/cuzk-shm")
cp "${bins[@]}" "$pack/bin/"
# The GPU machine's own glibc and libstdc++ are newer: bring everything else.
for b in "${bins[@]}"; do ldd "$b" | awk '/=>/ && $3 ~ /^\// {print $3}'; done | sort -u |
  grep -v -E '/(libc|libm|libstdc\+\+|libgcc_s|ld-linux[^/]*|libpthread|libdl|librt)\.so' |
  while read -r f; do cp -L "$f" "$pack/lib/"; done
# A circom circuit the GPU run proves (tests/gpu/engine, cuzk prove): Mix(N)
# compiled by circom2 for bls12381 and a witness from random inputs.
interop="$CUZK_ROOT/tests/interop"
work=$(mktemp -d)
cp "$interop/circom/mix.circom" "$work/mix_template.circom"
n=${CUZK_GPU_CIRCOM_N:-6000}
printf 'pragma circom 2.0.0;\ninclude "mix_template.circom";\ncomponent main {public [a]} = Mix(%d);\n' "$n" >"$work/mix.circom"
(cd "$work" && node "$interop/node_modules/.bin/circom2" mix.circom --r1cs --wasm --prime bls12381 -o . >/dev/null)
node -e 'const n=+process.argv[1];let b=[];for(let i=0;i<n;i++)b.push(String(BigInt(i)*7919n+BigInt(Math.floor(Math.random()*1e9))));console.log(JSON.stringify({a:String(Math.floor(Math.random()*1e9)),b}))' "$n" >"$work/in.json"
node "$work/mix_js/generate_witness.js" "$work/mix_js/mix.wasm" "$work/in.json" "$pack/data/mix.wtns"
cp "$work/mix.r1cs" "$pack/data/mix.r1cs"
# BN254 as a circom user has it (tests/gpu/service bn254_service_test.cpp): Mix(N)
# compiled with circom's default prime, a key from a snarkjs bn128 ceremony
# (2^13 powers, then a contribution to the circuit's key) and its verifying key.
snarkjs="$interop/node_modules/.bin/snarkjs"
printf 'pragma circom 2.0.0;\ninclude "mix_template.circom";\ncomponent main {public [a]} = Mix(%d);\n' "$n" >"$work/mix_bn254.circom"
(cd "$work" && node "$interop/node_modules/.bin/circom2" mix_bn254.circom --r1cs --wasm -o . >/dev/null)
node "$work/mix_bn254_js/generate_witness.js" "$work/mix_bn254_js/mix_bn254.wasm" "$work/in.json" "$pack/data/mix_bn254.wtns"
node "$snarkjs" powersoftau new bn128 13 "$work/pot0.ptau" >/dev/null
node "$snarkjs" powersoftau contribute "$work/pot0.ptau" "$work/pot1.ptau" -e="cuzk gpu-pack $RANDOM" >/dev/null
node "$snarkjs" powersoftau prepare phase2 "$work/pot1.ptau" "$work/pot.ptau" >/dev/null
node "$snarkjs" groth16 setup "$work/mix_bn254.r1cs" "$work/pot.ptau" "$work/mix_bn254.0.zkey" >/dev/null
node "$snarkjs" zkey contribute "$work/mix_bn254.0.zkey" "$pack/data/mix_bn254.zkey" --name=cuzk -e="cuzk gpu-pack $RANDOM" >/dev/null
node "$snarkjs" zkey export verificationkey "$pack/data/mix_bn254.zkey" "$pack/data/mix_bn254.vk.json" >/dev/null
rm -rf "$work"

strip --strip-unneeded "$pack"/bin/* 2>/dev/null || true
du -sh "$pack"
# What travels to the GPU machine (at most 64 MiB): .gpupack/gpurun.tar.xz, which
# scripts/gpu-check.sh unpacks into .gpurun/ there.
mkdir -p "$CUZK_ROOT/.gpupack"
tar -C "$pack" -cf - bin lib data | xz -T "$(cuzk_jobs)" -6 >"$CUZK_ROOT/.gpupack/gpurun.tar.xz"
du -sh "$CUZK_ROOT/.gpupack/gpurun.tar.xz"
