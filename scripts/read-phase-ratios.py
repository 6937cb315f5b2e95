#!/usr/bin/env python3
"""Per one-run GPU-machine session (each validation/checkpoint-hN-vmN.json): its calibration sweep's 1 MiB
O_DIRECT reads by one thread at QD1 and QD8 (medians of the rounds, disk/sweep/cpu_only-1M-qd{1,8}-t1-r*.json)
beside torch.load's cold read phase measured over the model (the rounds' median load_cold_read against the
phase `read` of the session's own torch-load scenario, at 2 and 8 GB), sessions ranked by the QD8 rate: whether
a session whose sweep serves 1 MiB fast has a model that reads its checkpoints too fast.
usage: scripts/read-phase-ratios.py        Environment: IOWALL (default build/release/iowall).
"""
import glob
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from session_measurements import ROOT, case_phases  # noqa: E402


def sweep_median(session, point):
    runs = glob.glob(os.path.join(ROOT, session, "disk", "sweep", f"cpu_only-{point}-r*.json"))
    bws = [j["read"]["bw_bytes"] / 1e9 for f in runs for j in json.load(open(f))["jobs"]]
    return statistics.median(bws) if bws else None


def read_ratio(iowall, source, session, gb):
    fw = json.load(open(os.path.join(ROOT, session, "frameworks", "checkpoints.json")))["iowall"]
    measured = [r["median_s"] for r in fw["summary"] if r["writer"] == "torch_save"
                and r["size_bytes"] == gb * 10**9 and r["phase"] == "load_cold_read"]
    case = next((c for c in source["cases"] if c["id"] == f"torch_save-{gb}gb-cold-load"), None)
    if not measured or not case:
        return None
    phases, error = case_phases(iowall, case)
    if error is not None:
        sys.exit(f"read-phase-ratios: {case['scenario']}: {error}")
    return measured[0] / next(p for p in phases if p["name"] == "read")["seconds"]


def main():
    iowall = os.path.abspath(os.environ.get("IOWALL", os.path.join(ROOT, "build/release/iowall")))
    rows = []
    for path in sorted(glob.glob(os.path.join(ROOT, "validation", "checkpoint-h*-vm*.json"))):
        source = json.load(open(path))
        session = source["source"]["url"].rstrip("/")
        name = re.search(r"-(vm\d+)\.json$", path).group(1)
        rows.append((name, sweep_median(session, "1M-qd1-t1"), sweep_median(session, "1M-qd8-t1"),
                     [read_ratio(iowall, source, session, gb) for gb in (2, 8)]))
    print("session  1M QD1 GB/s  1M QD8 GB/s  read measured/model 2 GB  8 GB")
    fmt = lambda x: "-" if x is None else f"{x:.2f}"  # noqa: E731
    for name, qd1, qd8, ratios in sorted(rows, key=lambda r: r[2] or 0):
        print(f"{name:7}  {fmt(qd1):>11}  {fmt(qd8):>11}  {fmt(ratios[0]):>24}  {fmt(ratios[1]):>4}")


if __name__ == "__main__":
    main()
