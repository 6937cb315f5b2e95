#!/usr/bin/env python3
"""Where the model's checkpoint misses sit, phase by phase, over every one-run GPU-machine session
(validation/checkpoint-hN-vmN.json): each case's scenario run with its settings, each of its phases
(save: d2h, serialize_write, fsync; cold load: read, h2d) set against the same phase's median over the
session's rounds (frameworks/checkpoints.json), measured over model. Per writer, size and phase: the
sessions' median ratio, its range, how many sessions are past 15% either way, and the median of measured
less model in seconds (a cost the model lacks per tensor or per load shows alike at 2 and 8 GB there).
A phase whose median ratio sits away from 1 is a bias of the model; one centred on 1 with a wide range is the VMs' spread,
which no calibration of the session foresaw.
With --disk, for the sessions whose rounds counted the disk (disk_busy_ms per phase), torch.load's cold
read split into the time the disk was busy and the time it waited, with the reader's CPU seconds (rounds
into kept memory), beside the model's split (its read phase's seconds times the virtual disk's
utilization) and a plain stream of the same bytes (measured only).
With --sweep, the sessions ranked by their calibration sweep's 1 MiB O_DIRECT reads by one thread at QD8
(medians of the rounds, disk/sweep/cpu_only-1M-qd{1,8}-t1-r*.json) beside torch.load's cold read measured
over the model at 2 and 8 GB: whether a session whose sweep serves 1 MiB fast has a model that reads its
checkpoints too fast.
usage: scripts/phase-ratios.py [--sessions] [--disk] [--sweep]   (--sessions: every session's ratios as well)
Environment: IOWALL (default build/release/iowall).
"""
import glob
import json
import os
import re
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from session_measurements import ROOT, case_phases, iowall_binary, summary_medians, sweep_median  # noqa: E402

# The model's phase name for each measured one, by the case's kind.
PHASES = {"save": (("d2h", "d2h"), ("serialize_write", "serialize_write"), ("fsync", "fsync")),
          "cold-load": (("load_cold_read", "read"), ("load_cold_h2d", "h2d"))}


_RUNS = {}


def run_case(iowall, case):
    """The case's simulated phases, each case simulated once however many tables ask."""
    key = (case["scenario"], json.dumps(case["set"], sort_keys=True))
    if key not in _RUNS:
        phases, error = case_phases(iowall, case)
        if error is not None:
            sys.exit(f"phase-ratios: {case['scenario']}: {error}")
        _RUNS[key] = phases
    return _RUNS[key]


def sessions():
    """Each one-run session, in vmN order: its name, corpus source and frameworks record."""
    paths = glob.glob(os.path.join(ROOT, "validation", "checkpoint-h*-vm*.json"))
    for path in sorted(paths, key=lambda p: int(re.search(r"-vm(\d+)\.json$", p).group(1))):
        source = json.load(open(path))
        session = source["source"]["url"].rstrip("/")
        fw = json.load(open(os.path.join(ROOT, session, "frameworks", "checkpoints.json")))["iowall"]
        yield re.search(r"-(vm\d+)\.json$", path).group(1), source, fw


def sweep_ranking(per_session, sources):
    print("\nsession  1M QD1 GB/s  1M QD8 GB/s  read measured/model 2 GB  8 GB")
    rows = []
    for name, r in per_session.items():
        session = sources[name]["source"]["url"].rstrip("/")
        ratios = [r.get(("torch_save", gb, "load_cold_read"), (None,))[0] for gb in (2.0, 8.0)]
        rows.append((name, sweep_median(session, "1M-qd1-t1"), sweep_median(session, "1M-qd8-t1"), ratios))
    text = lambda x: "-" if x is None else f"{x:.2f}"  # noqa: E731
    for name, qd1, qd8, ratios in sorted(rows, key=lambda row: row[2] or 0):
        print(f"{name:7}  {text(qd1):>11}  {text(qd8):>11}  {text(ratios[0]):>24}  {text(ratios[1]):>4}")


def session_ratios(iowall, source, fw):
    measured = summary_medians(fw)
    out = {}
    for case in source["cases"]:
        m = re.fullmatch(r"(\w+)-([0-9.]+)gb-(save|cold-load)", case["id"])
        if not m:
            continue
        writer, gb, kind = m.group(1), float(m.group(2)), m.group(3)
        model = {p["name"]: p["seconds"] for p in run_case(iowall, case)}
        for mine, theirs in PHASES[kind]:
            meas = measured.get((writer, round(gb * 1e9), mine))
            if meas and model.get(theirs):
                out[(writer, gb, mine)] = (meas / model[theirs], meas - model[theirs])
    return out


def disk_split(iowall):
    print("\ntorch.load cold read: disk busy and waiting, measured (median of the rounds) and modelled, seconds")
    print(f"{'session':7} {'size':>5} {'wall':>6} {'busy':>6} {'idle':>6} {'cpu':>5} | {'model':>6} {'busy':>6} "
          f"{'idle':>6} | plain stream {'wall':>6} {'idle':>6} {'cpu':>5}")
    for name, source, fw in sessions():
        def split(writer, size):
            rounds = [r["phases"]["load_cold_read"] for r in fw["records"]
                      if r["writer"] == writer and r["size_bytes"] == size and "load_cold_read" in r.get("phases", {})]
            if not rounds or any("disk_busy_ms" not in r for r in rounds):
                return None
            wall = statistics.median(r["seconds"] for r in rounds)
            # The reader's CPU over the rounds that faulted little (memory kept from an earlier round).
            kept = [r["cpu_s"] for r in rounds if "cpu_s" in r and r.get("minor_faults", 0) < 50000]
            return (wall, statistics.median(r["disk_busy_ms"] / 1e3 for r in rounds),
                    statistics.median(kept) if kept else float("nan"))
        for case in source["cases"]:
            m = re.fullmatch(r"torch_save-([0-9.]+)gb-cold-load", case["id"])
            if not m:
                continue
            size = round(float(m.group(1)) * 1e9)
            measured = split("torch_save", size)
            if not measured:
                continue
            read = next(p for p in run_case(iowall, case) if p["name"] == "read")
            busy = read["seconds"] * read["limited_by"]["utilization"]
            plain = split("plain_stream", size)
            wall, mbusy, cpu = measured
            print(f"{name:7} {m.group(1):>3}GB {wall:6.3f} {mbusy:6.3f} {wall - mbusy:6.3f} {cpu:5.2f} | "
                  f"{read['seconds']:6.3f} {busy:6.3f} {read['seconds'] - busy:6.3f} | "
                  + (f"{'':12} {plain[0]:6.3f} {plain[0] - plain[1]:6.3f} {plain[2]:5.2f}" if plain else ""))


def main():
    iowall = iowall_binary()
    sources, per_session = {}, {}
    for name, source, fw in sessions():
        sources[name] = source
        per_session[name] = session_ratios(iowall, source, fw)
    keys = sorted({k for r in per_session.values() for k in r})
    print(f"{len(per_session)} sessions; measured over model, by phase")
    print(f"{'writer':12} {'size':>5} {'phase':16} {'n':>3} {'median':>7} {'min':>6} {'max':>6} {'past 15%':>9}"
          f" {'median s over':>14}")
    for k in keys:
        xs = [r[k][0] for r in per_session.values() if k in r]
        ds = [r[k][1] for r in per_session.values() if k in r]
        past = sum(abs(x - 1) > 0.15 for x in xs)
        print(f"{k[0]:12} {k[1]:>3g}GB {k[2]:16} {len(xs):>3} {statistics.median(xs):>7.2f} {min(xs):>6.2f} "
              f"{max(xs):>6.2f} {past:>9} {statistics.median(ds):>+14.3f}")
    if "--sessions" in sys.argv[1:]:
        print("\nsession " + " ".join(f"{k[0][:5]}{k[1]:g}/{k[2][-5:]}" for k in keys))
        for name, r in per_session.items():
            print(f"{name:7} " + " ".join(f"{r[k][0]:>{len(f'{k[0][:5]}{k[1]:g}/{k[2][-5:]}')}.2f}" if k in r else "-"
                                          for k in keys))
    if "--disk" in sys.argv[1:]:
        disk_split(iowall)
    if "--sweep" in sys.argv[1:]:
        sweep_ranking(per_session, sources)


if __name__ == "__main__":
    main()
