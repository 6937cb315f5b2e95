#!/usr/bin/env python3
"""How fast a virtual disk's rate moves, and whether a page-cache stream moves with it: the drifttrace phase of
scripts/calibrate-gpu-machine.sh (the sweep's O_DIRECT points, 1 s each over a 1 GiB file, and a cold buffered
read of a 2 GiB file in 4 MiB reads, in turn for minutes; times.txt has each turn's start) read back.

A calibration taken at one minute predicts a checkpoint taken at another only as well as the disk holds its
rate between the two. This prints, for each series (GB/s per turn):
  the median, the 10th and 90th percentiles, min and max, and the lag-1 autocorrelation of the rates (near 0:
  the turns scatter around one rate; near 1: the rate wanders slowly);
  for a calibration taken LAG minutes before (every pair of turns that far apart, within half a turn): the
  median and 90th percentile of |rate later / rate earlier - 1|;
and for the stream: the same against its own earlier rate rescaled by the 1M QD1 O_DIRECT point's change
between the two turns (a reference point measured beside the checkpoint), the Pearson correlation of the
stream's and the O_DIRECT point's log rates over the turns, and the slow turns (the 1M QD1 point below 0.9 x
its median): their share, how long each run of them lasted, and how much slower each series ran in them.
usage: scripts/drift-trace.py FOLDER   (the unpacked drifttrace/ folder, or the drifttrace.tar.gz beside it)
Standard library only.
"""
import glob
import json
import math
import os
import re
import statistics
import sys
import tarfile

LAGS_MIN = (0.5, 1, 2, 4, 6)


def die(msg):
    print(f"drift-trace: {msg}", file=sys.stderr)
    sys.exit(2)


def load(folder):
    """{series: {turn: GB/s}} and {turn: start seconds} from the folder or its archive."""
    docs = {}
    if os.path.isdir(folder):
        for f in glob.glob(os.path.join(folder, "*")):
            with open(f, "rb") as fh:
                docs[os.path.basename(f)] = fh.read()
    elif os.path.isfile(folder.rstrip("/") + ".tar.gz"):
        with tarfile.open(folder.rstrip("/") + ".tar.gz") as tar:
            for m in tar.getmembers():
                if m.isfile():
                    docs[os.path.basename(m.name)] = tar.extractfile(m).read()
    else:
        die(f"{folder}: no such folder or archive")
    if "times.txt" not in docs:
        die(f"{folder}: no times.txt (not a drifttrace phase)")
    times = {}
    for line in docs["times.txt"].decode().split("\n"):
        if line.strip():
            turn, t = line.split()
            times[int(turn)] = float(t)
    series = {}
    for name, raw in docs.items():
        m = re.match(r"^(.+)-i(\d+)\.json$", name)
        if not m:
            continue
        try:
            doc = json.loads(raw)
            bw = sum(j["read"]["io_bytes"] for j in doc["jobs"]) / (
                max(j["read"]["runtime"] for j in doc["jobs"]) / 1e3) / 1e9
        except (ValueError, KeyError, ZeroDivisionError) as e:
            die(f"{folder}/{name}: not a measure record ({e})")
        series.setdefault(m.group(1), {})[int(m.group(2))] = bw
    if not series:
        die(f"{folder}: no measure records")
    return series, times


def pct(xs, q):
    xs = sorted(xs)
    k = (len(xs) - 1) * q
    lo, hi = math.floor(k), math.ceil(k)
    return xs[lo] + (xs[hi] - xs[lo]) * (k - lo)


def lag1(xs):
    m = statistics.mean(xs)
    den = sum((x - m) ** 2 for x in xs)
    return sum((a - m) * (b - m) for a, b in zip(xs, xs[1:])) / den if den else 0.0


def pairs(turns, times, lag_s):
    """(earlier, later) turns whose starts lie lag_s apart within half a turn's length."""
    step = statistics.median(times[b] - times[a] for a, b in zip(turns, turns[1:]))
    out = []
    for a in turns:
        best = min(turns, key=lambda b: abs(times[b] - times[a] - lag_s))
        if abs(times[best] - times[a] - lag_s) <= step / 2 and best != a:
            out.append((a, best))
    return out


def episodes(series, times, turns, ref):
    """Turns where the reference point ran below 0.9 x its median: their share, how long each run of them
    lasted, and every series' median rate in them over its median in the other turns (the reference's own
    ratio is biased low by the selection; the others' are not)."""
    cut = 0.9 * statistics.median(series[ref][t] for t in turns)
    slow = [t for t in turns if series[ref][t] < cut]
    if not slow:
        print(f"\nno turn's {ref} below 0.9 x its median")
        return
    step = statistics.median(times[b] - times[a] for a, b in zip(turns, turns[1:]))
    runs, start, prev = [], None, None
    for t in turns:
        if t in slow:
            start = t if start is None else start
            prev = t
        elif start is not None:
            runs.append(times[prev] - times[start] + step)
            start = None
    if start is not None:
        runs.append(times[prev] - times[start] + step)
    share = len(slow) / len(turns)
    print(f"\nslow turns ({ref} below 0.9 x its median): {len(slow)} of {len(turns)} ({share:.0%}), in "
          f"{len(runs)} runs of {min(runs):.0f}-{max(runs):.0f} s (median {statistics.median(runs):.0f} s); "
          f"the first at {(times[slow[0]] - times[turns[0]]):.0f} s")
    fast = [t for t in turns if t not in slow]
    for name in sorted(series):
        r = statistics.median(series[name][t] for t in slow) / statistics.median(series[name][t] for t in fast)
        print(f"  {name:22} slow/other {r:.3f}")
    p2 = 3 * share ** 2 * (1 - share) + share ** 3
    print(f"  a median of 3 rounds, each landing in a slow turn with probability {share:.2f} independently: "
          f"slow with probability {p2:.2f}")


def main():
    if len(sys.argv) != 2:
        die("usage: scripts/drift-trace.py FOLDER")
    series, times = load(sys.argv[1])
    turns = sorted(t for t in times if all(t in s for s in series.values()))
    if len(turns) < 3:
        die(f"{sys.argv[1]}: fewer than 3 complete turns")
    span = (times[turns[-1]] - times[turns[0]]) / 60
    print(f"{len(turns)} turns over {span:.1f} min (one every "
          f"{statistics.median(times[b] - times[a] for a, b in zip(turns, turns[1:])):.1f} s)")
    print(f"  {'series':22} {'median':>7} {'p10':>6} {'p90':>6} {'min':>6} {'max':>6} {'p90/p10':>8} {'lag-1 r':>8}")
    for name in sorted(series):
        xs = [series[name][t] for t in turns]
        print(f"  {name:22} {statistics.median(xs):7.3f} {pct(xs, .1):6.3f} {pct(xs, .9):6.3f} {min(xs):6.3f} "
              f"{max(xs):6.3f} {pct(xs, .9) / pct(xs, .1):8.3f} {lag1(xs):8.2f}")
    print("\na calibration LAG minutes before: |rate later / rate earlier - 1|, median and p90 over the pairs")
    head = "  " + f"{'series':22}" + "".join(f"{f'{lag:g} min':>16}" for lag in LAGS_MIN)
    print(head)
    ref = "direct-1M-qd1" if "direct-1M-qd1" in series else None
    rows = [(name, lambda a, b, n=name: series[n][b] / series[n][a]) for name in sorted(series)]
    if ref and "stream" in series:
        rows.append(("stream, ref-rescaled",
                     lambda a, b: series["stream"][b] / (series["stream"][a] * series[ref][b] / series[ref][a])))
    for name, ratio in rows:
        cells = []
        for lag in LAGS_MIN:
            ps = pairs(turns, times, lag * 60)
            if not ps:
                cells.append(f"{'-':>16}")
                continue
            errs = [abs(ratio(a, b) - 1) * 100 for a, b in ps]
            cells.append(f"{statistics.median(errs):7.1f}%/{pct(errs, .9):5.1f}%  ")
        print(f"  {name:22}" + "".join(cells))
    if ref and "stream" in series:
        ls = [math.log(series["stream"][t]) for t in turns]
        lr = [math.log(series[ref][t]) for t in turns]
        ms, mr = statistics.mean(ls), statistics.mean(lr)
        cov = sum((a - ms) * (b - mr) for a, b in zip(ls, lr))
        den = math.sqrt(sum((a - ms) ** 2 for a in ls) * sum((b - mr) ** 2 for b in lr))
        ratios = [series["stream"][t] / series[ref][t] for t in turns]
        episodes(series, times, turns, ref)
        print(f"\nstream / {ref}: median {statistics.median(ratios):.3f} (p10 {pct(ratios, .1):.3f}, p90 "
              f"{pct(ratios, .9):.3f}); correlation of their log rates over the turns r = "
              f"{cov / den if den else 0:.2f}")


if __name__ == "__main__":
    main()
