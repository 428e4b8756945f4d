#!/usr/bin/env bash
# Setup + build + run the demo.
#   scripts/demo.sh                 the default demo (now: micro-benchmarks)
#   scripts/demo.sh bench [ARGS]    micro-benchmarks; ARGS go to the benchmark
#                                   binary, e.g. --benchmark_filter=fp
# CUZK_DEMO_MIN_TIME (seconds per benchmark repetition, default 0.2) trades
# precision for time; with the default the run takes about a minute.
# CUZK_DEMO_FILTER (default: everything but the NTT and MSM benchmarks, which
# take minutes at 2^20) selects benchmarks; a --benchmark_filter in ARGS wins.
set -euo pipefail
# shellcheck source=scripts/lib.sh
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"

# Later: the whole service (cuzk-shm, cuzk-gpu-server, workers, a proof).
DEFAULT_DEMO=bench

demo_bench() {
  if ! compgen -G "$CUZK_ROOT/bench/micro/*_bench.cpp" >/dev/null; then
    cuzk_die "no micro-benchmarks in bench/micro yet: nothing to demo"
  fi
  cuzk_configure
  cuzk_build cuzk-micro-bench

  local out="$CUZK_ROOT/$CUZK_BUILD_DIR/demo"
  mkdir -p "$out"
  cuzk_log "micro-benchmarks (3 repetitions each; a warning that" \
    "the library was built as DEBUG is about Debian's Google Benchmark, not cuzk)"
  # The console shows the median of each benchmark as it finishes (line
  # buffered through the filter); the JSON file keeps every repetition.
  stdbuf -oL "$CUZK_ROOT/$CUZK_BUILD_DIR/bench/micro/cuzk-micro-bench" \
    --benchmark_min_time="${CUZK_DEMO_MIN_TIME:-0.2}" \
    --benchmark_repetitions=3 --benchmark_display_aggregates_only=true \
    --benchmark_filter="${CUZK_DEMO_FILTER:--msm|ntt}" \
    --benchmark_out="$out/micro-bench.json" --benchmark_out_format=json "$@" |
    { grep --line-buffered -v -E '_(mean|stddev|cv) ' || true; }

  echo
  cuzk_log "summary (raw results: $CUZK_BUILD_DIR/demo/micro-bench.json)"
  node "$CUZK_ROOT/scripts/bench-summary.mjs" "$out/micro-bench.json"
}

demo="$DEFAULT_DEMO"
if [[ $# -gt 0 && "$1" != -* ]]; then demo="$1"; shift; fi

cuzk_setup
case "$demo" in
  bench) demo_bench "$@" ;;
  *) cuzk_die "unknown demo '$demo' (known: bench)" ;;
esac
