#!/usr/bin/env python3
"""Writes the corpus source validation/page-cache-reads-h200.json from the page-cache probes of GPU-machine
sessions (scripts/probe-page-cache.py, phase pagecache of scripts/calibrate-gpu-machine.sh): per session, the
cold buffered read (4 MiB readinto()s of a file whose pages were dropped, into memory already mapped, the
VM's readahead), the median of the rounds with their range, each simulated on that session's topology
(topologies/gpu-machine-h200-NAME.json, from its calibration sweep by scripts/checkpoint-derive.py; the
probe's reads are used by neither) by validation/scenarios/page-cache-reads-NAME.json.
usage: scripts/page-cache-source.py SESSION_DIR:NAME...
"""
import json
import os
import statistics
import sys

from corpus_files import ROOT, write_json


def scenario(name, sess, queue, size):
    path = f"validation/scenarios/page-cache-reads-{name}.json"
    doc = {
        "name": f"page-cache-reads-{name}",
        "description": (f"scripts/probe-page-cache.py's reads of one {size >> 30} GiB file on session {sess}: "
                        f"buffered 4 MiB reads by one blocking reader with the VM's readahead (read_ahead "
                        f"{queue['read_ahead_kb'] >> 10} MiB, max_sectors {queue['max_sectors_kb'] >> 10} MiB, as the "
                        f"probe read them off /sys/block/vda/queue), into memory already mapped, through the virtual "
                        f"disk (vda)"),
        "topology": f"topologies/gpu-machine-h200-{name}.json",
        "workload": {"kind": "sequential_read", "size": f"{size >> 30} GiB", "io_size": "4 MiB", "threads": 1,
                     "qd": 1, "targets": "dram0", "storage": "vda"},
        "paths": [{"name": "cpu_cached", "read_ahead": f"{queue['read_ahead_kb'] >> 10} MiB",
                   "max_sectors": f"{queue['max_sectors_kb'] >> 10} MiB"}],
        "fidelity": "chunk",
        "seed": 1,
    }
    return write_json(path, doc)


def main():
    if len(sys.argv) < 2 or any(":" not in a for a in sys.argv[1:]):
        sys.exit(__doc__.strip().splitlines()[-1])
    cases, sessions, assumed = [], [], []
    for arg in sys.argv[1:]:
        folder, name = arg.rsplit(":", 1)
        sess = os.path.relpath(os.path.abspath(folder), ROOT)
        pc = json.load(open(os.path.join(ROOT, sess, "pagecache", "page-cache.json")))
        size = pc["bytes"]
        queue = pc["machine"].get("queue")
        if not queue:  # an early probe did not record the queue: the VMs' kind has one setting
            queue = {"read_ahead_kb": 8192, "max_sectors_kb": 4096}
            assumed.append(f"session {name}'s probe recorded no queue settings: read_ahead_kb 8192 and "
                           f"max_sectors_kb 4096, as every later session of the same VM kind recorded")
        scen = scenario(name, sess, queue, size)
        sessions.append(sess)
        for key, path, io, what in (("read_cold_s", "cpu_cached", "4 MiB", "buffered 4 MiB readinto(), page cache cold"),):
            runs = [r[key] for r in pc["records"] if key in r]
            if not runs:
                continue
            gbs = [size / t / 1e9 for t in runs]
            cases.append({
                "id": f"{name}-{key[:-2].replace('_', '-')}",
                "figure": (f"session {name}: {what}, {size >> 30} GiB, median of {len(runs)} rounds "
                           f"({min(gbs):.3f}-{max(gbs):.3f} GB/s)"),
                "published": f"{statistics.median(gbs):.4g} GB/s",
                "metric": "throughput",
                "scenario": scen,
                "set": {"/workload/io_size": io},
                "path": path,
            })
    doc = {
        "source": {
            "title": ("Cold buffered reads of a file on the GPU machine's virtual disk, predicted from each "
                      "session's calibration sweep"),
            "publisher": "iowall measurement",
            "year": 2026,
            "url": ", ".join(f"{s}/pagecache/" for s in sessions),
            "where": "page-cache.json records (read_cold_s) of scripts/probe-page-cache.py; "
                     "scripts/page-cache-source.py",
        },
        "conditions": {
            "hardware": "16-vCPU Firecracker VMs, NVIDIA H200, ext4 on /dev/vda (virtio-blk)",
            "software": "scripts/probe-page-cache.py (Python readinto, os.preadv); THP madvise",
            "assumed": [
                "each session's topology comes from its own calibration sweep and writes (scripts/checkpoint-derive.py), "
                "never from these reads",
                "the reads end in host memory (targets dram0): the probe copies nothing on to the GPU",
                "the probe's O_DIRECT reads (read_direct_s) are left out: their buffer (a 1 MiB anonymous mapping, 4 KiB "
                "pages) had its physically contiguous runs unrecorded, and they decide the answer by a factor of two "
                "(one segment a page: about 1.0 GB/s simulated; one a request: about 2.2; measured 1.76-2.15)",
            ] + assumed,
        },
        "cases": cases,
    }
    out = write_json("validation/page-cache-reads-h200.json", doc)
    print(f"wrote {out} ({len(cases)} cases)")


if __name__ == "__main__":
    main()
