#!/usr/bin/env python3
"""Writes the corpus source validation/page-cache-reads-h200.json from the page-cache probes of GPU-machine
sessions (scripts/probe-page-cache.py, phase pagecache of scripts/calibrate-gpu-machine.sh): per session, the
cold buffered read (4 MiB readinto()s of a file whose pages were dropped, into memory already mapped, the
VM's readahead), the median of the rounds with their range, each simulated on that session's topology
(topologies/gpu-machine-h200-NAME.json, from its calibration sweep by scripts/checkpoint-derive.py; the
probe's reads are used by neither) by validation/scenarios/page-cache-reads-NAME.json. A session that ran
scripts/probe-cold-loads.py (phase coldloads) instead gives its plain cold reads of the checkpoint files
(stream_here: 4 MiB readinto()s into one reused buffer, in the process that loads them) at each size. A
session whose framework checkpoints ran the plain_stream writer (scripts/checkpoint-frameworks.py) gives that
too: a new file of each state's size, written and fsync'ed, read cold in 4 MiB readinto()s in the same rounds as
the framework loads (the disk's stream at the time of the checkpoints). A session that ran
scripts/probe-stream-timeline.py and no framework checkpoints gives its buffered cold reads of an old file
and of a new one (its topology from scripts/stream-derive.py).
A session that ran scripts/probe-read-path.py and neither framework checkpoints nor the page-cache probe gives its
buffered_4m cold reads (its topology from scripts/stream-derive.py).
usage: scripts/page-cache-source.py SESSION_DIR:NAME...
"""
import json
import os
import statistics
import sys

from corpus_files import ROOT, write_json


def topology_of(name):
    """The session's topology as scripts/checkpoint-derive.py named it (gpu-machine-h200-NAME or -h100-NAME)."""
    for tag in ("h200", "h100"):
        path = f"topologies/gpu-machine-{tag}-{name}.json"
        if os.path.exists(os.path.join(ROOT, path)):
            return path
    sys.exit(f"page-cache-source: no topologies/gpu-machine-*-{name}.json (run scripts/checkpoint-derive.py first)")


def scenario(name, sess, queue, size, what=None, queue_src="as the probe read them off /sys/block/vda/queue"):
    path = f"validation/scenarios/page-cache-reads-{name}.json"
    what = what or f"scripts/probe-page-cache.py's reads of one {size >> 30} GiB file"
    doc = {
        "name": f"page-cache-reads-{name}",
        "description": (f"{what} on session {sess}: "
                        f"buffered 4 MiB reads by one blocking reader with the VM's readahead (read_ahead "
                        f"{queue['read_ahead_kb'] >> 10} MiB, max_sectors {queue['max_sectors_kb'] >> 10} MiB, "
                        f"{queue_src}), into memory already mapped, through the virtual disk (vda)"),
        "topology": topology_of(name),
        "workload": {"kind": "sequential_read", "size": f"{size >> 30} GiB" if size % (1 << 30) == 0 else f"{size} B",
                     "io_size": "4 MiB", "threads": 1, "qd": 1, "targets": "dram0", "storage": "vda"},
        "paths": [{"name": "cpu_cached", "read_ahead": f"{queue['read_ahead_kb'] >> 10} MiB",
                   "max_sectors": f"{queue['max_sectors_kb'] >> 10} MiB"}],
        "fidelity": "chunk",
        "seed": 1,
    }
    return write_json(path, doc)


def stream_cases(name, sess, assumed, runs, seconds, recorder, what, case_id, figure, queue=None):
    """One case per size from a session's plain cold stream reads (the median of the rounds): `runs` by size
    key, `seconds(run)` a run's read time, `what` the scenario's description of the reads, `case_id(key)` and
    `figure(key, size, rounds)` the case's id and the start of its figure. `queue`: the disk's queue settings
    as the tool that recorded these reads (`recorder`) found them; where it recorded none, the VM kind's, as
    every page-cache probe recorded them."""
    if queue:
        queue_src = f"as the {recorder} read them off /sys/block/vda/queue"
    else:
        queue = {"read_ahead_kb": 8192, "max_sectors_kb": 4096}
        assumed.append(f"session {name}'s {recorder} recorded no queue settings: read_ahead_kb 8192 and "
                       f"max_sectors_kb 4096, as every page-cache probe of the same VM kind recorded")
        queue_src = "the VM kind's, as every page-cache probe read them off /sys/block/vda/queue"
    scen = scenario(name, sess, queue, max(x[0]["file_bytes"] for x in runs.values()), what, queue_src)
    cases = []
    for key, rs in sorted(runs.items()):
        size = rs[0]["file_bytes"]
        gbs = [size / seconds(r) / 1e9 for r in rs]
        cases.append({
            "id": case_id(key),
            "figure": f"{figure(key, size, len(rs))} ({min(gbs):.3f}-{max(gbs):.3f} GB/s)",
            "published": f"{statistics.median(gbs):.4g} GB/s",
            "metric": "throughput",
            "scenario": scen,
            "set": {"/workload/io_size": "4 MiB", "/workload/size": f"{size} B"},
            "path": "cpu_cached",
        })
    return cases


def cold_load_streams(name, sess, cl, assumed):
    """probe-cold-loads' plain cold reads of the torch checkpoint file (stream_here)."""
    runs = {}
    for r in cl["records"]:
        if r["case"] == "stream_here":
            runs.setdefault(r["size_gb"], []).append(r)
    return stream_cases(
        name, sess, assumed, runs, lambda r: r["seconds"], "cold-load probe",
        "scripts/probe-cold-loads.py's plain reads of torch.save's checkpoint files (the size set per case)",
        lambda gb: f"{name}-stream-{gb:g}gb",
        lambda gb, size, n: (f"session {name}: buffered 4 MiB readinto() of torch.save's {gb:g} GB checkpoint file "
                             f"({size} bytes), page cache cold, in the process that loads it, median of {n} rounds"))


def plain_streams(name, sess, fw, assumed):
    """The frameworks run's plain_stream cold reads (scripts/checkpoint-frameworks.py)."""
    runs = {}
    for r in fw["records"]:
        if r["writer"] == "plain_stream" and not r.get("error") and "load_cold_read" in r["phases"]:
            runs.setdefault(r["size_bytes"], []).append(r)
    return stream_cases(
        name, sess, assumed, runs, lambda r: r["phases"]["load_cold_read"]["seconds"], "framework run",
        "scripts/checkpoint-frameworks.py's plain_stream reads (a new file of each state's size, read cold in the "
        "same rounds as the framework loads; the size set per case)",
        lambda b: f"{name}-plain-stream-{b / 1e9:g}gb",
        lambda b, size, n: (f"session {name}: buffered 4 MiB readinto() of a new {size} byte file written and fsync'ed "
                            f"just before, page cache cold, in the rounds of the framework checkpoints, median of {n} "
                            f"rounds"),
        queue=fw.get("machine", {}).get("block_queue"))


def timeline_streams(name, sess, tl):
    """probe-stream-timeline's buffered cold reads: of a file written long before, after the disk was left
    idle (buffered_idle), and of a new file written and fsync'ed just before (after_write, the checkpoints'
    order). Its O_DIRECT reads are left out, as the page-cache probe's are (the source's conditions say why)."""
    cases = []
    for case, label in (("buffered_idle", "a file written before the rounds, the disk idle 2 s before"),
                        ("after_write", "a new file written and fsync'ed just before")):
        runs = {}
        for r in tl["records"]:
            if r["case"] == case:
                runs.setdefault(r["size_gb"], []).append({**r, "file_bytes": r["bytes"]})
        cases += stream_cases(
            name, sess, [], runs, lambda r: r["wall_s"], "timeline probe",
            "scripts/probe-stream-timeline.py's buffered reads (4 MiB readinto() into one reused buffer, the size "
            "set per case)",
            lambda gb, c=case: f"{name}-timeline-{c.replace('_', '-')}-{gb:g}gb",
            lambda gb, size, n, lb=label: (f"session {name}: buffered 4 MiB readinto() of {lb} ({size} bytes), page "
                                           f"cache cold, median of {n} rounds"),
            queue=tl["machine"]["queue"])
    return cases


def read_path_streams(name, sess, rp):
    """probe-read-path's buffered_4m cold reads (readinto() in 4 MiB pieces into memory already mapped, the file's
    pages dropped before each). Its other cases (O_DIRECT, sendfile, other read sizes) are left out, as the
    page-cache probe's are."""
    runs = {rp["bytes"]: [{"file_bytes": rp["bytes"], "wall_s": r["buffered_4m"]["wall_s"]}
                          for r in rp["records"] if "buffered_4m" in r]}
    if not runs[rp["bytes"]]:
        return []
    return stream_cases(
        name, sess, [], runs, lambda r: r["wall_s"], "read-path probe",
        "scripts/probe-read-path.py's buffered_4m reads (4 MiB readinto() into memory already mapped, the size set "
        "per case)",
        lambda b: f"{name}-read-path-buffered-4m",
        lambda b, size, n: (f"session {name}: buffered 4 MiB readinto() of one {size} byte file written once, page "
                            f"cache cold (POSIX_FADV_DONTNEED before each round), median of {n} rounds"),
        queue=rp["machine"]["queue"])


def main():
    if len(sys.argv) < 2 or any(":" not in a for a in sys.argv[1:]):
        sys.exit(__doc__.strip().splitlines()[-1])
    cases, sessions, assumed = [], [], []
    for arg in sys.argv[1:]:
        folder, name = arg.rsplit(":", 1)
        sess = os.path.relpath(os.path.abspath(folder), ROOT)
        cl_path = os.path.join(ROOT, sess, "coldloads", "cold-loads.json")
        fw_path = os.path.join(ROOT, sess, "frameworks", "checkpoints.json")
        fw = json.load(open(fw_path))["iowall"] if os.path.exists(fw_path) else {"records": []}
        tl_path = os.path.join(ROOT, sess, "timeline", "stream-timeline.json")
        if os.path.exists(tl_path) and not fw["records"]:
            sessions.append(sess + "/timeline/")
            cases += timeline_streams(name, sess, json.load(open(tl_path)))
            continue
        if any(r["writer"] == "plain_stream" for r in fw["records"]):
            sessions.append(sess + "/frameworks/")
            cases += plain_streams(name, sess, fw, assumed)
            continue
        rp_path = os.path.join(ROOT, sess, "readpath", "read-path.json")
        if os.path.exists(rp_path) and not fw["records"] and not os.path.exists(
                os.path.join(ROOT, sess, "pagecache", "page-cache.json")):
            sessions.append(sess + "/readpath/")
            cases += read_path_streams(name, sess, json.load(open(rp_path)))
            continue
        if os.path.exists(cl_path):
            sessions.append(sess + "/coldloads/")
            cases += cold_load_streams(name, sess, json.load(open(cl_path)), assumed)
            continue
        pc = json.load(open(os.path.join(ROOT, sess, "pagecache", "page-cache.json")))
        size = pc["bytes"]
        queue = pc["machine"].get("queue")
        if not queue:  # an early probe did not record the queue: the VMs' kind has one setting
            queue = {"read_ahead_kb": 8192, "max_sectors_kb": 4096}
            assumed.append(f"session {name}'s probe recorded no queue settings: read_ahead_kb 8192 and "
                           f"max_sectors_kb 4096, as every later session of the same VM kind recorded")
        scen = scenario(name, sess, queue, size)
        sessions.append(sess + "/pagecache/")
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
            "url": ", ".join(sessions),
            "where": "page-cache.json records (read_cold_s) of scripts/probe-page-cache.py, cold-loads.json records "
                     "(stream_here) of scripts/probe-cold-loads.py, checkpoints.json records (plain_stream "
                     "load_cold_read) of scripts/checkpoint-frameworks.py and stream-timeline.json records "
                     "(buffered_idle, after_write) of scripts/probe-stream-timeline.py; scripts/page-cache-source.py",
        },
        "conditions": {
            "hardware": "16-vCPU Firecracker VMs, NVIDIA H200 (vm24 to vm26: H100), ext4 on /dev/vda (virtio-blk)",
            "software": "scripts/probe-page-cache.py (Python readinto, os.preadv); THP madvise",
            "assumed": [
                "each session's topology comes from its own calibration sweep and writes (scripts/checkpoint-derive.py; "
                "vm26's from its sweep alone, the host's costs the base topology's: scripts/stream-derive.py), never "
                "from these reads",
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
