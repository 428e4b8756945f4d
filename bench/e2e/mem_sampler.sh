#!/usr/bin/env bash
# Samples host memory every INTERVAL seconds until killed (issue 24, docs/benchmarks.md):
# used = MemTotal - MemAvailable, Shmem and /dev/shm's used bytes (the pool and the keys'
# SRS regions), and the RSS and PSS of each process whose pid is a line of PIDS_FILE
# (name pid, re-read every sample: processes come and go), labelled with PHASE_FILE's line.
#   bench/e2e/mem_sampler.sh OUT.csv PHASE_FILE PIDS_FILE [INTERVAL]
# Columns: seconds,phase,used,shmem,shm_used,then name:rss:pss:anon per process (bytes; anon: its private
# anonymous memory, what it holds beyond the shared pool and key regions it maps).
# Summarize with: awk -f bench/e2e/mem_peaks.awk OUT.csv
set -u
out=$1 phase_file=$2 pids_file=$3 interval=${4:-0.2}
t0=$EPOCHREALTIME
: >"$out"
while :; do
  declare -A m=()
  while read -r k v _; do m[${k%:}]=$v; done </proc/meminfo
  shm=$(df -B1 --output=used /dev/shm | tail -1)
  phase=$(cat "$phase_file" 2>/dev/null)
  line="$(awk -v a="$EPOCHREALTIME" -v b="$t0" 'BEGIN {printf "%.2f", a - b}'),${phase//,/;},$(((m[MemTotal] - m[MemAvailable]) * 1024)),$((m[Shmem] * 1024)),${shm// /}"
  if [[ -f $pids_file ]]; then
    while read -r name pid; do
      [[ -r /proc/$pid/smaps_rollup ]] || continue
      rss=0 pss=0 anon=0
      while read -r k v _; do
        case $k in Rss:) rss=$((v * 1024)) ;; Pss:) pss=$((v * 1024)) ;; Anonymous:) anon=$((v * 1024)) ;; esac
      done </proc/"$pid"/smaps_rollup
      line+=",$name:$rss:$pss:$anon"
    done <"$pids_file"
  fi
  echo "$line" >>"$out"
  sleep "$interval"
done
