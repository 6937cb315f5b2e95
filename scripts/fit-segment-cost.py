#!/usr/bin/env python3
"""What a virtual disk charges per DMA segment, from O_DIRECT reads into buffers of 2 MiB pages
against buffers of 4 KiB pages (`iowall measure --buffer-pages huge|small`, QD 1, one thread).

An O_DIRECT request becomes one DMA segment per physically contiguous run of the buffer's pages
(the block layer merges neighbouring pages: blk_rq_map_sg). A buffer on a 2 MiB page is one run
per request; a malloc'd buffer of 4 KiB pages is up to one run per page (`iowall measure` records
the buffer's runs as host_buffer.contiguous_runs where page frame numbers are readable). At QD 1
each read's time is size / bandwidth; a pair of points of the same transfer type, size and round
gives
    cost per segment = (time_small - time_huge) / (segments_small - segments_huge)
with segments per read = the buffer's runs x read size / buffer bytes. The huge points also give
the disk's own QD-1 law, time = latency + size / bandwidth (least squares over the sizes), the
part a model of the disk takes from them.

usage: scripts/fit-segment-cost.py DIR [DIR...]   (files TYPE-SIZE-qd1-t1-{huge,small}-rN.json)
"""
import glob
import json
import os
import re
import statistics
import sys

NAME = re.compile(r"^(?P<x>[a-z_]+)-(?P<io>\d+[KM])-qd1-t1-(?P<pages>huge|small)-r(?P<r>\d+)\.json$")


def size_bytes(text):
    return int(text[:-1]) << (10 if text[-1] == "K" else 20)


def point(path):
    with open(path) as f:
        doc = json.load(f)
    job = doc["jobs"][0]
    buf = job.get("host_buffer", {})
    bw = sum(j["read"]["bw_bytes"] for j in doc["jobs"])
    runs = buf.get("contiguous_runs")
    return bw, runs, buf.get("bytes", 0)


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for folder in sys.argv[1:]:
        pts = {}
        for path in sorted(glob.glob(os.path.join(folder, "*.json"))):
            m = NAME.match(os.path.basename(path))
            if m:
                pts[(m["x"], m["io"], m["pages"], int(m["r"]))] = point(path)
        print(f"# {folder}")
        costs = []
        huge_law = {}
        for (x, io, pages, r), (bw, runs, nbytes) in sorted(pts.items()):
            if pages != "small":
                continue
            huge = pts.get((x, io, "huge", r))
            if not huge or runs is None or huge[1] is None:
                print(f"{x} {io} r{r}: no pair with segment counts")
                continue
            n = size_bytes(io)
            seg_small = runs * n / nbytes
            seg_huge = huge[1] * n / huge[2]
            t_small, t_huge = n / bw, n / huge[0]
            c = (t_small - t_huge) / (seg_small - seg_huge) if seg_small > seg_huge else float("nan")
            costs.append(c)
            huge_law.setdefault((x, n), []).append(t_huge)
            print(f"{x} {io} r{r}: {seg_huge:.1f} -> {seg_small:.1f} segments per read, "
                  f"{t_huge * 1e6:.1f} -> {t_small * 1e6:.1f} us: {c * 1e6:.2f} us per segment")
        if costs:
            good = [c for c in costs if c == c]
            print(f"cost per segment: median {statistics.median(good) * 1e6:.2f} us, "
                  f"range {min(good) * 1e6:.2f}-{max(good) * 1e6:.2f} us over {len(good)} pairs")
        for x in sorted({k[0] for k in huge_law}):
            xs = sorted((n, statistics.median(t)) for (y, n), t in huge_law.items() if y == x)
            if len(xs) < 2:
                continue
            mx = statistics.mean(n for n, _ in xs)
            my = statistics.mean(t for _, t in xs)
            slope = sum((n - mx) * (t - my) for n, t in xs) / sum((n - mx) ** 2 for n, _ in xs)
            lat = my - slope * mx
            print(f"{x} huge, QD 1: time = {lat * 1e6:.1f} us + size / {1 / slope / 1e9:.3f} GB/s "
                  f"(medians: " + ", ".join(f"{n >> 10} KiB {t * 1e6:.1f} us" for n, t in xs) + ")")


if __name__ == "__main__":
    main()
