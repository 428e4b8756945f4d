#!/usr/bin/env python3
"""Issue 21's side-by-side table from a cuzk-cuda-bench JSON file (--benchmark_out):
cuzk's milliseconds beside the peer's (sppark on the same H200, bases and scalars
resident, as the issue measured them), the ratio, the target and whether it is
met; the MSM rows also give the device memory of their bases and copies.
  bench/cuda/side_by_side.py BENCH_JSON
Rows the file does not hold are left out."""
import json
import re
import sys

# sppark, measured by issue 21 on this H200 (milliseconds)
PEER = {("msm", 20): 21.2, ("msm", 24): 156.8, ("msm", 26): 565.1,
        ("ntt", 24): 4.43, ("ntt", 26): 20.9, ("ntt", 27): 42.3}
# issue 21's targets (milliseconds; G2's is a multiple of G1's at the same size and mode)
TARGET = {("g1", "bls12_381", 24, True): 70, ("g1", "bls12_381", 26, True): 250,
          ("ntt", 26): 15, ("ntt", 27): 28,
          ("prove", "bls12_381", "chain", 24): 600, ("prove", "bls12_381", "sha256", 24): 200}
G2_TIMES_G1 = 2.5
CURVE = {"bls12_381": "BLS12-381", "bn254": "BN254"}


def verdict(ms, target, label=None):
    if target is None:
        return "", ""
    shown = label or f"≤ {target:.4g}"
    return shown, "met" if ms <= target else f"missed by {100 * (ms / target - 1):.0f}%"


def rows(benchmarks):
    by_name = {b["name"]: b for b in benchmarks if b.get("run_type", "iteration") == "iteration"}
    msm = {}
    for name, b in by_name.items():
        m = re.match(r"BM_cuda_msm_(g1|g2)(_shifted)?_(\w+?)/(\d+)(/\d+)?/manual_time$", name)
        if m:
            msm[(m[1], m[3], int(m[4]), bool(m[2]))] = b
    out = []
    for key in sorted(msm, key=lambda k: (k[1] != "bls12_381", k[0], k[2], k[3])):
        g, curve, log_n, shifted = key
        b = msm[key]
        ms = b["real_time"]
        peer = PEER.get(("msm", log_n)) if g == "g1" and curve == "bls12_381" else None
        target, shown = TARGET.get(key), None
        if g == "g2" and ("g1", curve, log_n, shifted) in msm:
            target = G2_TIMES_G1 * msm[("g1", curve, log_n, shifted)]["real_time"]
            shown = f"≤ {G2_TIMES_G1:g}× G1 = {target:.4g}"
        memory = f"{b.get('bases_GiB', 0):g} + {b.get('shifted_GiB', 0):g} GiB" if shifted else ""
        label = f"{CURVE.get(curve, curve)} {g.upper()} MSM 2^{log_n}, " + (
            f"{int(b.get('copies', 0))} copies @ {int(b.get('shift_window', 0))}" if shifted else "plain")
        out.append((label, ms, peer, *verdict(ms, target, shown), memory))
    for name, b in by_name.items():
        m = re.match(r"BM_ntt_forward_(\w+?)/(\d+)/manual_time$", name)
        if m:
            key = ("ntt", int(m[2])) if m[1] == "bls12_381" else None
            out.append((f"{CURVE.get(m[1], m[1])} NTT 2^{m[2]}, natural to bit-reversed", b["real_time"],
                        PEER.get(key), *verdict(b["real_time"], TARGET.get(key)), ""))
    for name, b in by_name.items():
        m = re.match(r"prove/(\w+?)/(\w+)/(\d+)/([\w-]+)/", name)
        if m:
            target = TARGET.get(("prove", m[1], m[2], int(m[3]))) if m[4] == "cuda-shifted" else None
            out.append((f"{CURVE.get(m[1], m[1])} {m[2]} proof 2^{m[3]}, {m[4]}", b["real_time"], None,
                        *verdict(b["real_time"], target), ""))
    return out


def main():
    benchmarks = json.load(open(sys.argv[1]))["benchmarks"]
    print("| row | cuzk ms | sppark ms | cuzk vs sppark | target ms | verdict | device memory (bases + copies) |")
    print("|---|---|---|---|---|---|---|")
    for label, ms, peer, target, verdict_text, memory in rows(benchmarks):
        ratio = "" if peer is None else (f"{peer / ms:.2f}× faster" if ms <= peer else f"{ms / peer:.2f}× slower")
        print(f"| {label} | {ms:.3g} | {'' if peer is None else f'{peer:g}'} | {ratio} | {target} | {verdict_text} "
              f"| {memory} |")


if __name__ == "__main__":
    main()
