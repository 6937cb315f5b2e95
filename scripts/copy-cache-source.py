#!/usr/bin/env python3
"""Writes the corpus source validation/virtio-copy-cache-h200-NAME.json from a GPU-machine session's
depth phase (scripts/calibrate-gpu-machine.sh depth: O_DIRECT reads, io_uring, one thread, at rising
queue depth, each point the sweep's way and once over 2 GiB, interleaved rounds): one case per
I/O size and depth, the median over every round of both ways with their range, simulated by
validation/scenarios/virtio-copy-cache-NAME.json on topologies/gpu-machine-h200-NAME.json (whose
vda copy cache `iowall calibrate` fitted on the session's sweep, never on these points).
usage: scripts/copy-cache-source.py SESSION_DIR NAME
"""
import glob
import json
import os
import re
import statistics
import sys

from corpus_files import ROOT, write_json


def main():
    if len(sys.argv) != 3:
        sys.exit(__doc__.strip().splitlines()[-1])
    session, name = os.path.abspath(sys.argv[1]), sys.argv[2]
    sess = os.path.relpath(session, ROOT)
    runs = {}
    for f in sorted(glob.glob(os.path.join(session, "depth", "*.json"))):
        m = re.fullmatch(r"(loop|pass)-(\d+)([KM])-qd(\d+)-r(\d+)\.json", os.path.basename(f))
        if not m:
            continue
        size = int(m[2]) << (10 if m[3] == "K" else 20)
        bw = sum(j["read"]["bw_bytes"] for j in json.load(open(f))["jobs"])
        runs.setdefault((size, int(m[4])), []).append(bw)
    if not runs:
        sys.exit(f"{sess}/depth: no loop-*/pass-* runs")
    topo = f"topologies/gpu-machine-h200-{name}.json"
    scen = f"validation/scenarios/virtio-copy-cache-{name}.json"
    write_json(scen, {
        "name": f"virtio-copy-cache-{name}",
        "description": (f"O_DIRECT reads (io_uring, one thread) into host memory through the GPU VM's virtual disk "
                        f"(vda), once over 2 GiB; the corpus sets the I/O size and queue depth as {sess}/depth "
                        f"ran them: the buffers the reads land in are queue depth x I/O size"),
        "topology": topo,
        "workload": {"kind": "sequential_read", "size": "2 GiB", "io_size": "1 MiB", "threads": 1, "qd": 1,
                     "targets": "gpu0", "storage": "vda"},
        "paths": [{"name": "cpu_only", "io_stack": "io_uring"}],
        "fidelity": "chunk",
        "seed": 1,
    })
    cases = []
    for (size, qd), bws in sorted(runs.items()):
        text = f"{size >> 20} MiB" if size >= 1 << 20 else f"{size >> 10} KiB"
        cases.append({
            "id": f"{text.replace(' ', '').lower()}-qd{qd}",
            "figure": (f"cpu_only {text} QD {qd} ({(size * qd) / (1 << 20):g} MiB of buffers), median of "
                       f"{len(bws)} runs ({min(bws) / 1e9:.3f}-{max(bws) / 1e9:.3f} GB/s)"),
            "published": f"{statistics.median(bws) / 1e9:.4g} GB/s",
            "metric": "throughput",
            "scenario": scen,
            "set": {"/workload/io_size": text, "/workload/qd": qd},
            "path": "cpu_only",
        })
    doc = {
        "source": {
            "title": ("O_DIRECT reads at rising queue depth on the GPU machine's virtual disk: the rate follows the "
                      "memory the reads land in, predicted from the session's calibration sweep"),
            "publisher": "iowall measurement",
            "year": 2026,
            "url": f"{sess}/",
            "where": ("depth/*.json (iowall measure -x cpu_only --engine io_uring --qd N, one thread: 1 s over a "
                      "1 GiB region and once over 2 GiB, interleaved rounds; scripts/copy-cache-source.py); "
                      "depth/buffers.txt (scripts/read-direct.c: the reads in flight and the buffers set apart)"),
        },
        "conditions": {
            "hardware": "16-vCPU Firecracker VM, NVIDIA H200, ext4 on /dev/vda (virtio-blk)",
            "software": "iowall measure io_uring; THP madvise",
            "assumed": [
                f"{topo} comes from the session's calibration sweep (disk/sweep) and writes by "
                "scripts/checkpoint-derive.py: vda's copy_cache and cold_copy_bandwidth were fitted there, never "
                "on these points",
                "the sweep's way and a single pass are pooled: on this VM they agree within their spread",
            ],
        },
        "cases": cases,
    }
    out = write_json(f"validation/virtio-copy-cache-h200-{name}.json", doc)
    print(f"wrote {out}, {scen} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
