#!/usr/bin/env python3
"""The figures reports/checkpoint-validation.md ("A thirty-first VM") draws across the one-run GPU-machine
sessions (validation/checkpoint-h*-vm*.json and the session folders they name), each from committed files:
  dsync        per session, an O_DSYNC write's extra time over its O_DIRECT twin (one thread, QD1) at 128 KiB
               and 1 MiB, the line extra = cost + size / rate through the two, and the fsync after 1 GiB of
               O_DIRECT 1 MiB writes at QD8 (writes/ or writes.tar.gz)
  order        each case's median error over the sessions that ran the framework checkpoints before the disk
               sweep and over those that ran the sweep first (the order their phases*.txt record)
  repeat       the disk sweep's O_DIRECT points beside the depth phase's `loop` points of the same I/O size
               and depth (the sweep's way: 1 s over a 1 GiB region, one thread), for the sessions that ran both
  same-rounds  each case's error as the model has it, and as it would be with the cold read phase scaled by the
               same size's plain-stream error (page-cache-reads-h200) and the fsync phase replaced by the plain
               file's measured fsync, for the sessions whose checkpoints ran the plain_stream writer
  busy         the cold read phase of torch_save, safetensors and plain_stream by size, the medians of the
               rounds (sessions whose frameworks recorded the disk's counters): GB/s, GB/s per busy second of
               the disk, the share of the read the disk was busy, and the reads in flight while busy
  busy-split   each cold load's miss split in two, for the sessions whose frameworks recorded the disk's
               counters: the disk's busy seconds, measured (median of the rounds, read and copy phases) against
               the model's (its disk's busy mean over the run), and the rest (the time the disk sat idle)
  planner      `iowall plan checkpoint --node` on each session's derived node (buffered, one GPU, the checkpoint's
               size as the node sample, 18 MB tensors), torch.save's figures beside it: the periodic save against
               the median save until durable of the rounds whose copies landed in memory already mapped (d2h minor
               faults under half the pages); the first save and the restore (a new process: copies into new
               memory) against the round whose copies faulted new memory in (d2h, load_cold_read minor faults
               over half the pages), and the restore against the median too (memory reused)
usage: scripts/session-estimates.py dsync|order|repeat|same-rounds|busy|busy-split|planner
Environment: IOWALL (default build/release/iowall). Writes nothing.
"""
import glob
import json
import os
import re
import statistics
import subprocess
import sys
import tarfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from session_measurements import (ROOT, case_phases, case_result, die, iowall_binary, measured_disk_busy,  # noqa: E402
                                  model_disk_busy_s, summary_medians, sweep_median)


def sources():
    """(vmN, the corpus source's name, its content, its session folder relative to ROOT), in vmN order."""
    paths = glob.glob(os.path.join(ROOT, "validation", "checkpoint-h*-vm*.json"))
    for path in sorted(paths, key=lambda p: int(re.search(r"-vm(\d+)\.json$", p).group(1))):
        src = json.load(open(path))
        name = os.path.basename(path)[:-len(".json")]
        yield re.search(r"-(vm\d+)$", name).group(1), name, src, src["source"]["url"].rstrip("/")


def phase_docs(session, phase, pattern):
    """The JSON files of PHASE/ matching `pattern` (a regex on the base name), from the folder or the archive."""
    folder = os.path.join(ROOT, session, phase)
    rx = re.compile(pattern)
    if os.path.isdir(folder):
        files = glob.glob(os.path.join(folder, "**", "*.json"), recursive=True)
        return {os.path.basename(f): json.load(open(f)) for f in files if rx.match(os.path.basename(f))}
    if not os.path.isfile(folder + ".tar.gz"):
        return {}
    with tarfile.open(folder + ".tar.gz") as tar:
        return {os.path.basename(m.name): json.load(tar.extractfile(m)) for m in tar.getmembers()
                if m.isfile() and rx.match(os.path.basename(m.name))}


def dicts(o):
    """Every JSON object inside `o`, depth first (the check results' cases sit at varying depths)."""
    if isinstance(o, dict):
        yield o
        for v in o.values():
            yield from dicts(v)
    elif isinstance(o, list):
        for v in o:
            yield from dicts(v)


def median_of(docs, rx, key):
    v = [key(d) for n, d in docs.items() if re.match(rx, n)]
    v = [x for x in v if x]
    return statistics.median(v) if v else None


def dsync():
    bw = lambda d: sum(j["write"]["bw_bytes"] for j in d["jobs"])  # noqa: E731
    sync = lambda d: d["jobs"][0]["sync"]["lat_ns"].get("mean", 0) / 1e3  # noqa: E731
    print("session  O_DSYNC extra us 128K / 1M   line: cost us + size / GB/s   end fsync after 1 GiB, us")
    for vm, _, _, session in sources():
        docs = phase_docs(session, "writes", r"cpu_only-write-.*\.json$")
        extra = {}
        for io, size in (("128K", 131072), ("1M", 1048576)):
            o = median_of(docs, rf"cpu_only-write-osync-{io}-qd1-t1-r\d+\.json$", bw)
            d = median_of(docs, rf"cpu_only-write-{io}-qd1-t1-r\d+\.json$", bw)
            if o and d:
                extra[size] = size / o - size / d
        end = median_of(docs, r"cpu_only-write-1M-qd8-t1-r\d+\.json$", sync)
        if len(extra) < 2:
            continue
        (s1, e1), (s2, e2) = sorted(extra.items())
        slope = (e2 - e1) / (s2 - s1)
        line = f"{(e1 - s1 * slope) * 1e6:6.1f} + size / {1 / slope / 1e9:6.2f}" if slope > 0 else "no slope"
        print(f"{vm:7}  {e1 * 1e6:6.1f} / {e2 * 1e6:6.1f}   {line:>30}   {end or 0:6.0f}")


def corpus_errors():
    """Every one-run case's error as `iowall check --corpus` gives it, by (source, case id)."""
    import tempfile
    iowall = iowall_binary()
    with tempfile.TemporaryDirectory() as tmp:
        for path in glob.glob(os.path.join(ROOT, "validation", "checkpoint-h*-vm*.json")):
            os.symlink(path, os.path.join(tmp, os.path.basename(path)))
        out = subprocess.run([iowall, "check", "--corpus", tmp, "--output-format", "json"], cwd=ROOT,
                             capture_output=True, text=True)
    if out.returncode not in (0, 1):
        die(f"iowall check: {out.stderr.strip()}")
    return {(o["source"], o["id"]): o for o in dicts(json.loads(out.stdout))
            if "error" in o and "id" in o and "source" in o}


def order():
    errors = corpus_errors()
    groups = {}
    for _, source, src, session in sources():
        files = sorted(glob.glob(os.path.join(ROOT, session, "phases*.txt")))
        text = " ".join(open(f).read() for f in files)
        # Sessions in calls A, B, ... keep call A (the disk sweep's) in phases.txt; older ones name their calls.
        first = "disk" if any("callB" in f for f in files) else (
            "frameworks" if text.find("frameworks:") < text.find("disk:") else "disk")
        for c in src["cases"]:
            e = errors.get((source, c["id"]))
            if e and e["error"] is not None:
                groups.setdefault(first, {}).setdefault(c["id"], []).append(e["error"])
    for first, cases in sorted(groups.items()):
        n = len(next(iter(cases.values())))
        print(f"{first} first ({n} sessions)")
        for cid, v in sorted(cases.items()):
            print(f"  {cid:28} median {statistics.median(v) * 100:+6.1f}%")


def repeat():
    bw = lambda d: sum(j["read"]["bw_bytes"] for j in d["jobs"]) / 1e9  # noqa: E731
    for session in sorted(glob.glob(os.path.join(ROOT, "reports/calibration/gpu-machine/*/depth.tar.gz"))):
        session = os.path.relpath(os.path.dirname(session), ROOT)
        docs = phase_docs(session, "depth", r"loop-.*\.json$")
        rows = []
        for name in sorted({re.sub(r"-r\d+\.json$", "", n) for n in docs}):
            m = re.match(r"loop-(\w+)-qd(\d+)$", name)
            sweep = sweep_median(session, f"{m.group(1)}-qd{m.group(2)}-t1") if m else None
            loop = median_of(docs, rf"{re.escape(name)}-r\d+\.json$", bw)
            if sweep and loop:
                rows.append(f"  {m.group(1)} QD{m.group(2)}: sweep {sweep:.2f}, depth loop {loop:.2f} GB/s "
                            f"({loop / sweep:.2f})")
        if rows:
            print(os.path.basename(session))
            print("\n".join(rows))


def same_rounds():
    iowall = iowall_binary()
    out = subprocess.run([iowall, "check", "--source", "page-cache-reads-h200", "--output-format", "json"], cwd=ROOT,
                         capture_output=True, text=True)
    streams = {o["id"]: o["simulated"]["value"] / o["published"]["value"] for o in dicts(json.loads(out.stdout))
               if "id" in o and "simulated" in o and isinstance(o.get("published"), dict)}
    old_all, new_all = [], []
    for vm, _, src, session in sources():
        fw = json.load(open(os.path.join(ROOT, session, "frameworks", "checkpoints.json")))["iowall"]
        plain = [r for r in fw["records"] if r["writer"] == "plain_stream"]
        if not plain:
            continue
        old_in = new_in = True
        for c in src["cases"]:
            size = float(c["set"]["/workload/size"].split()[0]) * 1e9
            phases, err = case_phases(iowall, c)
            if err:
                die(f"{c['scenario']}: {err}")
            model = {p["name"]: p["seconds"] for p in phases}
            new = dict(model)
            runs = [r for r in plain if abs(r["size_bytes"] - size) < 0.01 * size]
            if "fsync" in model and runs:
                new["fsync"] = statistics.median(r["phases"]["fsync"]["seconds"] for r in runs)
            ratio = streams.get(f"{vm}-plain-stream-{round(size / 1e9)}gb")
            if "read" in model and ratio:
                new["read"] = model["read"] * ratio
            published = float(c["published"].split()[0])
            eo, en = sum(model.values()) / published - 1, sum(new.values()) / published - 1
            old_all.append(abs(eo))
            new_all.append(abs(en))
            old_in &= abs(eo) <= 0.15
            new_in &= abs(en) <= 0.15
            print(f"{vm:5} {c['id']:28} model {eo * 100:+6.1f}%  same rounds {en * 100:+6.1f}%")
        print(f"{vm:5} every point within 15%: model {old_in}, same rounds {new_in}")
    if old_all:
        print(f"within 15%: model {sum(e <= 0.15 for e in old_all)}, same rounds {sum(e <= 0.15 for e in new_all)} "
              f"of {len(old_all)}; median |error| {statistics.median(old_all) * 100:.1f}% and "
              f"{statistics.median(new_all) * 100:.1f}%")


def busy():
    writers = ("torch_save", "safetensors", "plain_stream")
    print("cold read phase (load_cold_read), median of the rounds: GB/s, GB/s per busy second, busy share, "
          "reads in flight while busy")
    print(f"  {'session':8} {'size':>5}  " + "  ".join(f"{w:^27}" for w in writers))
    shares = {}
    for vm, _, _, session in sources():
        path = os.path.join(ROOT, session, "frameworks", "checkpoints.json")
        if not os.path.isfile(path):
            continue
        records = [r for r in json.load(open(path))["iowall"]["records"] if not r.get("error")]
        for gb in sorted({r["size_bytes"] // 10**9 for r in records}):
            cells, any_busy = [], False
            for w in writers:
                ph = [r["phases"]["load_cold_read"] for r in records if r["writer"] == w and
                      r["size_bytes"] // 10**9 == gb and "load_cold_read" in r["phases"]]
                ph = [x for x in ph if x.get("disk_busy_ms")]
                if not ph:
                    cells.append(f"{'-':^27}")
                    continue
                any_busy = True
                rate = statistics.median(x["bytes"] / x["seconds"] / 1e9 for x in ph)
                per_busy = statistics.median(x["disk_bytes"] / (x["disk_busy_ms"] / 1e3) / 1e9 for x in ph)
                share = statistics.median(x["disk_busy_ms"] / 1e3 / x["seconds"] for x in ph)
                flight = statistics.median(x["disk_read_ticks_ms"] / x["disk_busy_ms"] for x in ph)
                shares.setdefault((w, gb), []).append(share)
                cells.append(f"{rate:5.2f} {per_busy:5.2f} {share:5.0%} {flight:5.1f}  ")
            if any_busy:
                print(f"  {vm:8} {gb:>3} GB  " + "  ".join(cells))
    for (w, gb), v in sorted(shares.items()):
        print(f"{w} {gb} GB: the disk busy {min(v):.0%}-{max(v):.0%} of the read over {len(v)} sessions "
              f"(median {statistics.median(v):.0%})")


def busy_split():
    iowall = iowall_binary()
    print("cold loads: measured / model seconds; the miss (model - measured) split into the disk's busy seconds "
          "and the rest")
    by_case = {}
    for vm, _, src, session in sources():
        records = json.load(open(os.path.join(ROOT, session, "frameworks", "checkpoints.json")))["iowall"]["records"]
        for c in src["cases"]:
            if not c["id"].endswith("cold-load"):
                continue
            writer = c["id"].split("-")[0]
            size = round(float(c["set"]["/workload/size"].split()[0]) * 1e9)
            disk = measured_disk_busy(records, writer, size)
            if not disk:
                continue
            result, err = case_result(iowall, c)
            if err:
                die(f"{c['scenario']}: {err}")
            model_busy, _ = model_disk_busy_s(result, c["path"])
            model = result["metrics"][c["path"]]["last_done_s"]
            published = float(c["published"].split()[0])
            miss, busy_miss = model - published, model_busy - disk[0]
            by_case.setdefault(c["id"], []).append((miss, busy_miss))
            print(f"  {vm:5} {c['id']:28} load {published:.3f}/{model:.3f} s ({miss / published * 100:+.1f}%); "
                  f"disk busy {disk[0]:.3f}/{model_busy:.3f} s ({busy_miss:+.3f}); rest {miss - busy_miss:+.3f} s")
    for case, v in sorted(by_case.items()):
        print(f"{case}: over {len(v)} sessions the miss {statistics.median(m for m, _ in v):+.3f} s (median), "
              f"in the disk's busy seconds {statistics.median(b for _, b in v):+.3f}, the rest "
              f"{statistics.median(m - b for m, b in v):+.3f}")


def new_memory(record, phase):
    """Whether a round's `phase` copied into new memory: its minor faults over half the size's 4 KiB pages."""
    return (record["phases"].get(phase) or {}).get("minor_faults", 0) > record["size_bytes"] / 4096 / 2


def fresh_round(records, size, phase):
    """torch_save's first record of `size` whose `phase` copied into new memory; None where no round did."""
    for r in sorted(records, key=lambda r: r["round"]):
        if r["writer"] == "torch_save" and r["size_bytes"] == size and new_memory(r, phase):
            return r
    return None


def planner():
    iowall = iowall_binary()
    print("torch.save on each session's node, `iowall plan checkpoint --node ... --path buffered` / measured, seconds")
    print(f"  {'session':8} {'size':>5}  {'periodic save':>21}  {'first save':>21}  {'restore, new memory':>21}  "
          f"{'restore / median':>21}")
    errs = {}
    for vm, _, src, session in sources():
        topo = json.load(open(os.path.join(ROOT, src["cases"][0]["scenario"])))["topology"]
        path = os.path.join(ROOT, session, "frameworks", "checkpoints.json")
        doc = json.load(open(path))["iowall"]
        records = [r for r in doc["records"] if not r.get("error")]
        med = summary_medians(doc)
        for size in sorted({r["size_bytes"] for r in records if r["writer"] == "torch_save"}):
            gb = f"{size / 1e9:g} GB"
            out = subprocess.run([iowall, "plan", "checkpoint", "--node", topo, "--path", "buffered", "--checkpoint-size",
                                  gb, "--gpus", "1", "--gpus-per-node", "1", "--node-sample", gb, "--tensor-size",
                                  "18 MB", "--output-format", "json"], cwd=ROOT, capture_output=True, text=True)
            if out.returncode != 0:
                die(f"plan on {topo}: {out.stderr.strip()}")
            node = json.loads(out.stdout)["node"]
            save_r, load_r = fresh_round(records, size, "d2h"), fresh_round(records, size, "load_cold_read")
            reused = [r["save_durable_s"] for r in records if r["writer"] == "torch_save" and r["size_bytes"] == size
                      and r.get("save_durable_s") and not new_memory(r, "d2h")]
            pairs = {"periodic save": (node["periodic_save"]["last_done_s"], reused and statistics.median(reused)),
                     "first save": (node["first_save"]["last_done_s"], save_r and save_r.get("save_durable_s")),
                     "restore, new memory": (node["restore"]["last_done_s"],
                                             load_r and load_r["phases"]["load_cold_total"]["seconds"]),
                     "restore / median": (node["restore"]["last_done_s"], med.get(("torch_save", size, "load_cold_total")))}
            cells = []
            for k, (model, meas) in pairs.items():
                if not meas:
                    cells.append(f"{'-':>21}")
                    continue
                errs.setdefault((k, gb), []).append(model / meas - 1)
                cells.append(f"{model:6.2f}/{meas:6.2f} {100 * (model / meas - 1):+6.1f}%")
            print(f"  {vm:8} {gb:>5}  " + "  ".join(cells))
    for (k, gb), v in sorted(errs.items(), key=lambda kv: (kv[0][1], kv[0][0])):
        print(f"{gb} {k}: median {100 * statistics.median(v):+.1f}% over {len(v)} sessions, "
              f"{100 * min(v):+.1f}% to {100 * max(v):+.1f}%, {sum(abs(e) <= 0.15 for e in v)} within 15%")


def main():
    modes = {"dsync": dsync, "order": order, "repeat": repeat, "same-rounds": same_rounds, "busy": busy,
             "busy-split": busy_split, "planner": planner}
    if len(sys.argv) != 2 or sys.argv[1] not in modes:
        die(__doc__.strip().splitlines()[-2])
    modes[sys.argv[1]]()


if __name__ == "__main__":
    main()
