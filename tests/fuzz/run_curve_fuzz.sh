#!/bin/bash
# Builds the CURVE server codec's libFuzzer target with clang (ASan + UBSan,
# no recovery) and runs it for a bounded time from a few seeds (one per
# mode). Exit 77 (ctest: skipped) when no clang is found; non-zero on any
# crash, leak or sanitizer report.
#   run_curve_fuzz.sh CLANGXX SOURCE_ROOT WORK_DIR SECONDS
set -euo pipefail
clangxx=$1 root=$2 work=$3 seconds=$4

if [[ -z "$clangxx" || "$clangxx" == *NOTFOUND || ! -x "$clangxx" ]]; then
  echo "curve_fuzz: skipped: no clang++ found (install clang and libclang-rt-dev, then reconfigure)"
  exit 77
fi

mkdir -p "$work"
fuzzer="$work/curve_fuzz"
sources=("$root/tests/fuzz/curve_fuzz.cpp" "$root/common/net/zmtp.cpp" "$root/common/net/curve_server.cpp"
         "$root/tests/support/curve_client.cpp")
stale=0
[[ -x "$fuzzer" ]] || stale=1
for f in "${sources[@]}" "$root"/common/net/zmtp.hpp "$root"/common/net/curve_server.hpp "$root"/tests/support/curve_client.hpp; do
  [[ $stale == 1 || "$f" -nt "$fuzzer" ]] && stale=1
done
if [[ $stale == 1 ]]; then
  echo "curve_fuzz: building with $clangxx"
  "$clangxx" -std=c++20 -O1 -g -fno-omit-frame-pointer -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -I "$root/common" -I "$root/tests/support" "${sources[@]}" $(pkg-config --cflags --libs libsodium libzmq) -o "$fuzzer.tmp"
  mv "$fuzzer.tmp" "$fuzzer"
fi

rm -rf "$work/corpus" "$work/artifacts"
mkdir -p "$work/corpus" "$work/artifacts"
printf '\x00\xff\x00\x00\x00\x00\x00\x00\x00\x00\x7f\x03\x01CURVE' > "$work/corpus/greeting"
printf '\x01\x04\x05\x05HELLO' > "$work/corpus/short-hello"
printf '\x02\x40\x01\x02\x03' > "$work/corpus/initiate"
printf '\x03\x00\x01\x02\x03' > "$work/corpus/sealed"
printf '\x03\x01\x02\xff\xff\xff\xff\xff\xff\xff\xff' > "$work/corpus/huge"

echo "curve_fuzz: fuzzing for ${seconds}s"
export ASAN_OPTIONS=abort_on_error=0:detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
rc=0
"$fuzzer" -max_total_time="$seconds" -max_len=4096 -timeout=10 -rss_limit_mb=2048 \
  -error_exitcode=1 -timeout_exitcode=1 -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" "$work/corpus" || rc=$?
if [[ $rc != 0 ]]; then
  echo "curve_fuzz: FAILED (exit $rc); reproducer(s) in $work/artifacts:" >&2
  ls -l "$work/artifacts" >&2
  exit 1
fi
