#!/usr/bin/env python3
"""Whether a cold buffered read costs a fixed time besides its bytes, and where in the read the disk
waits: cold reads of several sizes, of a file just written and made durable (as a checkpoint's cold
load follows its save) and of the head of a file written long before.

Every checkpoint session on the GPU VMs loads its 2 GB checkpoints cold in more than a quarter of
the time its 8 GB ones take (the intercept of time against bytes is 0.05-0.42 s in all 22 pairs);
the model's has none. This probe sets sizes apart on one disk in one run. Each round, for each
--sizes-mib size (the order reversed every other round):
  fresh  a new file of that size written (1 MiB write()s) and fsync'ed, its pages dropped
         (POSIX_FADV_DONTNEED, that file only), then read cold at once in 4 MiB readinto()s into
         memory already mapped; then removed
  old    the first that many bytes of one file of the largest size written at the start, its pages
         dropped, read the same way
For each read: wall seconds, the thread's CPU seconds, the disk's counters (requests, bytes, busy
time) and its in-flight reads every 2 ms (where the disk had nothing: before its first request,
and by quarter of the read). The fits: time = a + bytes / rate by least squares per kind.
Nothing is changed on the machine: only a folder made under --dir is written, and removed at the end.
usage: scripts/probe-read-sizes.py --dir /var/tmp --output rs.json [--sizes-mib 512,1024,2048,4096,8192]
       [--rounds 3]
"""
import argparse
import os
import platform
import shutil
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import (drop_cached, finish_probe, scratch_folder, touched_buffer,  # noqa: E402
                             write_new_file)
from disk_counters import (block_sysfs, counter_delta,  # noqa: E402
                           disk_read_stat, InflightSampler, queue_settings)

MIB = 1 << 20


def arguments():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", required=True, help="existing folder on the disk to probe")
    ap.add_argument("--output", required=True)
    ap.add_argument("--sizes-mib", default="512,1024,2048,4096,8192")
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    if not os.path.isdir(args.dir):
        ap.error(f"--dir {args.dir}: not an existing folder")
    try:
        sizes = [int(x) * MIB for x in args.sizes_mib.split(",")]
    except ValueError:
        ap.error(f"--sizes-mib {args.sizes_mib}: not a list of whole MiB")
    if not sizes or min(sizes) < 4 * MIB or any(s % (4 * MIB) for s in sizes) or args.rounds < 1:
        ap.error("--sizes-mib needs sizes of at least 4 MiB in whole 4 MiB, --rounds at least 1")
    if shutil.disk_usage(args.dir).free < 2 * max(sizes) + (256 << 20):
        ap.error(f"--dir has less free space than twice the largest size ({max(sizes) >> 20} MiB)")
    return args, sizes


def idle_facts(series, t0, wall):
    """From the in-flight samples: seconds before the disk's first request, and the share of samples
    with nothing in flight in each quarter of the read."""
    inside = [(t - t0, n) for t, n in series if 0 <= t - t0 <= wall]
    first = next((t for t, n in inside if n > 0), None)
    quarters = []
    for q in range(4):
        part = [n for t, n in inside if q * wall / 4 <= t < (q + 1) * wall / 4]
        quarters.append(sum(1 for n in part if n == 0) / len(part) if part else None)
    return {"first_request_s": first, "idle_share_by_quarter": quarters, "samples": len(inside)}


def read_cold(path, size, dst_mv, sysfs):
    drop_cached(path)
    d0 = disk_read_stat(sysfs)
    with InflightSampler(sysfs) as sampler:
        c0, t0 = time.thread_time(), time.perf_counter()
        fd = os.open(path, os.O_RDONLY)
        with os.fdopen(fd, "rb", buffering=0) as f:
            left = size
            while left > 0:
                n = f.readinto(dst_mv[:min(left, len(dst_mv))])
                if n <= 0:
                    break
                left -= n
        wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
    d1 = disk_read_stat(sysfs)
    rec = {"bytes": size, "wall_s": wall, "thread_cpu_s": cpu}
    if disk := counter_delta(d0, d1):
        rec["disk"] = disk
    rec.update(idle_facts(sampler.series, t0, wall))
    return rec


def fit(points):
    """time = a + bytes / rate, least squares: (a s, rate GB/s)."""
    xs, ys = [b / 1e9 for b, _ in points], [t for _, t in points]
    mx, my = statistics.fmean(xs), statistics.fmean(ys)
    sxx = sum((x - mx) ** 2 for x in xs)
    slope = sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sxx if sxx > 0 else float("nan")
    return my - slope * mx, 1 / slope if slope > 0 else float("nan")


def main():
    args, sizes = arguments()
    sysfs = block_sysfs(args.dir)
    dst, dst_mv = touched_buffer(4 * MIB)
    block = os.urandom(MIB)
    records = []
    with scratch_folder(args.dir, "iowall-read-sizes-") as work:
        old = os.path.join(work, "old.bin")
        write_new_file(old, max(sizes), block)
        for r in range(1, args.rounds + 1):
            order = sizes if r % 2 else list(reversed(sizes))
            for size in order:
                fresh = os.path.join(work, f"fresh-{r}-{size >> 20}.bin")
                t = time.perf_counter()
                write_new_file(fresh, size, block)
                written_s = time.perf_counter() - t
                rec = read_cold(fresh, size, dst_mv, sysfs)
                rec.update({"round": r, "kind": "fresh", "write_fsync_s": written_s})
                os.unlink(fresh)
                records.append(rec)
                rec = read_cold(old, size, dst_mv, sysfs)
                rec.update({"round": r, "kind": "old"})
                records.append(rec)
                print(f"# round {r} {size >> 20} MiB: fresh {records[-2]['wall_s']:.3f} s, old {rec['wall_s']:.3f} s",
                      file=sys.stderr, flush=True)

    summary = {}
    for kind in ("fresh", "old"):
        for size in sizes:
            runs = [x for x in records if x["kind"] == kind and x["bytes"] == size]
            wall = statistics.median(x["wall_s"] for x in runs)
            s = {"median_s": wall, "min_s": min(x["wall_s"] for x in runs), "max_s": max(x["wall_s"] for x in runs),
                 "gb_per_s": size / wall / 1e9, "cpu_s": statistics.median(x["thread_cpu_s"] for x in runs)}
            if all("disk" in x for x in runs):
                s["disk_busy_share"] = statistics.median(x["disk"]["busy_ms"] / 1e3 / x["wall_s"] for x in runs)
                s["idle_s"] = statistics.median(x["wall_s"] - x["disk"]["busy_ms"] / 1e3 for x in runs)
            firsts = [x["first_request_s"] for x in runs if x["first_request_s"] is not None]
            if firsts:
                s["first_request_s"] = statistics.median(firsts)
            summary[f"{kind}_{size >> 20}m"] = s
        if len(sizes) > 1:  # a line needs two sizes
            a, rate = fit([(x["bytes"], x["wall_s"]) for x in records if x["kind"] == kind])
            summary[f"{kind}_fit"] = {"intercept_s": a, "rate_gb_per_s": rate}
    doc = {"tool": "probe-read-sizes", "kernel": platform.release(), "sizes": sizes, "rounds": args.rounds,
           "queue": queue_settings(sysfs, ["read_ahead_kb", "max_sectors_kb", "max_segments", "nr_requests",
                                           "scheduler"]),
           "records": records}
    finish_probe(args.output, doc, summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
