#!/bin/bash
# Builds the protocol decoder's libFuzzer target with clang (ASan + UBSan,
# no recovery) and runs it for a bounded time from a seed corpus. Exit 77
# (ctest: skipped) when no clang is found; non-zero on any crash, leak or
# sanitizer report.
#   run_proto_fuzz.sh CLANGXX PROTOC PROTO_FILE SOURCE_ROOT WORK_DIR CORPUS_GEN SECONDS CODEC_SOURCES...
set -euo pipefail
clangxx=$1 protoc=$2 proto_file=$3 root=$4 work=$5 corpus_gen=$6 seconds=$7
shift 7
codec_sources=("$@")

if [[ -z "$clangxx" || "$clangxx" == *NOTFOUND || ! -x "$clangxx" ]]; then
  echo "proto_decode_fuzz: skipped: no clang++ found (install clang and libclang-rt-dev, then reconfigure)"
  exit 77
fi

mkdir -p "$work/gen/proto"
fuzzer="$work/proto_decode_fuzz"
target="$root/tests/fuzz/proto_decode_fuzz.cpp"

# Rebuild only when an input is newer than the binary (clang + ASan on the
# generated protobuf code takes a minute on a small machine).
stale=0
[[ -x "$fuzzer" ]] || stale=1
for f in "$proto_file" "$target" "${codec_sources[@]}" "$root"/common/proto/*.hpp "$root"/common/util/expected.hpp; do
  [[ $stale == 1 || "$f" -nt "$fuzzer" ]] && stale=1
done
if [[ $stale == 1 ]]; then
  echo "proto_decode_fuzz: building with $clangxx"
  "$protoc" --cpp_out="$work/gen/proto" -I "$(dirname "$proto_file")" "$proto_file"
  "$clangxx" -std=c++20 -O1 -g -fno-omit-frame-pointer \
    -fsanitize=fuzzer,address,undefined -fno-sanitize-recover=all \
    -I "$root/common" -isystem "$work/gen" \
    "$target" "${codec_sources[@]}" "$work/gen/proto/cuzk.pb.cc" \
    -lprotobuf -o "$fuzzer.tmp"
  mv "$fuzzer.tmp" "$fuzzer"
fi

# A fresh working corpus each run: the committed seeds plus generated ones.
rm -rf "$work/corpus" "$work/artifacts"
mkdir -p "$work/corpus" "$work/artifacts"
cp "$root"/tests/fuzz/corpus/proto/* "$work/corpus/" 2>/dev/null || true
"$corpus_gen" "$work/corpus"

echo "proto_decode_fuzz: fuzzing for ${seconds}s from $(ls "$work/corpus" | wc -l) seeds"
export ASAN_OPTIONS=abort_on_error=0:detect_leaks=1
export UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
# libFuzzer's default exit status for a crash is 77, which ctest would read
# as "skipped": every failure must exit 1.
rc=0
"$fuzzer" -max_total_time="$seconds" -max_len=8192 -timeout=10 -rss_limit_mb=2048 \
  -error_exitcode=1 -timeout_exitcode=1 -print_final_stats=1 \
  -artifact_prefix="$work/artifacts/" "$work/corpus" || rc=$?
if [[ $rc != 0 ]]; then
  echo "proto_decode_fuzz: FAILED (exit $rc); reproducer(s) in $work/artifacts:" >&2
  ls -l "$work/artifacts" >&2
  exit 1
fi
