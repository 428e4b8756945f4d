#!/bin/bash
# Builds the file readers' libFuzzer target with clang (ASan + UBSan, no
# recovery) and runs it on one reader for a bounded time from a seed corpus.
# Exit 77 (ctest: skipped) when no clang is found; non-zero on any crash,
# leak or sanitizer report. The three readers share one binary, built once
# (under a lock: ctest -j may start the three tests together) and kept in
# WORK_DIR until a source under common/{r1cs,io,ec,ff,groth16} changes.
#   run_file_fuzz.sh CLANGXX READER SOURCE_ROOT WORK_DIR CORPUS_GEN SECONDS
set -euo pipefail
clangxx=$1 reader=$2 root=$3 work=$4 corpus_gen=$5 seconds=$6
name=${reader}_reader_fuzz

if [[ -z "$clangxx" || "$clangxx" == *NOTFOUND || ! -x "$clangxx" ]]; then
  echo "$name: skipped: no clang++ found (install clang and libclang-rt-dev, then reconfigure)"
  exit 77
fi

mkdir -p "$work/obj"
fuzzer="$work/file_fuzz"
sources=(tests/fuzz/file_fuzz.cpp common/r1cs/binfile.cpp common/r1cs/input_file.cpp common/r1cs/r1cs_file.cpp common/r1cs/matrices.cpp
         common/r1cs/wtns_file.cpp common/io/zkey.cpp common/io/zkey_layout.cpp common/ec/serialize_snarkjs.cpp common/ec/subgroup.cpp
         common/ec/g1_scalar_mul.cpp common/ec/g2_scalar_mul.cpp common/util/read_at.cpp)

build() {
  local stale=0
  [[ -x "$fuzzer" ]] || stale=1
  if [[ $stale == 0 ]] && [[ -n "$(find "$root"/common/{r1cs,io,ec,ff,groth16,util} "$root"/tests/fuzz/file_fuzz.cpp \
                                    "$root"/tests/fuzz/run_file_fuzz.sh -newer "$fuzzer" \( -name '*.[ch]pp' -o -name '*.sh' \) \
                                    -print -quit)" ]]; then
    stale=1
  fi
  [[ $stale == 1 ]] || return 0
  echo "$name: building the file readers' fuzzer with $clangxx"
  rm -f "$work"/obj/*.o
  # -O2: the readers' field and curve arithmetic is most of the time per input
  printf '%s\n' "${sources[@]}" | xargs -P 2 -I{} sh -c '
    "$1" -std=c++20 -O2 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
      -I "$2/common" -c "$2/$3" -o "$4/obj/$(echo "$3" | tr / _).o"' sh "$clangxx" "$root" {} "$work"
  "$clangxx" -fsanitize=fuzzer,address,undefined "$work"/obj/*.o -ltbb -o "$fuzzer.tmp"
  mv "$fuzzer.tmp" "$fuzzer"
}
(
  flock 9
  build
) 9>"$work/build.lock"

# A fresh working corpus each run, generated from valid small files.
corpus="$work/$reader/corpus" artifacts="$work/$reader/artifacts"
rm -rf "$work/$reader"
mkdir -p "$corpus" "$artifacts"
"$corpus_gen" "$reader" "$root/tests/unit/r1cs/data" "$corpus"
case $reader in
  zkey) max_len=16384 ;;
  r1cs) max_len=8192 ;;
  *) max_len=4096 ;;
esac

echo "$name: fuzzing for ${seconds}s from $(ls "$corpus" | wc -l) seeds"
export CUZK_FUZZ_READER=$reader
export ASAN_OPTIONS=abort_on_error=0:detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# libFuzzer's default exit status for a crash is 77, which ctest would read
# as "skipped": every failure must exit 1.
rc=0
"$fuzzer" -max_total_time="$seconds" -max_len=$max_len -timeout=10 -rss_limit_mb=2048 \
  -error_exitcode=1 -timeout_exitcode=1 -print_final_stats=1 \
  -artifact_prefix="$artifacts/" "$corpus" || rc=$?
if [[ $rc != 0 ]]; then
  echo "$name: FAILED (exit $rc); reproducer(s) in $artifacts (replay: CUZK_FUZZ_READER=$reader $fuzzer FILE):" >&2
  ls -l "$artifacts" >&2
  exit 1
fi
