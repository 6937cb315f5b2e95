#!/usr/bin/env python3
"""The ext4 journal on the GPU machine: fit the virtual disk's flush from O_DSYNC
overwrites, predict O_DSYNC writes that allocate (a jbd2 commit each) with the ext4 layer.

  scripts/ext4-journal-report.py [IOWALL] > reports/ext4-journal.md

Reads reports/calibration/gpu-machine/ext4-journal/dsync.txt (scripts/probe-ext4-journal.sh:
dd with oflag=direct,dsync, 256 MiB per run, 3 rounds) and topologies/gpu-machine-h200.json.
The overwrite runs fit two parameters of disk0, flush_cost and flush_drain_bandwidth (a
flush waits for the bytes written since the last one to drain): two sizes, two unknowns.
The allocating runs are not used by the fit: the model predicts them, each write's
fdatasync committing a transaction (journal blocks, PREFLUSH, commit block, FUA, which
virtio-blk emulates with a second flush).
"""
import json
import os
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
IOWALL = sys.argv[1] if len(sys.argv) > 1 else os.path.join(ROOT, "build/release/iowall")
DATA = os.path.join(ROOT, "reports/calibration/gpu-machine/ext4-journal")
SIZES = {"128K": 128 * 1024, "1M": 1024 * 1024}


def measured(run):
    runs = {}
    with open(os.path.join(DATA, run, "dsync.txt")) as f:
        next(f)
        for line in f:
            io, mode, _, size, seconds = line.split()
            runs.setdefault((io, mode), []).append(float(seconds) / (int(size) / SIZES[io]) * 1e6)
    return {k: (statistics.median(v), min(v), max(v)) for k, v in runs.items()}


def model(io, mode, flush_cost_us, drain_gbps):
    with open(os.path.join(ROOT, "topologies/gpu-machine-h200.json")) as f:
        topo = json.load(f)
    for d in topo["devices"]:
        if d["id"] == "disk0":
            d["flush_cost"] = f"{flush_cost_us:.3f} us"
            d["flush_drain_bandwidth"] = f"{drain_gbps:.4f} GB/s"
    size = 64 * 1024 * 1024
    topo["devices"].append({"id": "fs0", "model": "ext4", "device": "disk0",
                            "existing_file_size": f"{size} B" if mode == "overwrite" else "0 B"})
    doc = {"name": "ext4-journal", "topology": topo,
           "workload": {"kind": "sequential_write", "size": f"{size} B", "io_size": f"{SIZES[io]} B", "threads": 1,
                        "qd": 1, "targets": "dram0", "storage": "fs0", "durability": "o_dsync"},
           "paths": ["cpu_only"], "fidelity": "chunk", "seed": 1}
    with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as f:
        json.dump(doc, f)
    try:
        out = subprocess.run([IOWALL, "run", f.name, "--output-format", "json"], check=True, capture_output=True,
                             text=True).stdout
    finally:
        os.unlink(f.name)
    r = json.loads(out)
    return r["metrics"]["cpu_only"]["latency_mean_us"], r["stats"]["cpu_only"]


def report(run):
    m = measured(run)
    # The model's O_DSYNC overwrite without any flush time: what the flush must add.
    base = {io: model(io, "overwrite", 0.0, 0.0)[0] for io in SIZES}
    flush = {io: m[(io, "overwrite")][0] - base[io] for io in SIZES}
    # flush(s) = a + s / D over the two sizes.
    s1, s2 = SIZES["128K"], SIZES["1M"]
    f1, f2 = flush["128K"], flush["1M"]
    drain = (s2 - s1) / ((f2 - f1) * 1e-6) / 1e9  # GB/s
    a = f1 - s1 / (drain * 1e9) * 1e6
    print(f"## {run}: fit (overwrites)\n")
    print("| I/O | measured per write, median (min..max) | model without flush | flush the overwrite implies |")
    print("|---|---:|---:|---:|")
    for io in SIZES:
        med, lo, hi = m[(io, "overwrite")]
        print(f"| {io} | {med:.1f} us ({lo:.1f}..{hi:.1f}) | {base[io]:.1f} us | {flush[io]:.1f} us |")
    print(f"\nflush = {a:.1f} us + bytes written since the last flush / {drain:.2f} GB/s "
          "(flush_cost, flush_drain_bandwidth).\n")
    print(f"## {run}: prediction (allocating writes, held out)\n")
    print("| I/O | measured per write, median (min..max) | ext4 model | error | commits | journal blocks |"
          " same model, flush constant (fitted at 128K) | error |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for io in SIZES:
        med, lo, hi = m[(io, "allocating")]
        lat, stats = model(io, "allocating", a, drain)
        flat = model(io, "allocating", flush["128K"], 0.0)[0]
        commits = stats["fs0/commits"]["value"]
        blocks = stats["fs0/journal_blocks"]["value"]
        print(f"| {io} | {med:.1f} us ({lo:.1f}..{hi:.1f}) | {lat:.1f} us | {100 * (lat / med - 1):+.1f}% | "
              f"{commits:.0f} | {blocks:.0f} | {flat:.1f} us | {100 * (flat / med - 1):+.1f}% |")
    over = {io: model(io, "overwrite", a, drain)[0] for io in SIZES}
    print("\nThe fitted model gives the overwrites back: " +
          ", ".join(f"{io} {over[io]:.1f} us" for io in SIZES) + ".\n")


def main():
    print("# The ext4 journal on the GPU machine: O_DSYNC writes that allocate\n")
    print("Regenerate: `scripts/ext4-journal-report.py > reports/ext4-journal.md` (measurements: "
          "`scripts/probe-ext4-journal.sh`, in reports/calibration/gpu-machine/ext4-journal/run1 and run2: two "
          "device calls, two VMs).\n")
    print("dd with `oflag=direct,dsync`, one thread, 256 MiB per run, 3 rounds alternating, on the VM's root ext4 "
          "(virtio disk, write cache `write back`, mount `barrier`, no fast commits: fc_info counts none; "
          "run1/machine.txt). A write into a new file allocates blocks, so its fdatasync commits a jbd2 "
          "transaction; the same write over the file once written only flushes the disk. The ext4 layer "
          "(models/storage/ext4_fs.hpp) over the topology's disk0 (topologies/gpu-machine-h200.json) with two "
          "flush parameters fitted from each run's overwrites, nothing from its allocating writes.\n")
    for run in ("run1", "run2"):
        report(run)
    print("What the numbers say: an allocating O_DSYNC write costs its overwrite plus a journal commit (the "
          "descriptor, inode, bitmap and group-descriptor blocks, then the commit block: 5 blocks of 4 KiB) and a "
          "second flush that drains only those; a flush of constant cost (the earlier lumped model) charges the "
          "second flush as much as the first and misses both sizes by far more (40-70% against 5-35%). What the "
          "model still lacks: the measured commit grows with the I/O size (27-50 us over the overwrite at 128 KiB, "
          "143-231 us at 1 MiB) where the model's is nearly fixed (about 80-90 us: two small writes at the disk's "
          "20 us write latency and a second flush), so it is long at 128 KiB and short at 1 MiB; the cause is not "
          "identified (no fast commits on this file system; the unwritten-extent conversion after the data and "
          "the host's handling of the flushes are candidates). The two VMs differ by up to 30% on the same point "
          "(128 KiB overwrite 152 vs 116 us), which "
          "is why each run is fitted on its own.")


if __name__ == "__main__":
    main()
