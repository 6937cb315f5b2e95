#!/usr/bin/env python3
"""Turns a GPU-machine session that measured the disk's reads (disk/sweep, scripts/calibrate-sweep.sh) and a
cold stream (its timeline, timeline/stream-timeline.json from scripts/probe-stream-timeline.py, or the read
path's probe, readpath/read-path.json from scripts/probe-read-path.py), with no writes, copies or
checkpoints, into the node topology the page-cache source simulates its streams on: `iowall
calibrate` on the reads alone (SESSION/profile.json, calibrated-topology.json), then
topologies/gpu-machine-GPU-NAME.json as scripts/checkpoint-derive.py makes it (session_measurements.
node_topology): the drive and the virtual disk's copy cache from the reads, the GPU from machine.txt, the
disk's queue from the probe's record of /sys/block/DEV/queue, the host's costs the base topology's.
Nothing is taken from the probe's reads. Then: scripts/page-cache-source.py ... SESSION_DIR:NAME.
usage: scripts/stream-derive.py SESSION_DIR NAME
Environment: IOWALL (default build/release/iowall).
"""
import json
import os
import re
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from session_measurements import ROOT, calibrate, check_name, die, iowall_binary, node_topology, rel, unpack_phases  # noqa: E402


def main():
    if len(sys.argv) != 3:
        die(__doc__.strip().splitlines()[-2])
    session, name = os.path.abspath(sys.argv[1]), sys.argv[2]
    check_name(name)
    if not os.path.isdir(session):
        die(f"{sys.argv[1]}: not a folder")
    iowall = iowall_binary()
    unpack_phases(session)
    # The stream probes a session may hold, and what the topology names as left unused.
    probes = [(os.path.join(session, "timeline", "stream-timeline.json"), "its streams' timeline"),
              (os.path.join(session, "readpath", "read-path.json"), "its read path's cold reads")]
    probe_path, unused = next((p for p in probes if os.path.exists(p[0])), (None, ""))
    machine_path = os.path.join(session, "machine.txt")
    if probe_path is None:
        die(f"{rel(probes[0][0])} or {rel(probes[1][0])}: missing")
    if not os.path.exists(machine_path):
        die(f"{rel(machine_path)}: missing")
    queue = json.load(open(probe_path))["machine"].get("queue") or {}
    gpu = next((m.group(1) for m in map(re.compile(r"GPU \d+: (.+?) \(UUID").match, open(machine_path)) if m), "")
    profile, calibrated = calibrate(session, iowall, writes_needed=False)
    facts = {"gpu": (gpu, f"{rel(machine_path)}, nvidia-smi -L"),
             "queue": (queue, f"{rel(probe_path)} machine.queue"),
             "mem_total": (None, "")}
    path, _, _, _ = node_topology(session, name, profile, calibrated, facts, tool="scripts/stream-derive.py",
                                  unused=unused)
    print(f"wrote {path}")


if __name__ == "__main__":
    main()
