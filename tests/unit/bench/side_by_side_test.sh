#!/usr/bin/env bash
# bench/cuda/side_by_side.py on a small cuzk-cuda-bench JSON: each row beside
# the peer, the ratio, the target and its verdict; G2's target from G1's row.
set -euo pipefail
script=${1:?side_by_side.py}
dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT
cat >"$dir/bench.json" <<'JSON'
{"context": {}, "benchmarks": [
 {"name": "BM_cuda_msm_g1_shifted_bls12_381/24/64/manual_time", "run_type": "iteration", "real_time": 80.0,
  "time_unit": "ms", "bases_GiB": 1.5, "shifted_GiB": 18, "copies": 11, "shift_window": 22},
 {"name": "BM_cuda_msm_g2_shifted_bls12_381/24/64/manual_time", "run_type": "iteration", "real_time": 260.0,
  "time_unit": "ms", "bases_GiB": 3, "shifted_GiB": 36, "copies": 11, "shift_window": 22},
 {"name": "BM_cuda_msm_g1_bls12_381/26/manual_time", "run_type": "iteration", "real_time": 600.0, "time_unit": "ms"},
 {"name": "BM_ntt_forward_bls12_381/26/manual_time", "run_type": "iteration", "real_time": 14.0, "time_unit": "ms"},
 {"name": "prove/bls12_381/chain/24/cuda-shifted/iterations:5/manual_time", "run_type": "iteration",
  "real_time": 650.0, "time_unit": "ms"}
]}
JSON
out=$(python3 "$script" "$dir/bench.json")
echo "$out"
expect() { grep -qF -- "$1" <<<"$out" || { echo "FAIL: no line with: $1" >&2; exit 1; }; }
expect "| BLS12-381 G1 MSM 2^24, 11 copies @ 22 | 80 | 156.8 | 1.96× faster | ≤ 70 | missed by 14% | 1.5 + 18 GiB |"
expect "| BLS12-381 G2 MSM 2^24, 11 copies @ 22 | 260 |  |  | ≤ 2.5× G1 = 200 | missed by 30% | 3 + 36 GiB |"
expect "| BLS12-381 G1 MSM 2^26, plain | 600 | 565.1 | 1.06× slower |  |  |  |"
expect "| BLS12-381 NTT 2^26, natural to bit-reversed | 14 | 20.9 | 1.49× faster | ≤ 15 | met |  |"
expect "| BLS12-381 chain proof 2^24, cuda-shifted | 650 |  |  | ≤ 600 | missed by 8% |  |"
[[ $(grep -c '^|' <<<"$out") == 7 ]] || { echo "FAIL: expected a header, a rule and 5 rows" >&2; exit 1; }
echo "side_by_side: ok"
