#!/usr/bin/env python3
"""When a cold sequential read of a file gets its bytes: the disk's sectors read, sampled every 2 ms while
one reader streams a file, to tell a fixed cost at the read's start or end, or a rate that grows over its
first part, from a rate that holds from start to end.

Across the checkpoint sessions the model's cold reads are about 12% fast at 2 GB and 2-6% at 8 GB, for
torch.load's read() and safetensors' mapping alike (reports/checkpoint-validation.md): as if every cold read
paid about 0.15 s the model does not, whatever its size. A timeline shows where such time goes. For each
--sizes-gb a file of that size is written (random bytes) and fsync'ed; each round then runs, order rotated:
  buffered_idle  the disk left idle --idle seconds, the file's pages dropped (POSIX_FADV_DONTNEED), then read
                 from start to end in 4 MiB readinto()s into one reused buffer (the kernel's readahead)
  buffered_busy  the same, but right after a cold read of a separate 256 MiB file (the disk busy until the
                 stream starts): whether a start after idleness costs what a start after work does not
  direct         the disk left idle as for buffered_idle, then the file read with O_DIRECT in 4 MiB reads,
                 one at a time (no readahead, no page cache): whether the disk itself ramps up
  after_write    a new file of the same size written (1 MiB writes of random bytes) and fsync'ed, its pages
                 dropped, then read as buffered_busy at once: the checkpoint runs' order (a load right after
                 its save was made durable), against a file written long before; the new file is removed
For each: wall seconds, the deltas of the process's and the disk's counters (checkpoint_host.measure_counted),
and the disk's bytes read and requests in flight every 2 ms from a sampler process (disk_counters.StatSampler),
kept in 10 ms bins from the read's start, and summarized: the time until the first MiB, the rate over the
read's first 0.25 s and 0.5 s, the steady rate (between 25% and 75% of the bytes), and the time the read took
beyond its bytes at the steady rate (excess_s). Nothing is changed on the machine: only a folder made under
--dir is written, and removed at the end.
usage: scripts/probe-stream-timeline.py --dir /var/tmp --output st.json [--sizes-gb 2,8] [--rounds 3] [--idle 2]
(--size-gib, common to the probes, is not used here: --sizes-gb sets the files.)
Standard library only.
"""
import mmap
import os
import platform
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import (drop_cached, finish_probe, measure_counted, probe_arguments,  # noqa: E402
                             read_through, rotated, scratch_folder, sizes_gb, write_new_file)
from disk_counters import block_sysfs, queue_settings, StatSampler  # noqa: E402

CASES = ("buffered_idle", "buffered_busy", "direct", "after_write")
CHUNK = 4 << 20
WARM_FILE = 256 << 20
BIN_S = 0.010
# /sys/block/DEV/stat (Documentation/block/stat.rst): sectors read at 2, requests in flight at 8.
SECTORS, IN_FLIGHT = 2, 8


def options(ap):
    ap.add_argument("--sizes-gb", default="2,8")
    ap.add_argument("--idle", type=float, default=2.0, help="seconds the disk is left idle before the idle cases")


def read_direct(path, buf):
    """The file read from start to end with O_DIRECT in reads of len(buf) (an mmap: page-aligned), one at a
    time."""
    fd = os.open(path, os.O_RDONLY | os.O_DIRECT)
    try:
        offset = 0
        while True:
            n = os.preadv(fd, [buf], offset)
            if n <= 0:
                break
            offset += n
    finally:
        os.close(fd)


def timeline(series, t0, t1):
    """The sampler's rows from t0 to t1 as 10 ms bins: [ms from t0, MiB read since t0, requests in flight]."""
    rows = [r for r in series if t0 - BIN_S <= r[0] <= t1 + BIN_S]
    if not rows:
        return []
    base = max((r for r in rows if r[0] <= t0), key=lambda r: r[0], default=rows[0])[1]
    out, next_t = [], t0
    for t, sectors, inflight in rows:
        if t >= next_t:
            out.append([round((t - t0) * 1000, 1), round((sectors - base) * 512 / 2**20, 1), inflight])
            next_t = t + BIN_S
    return out


def summarize_timeline(tl, wall_s, nbytes):
    """The read's shape from its timeline: first MiB, early rates, the steady rate and the excess."""
    if len(tl) < 4:
        return {}
    total_mib = nbytes / 2**20

    def at_mib(mib):  # the first bin's time at which `mib` had been read
        return next((ms / 1000 for ms, m, _ in tl if m >= mib), None)

    def rate_over(sec):  # GB/s over the read's first `sec` seconds (None for a shorter read)
        if wall_s < sec:
            return None
        return max((m for ms, m, _ in tl if ms / 1000 <= sec), default=0.0) * 2**20 / sec / 1e9

    t25, t75 = at_mib(0.25 * total_mib), at_mib(0.75 * total_mib)
    steady = 0.5 * nbytes / (t75 - t25) if t25 is not None and t75 and t75 > t25 else None
    return {"first_mib_s": at_mib(1.0),
            "rate_first_250ms_GBps": rate_over(0.25),
            "rate_first_500ms_GBps": rate_over(0.5),
            "steady_GBps": steady / 1e9 if steady else None,
            "mean_GBps": nbytes / wall_s / 1e9,
            "excess_s": wall_s - nbytes / steady if steady else None,
            "inflight_median": statistics.median(r[2] for r in tl)}


def main():
    args, _ = probe_arguments(__doc__, options)
    sizes = sizes_gb(args.sizes_gb)
    if not sizes or args.idle < 0:
        print("probe-stream-timeline: --sizes-gb needs sizes above 0, --idle 0 or more", file=sys.stderr)
        sys.exit(2)
    sysfs = block_sysfs(args.dir)
    doc = {"tool": "probe-stream-timeline", "machine": {"kernel": platform.release(), "cpus": os.cpu_count(),
                                                        "queue": queue_settings(sysfs)},
           "sizes_gb": sizes, "rounds": args.rounds, "idle_s": args.idle, "chunk_bytes": CHUNK, "records": []}
    buf = mmap.mmap(-1, CHUNK)
    with scratch_folder(args.dir, "stream-timeline-") as work:
        block = os.urandom(1 << 20)
        warm = os.path.join(work, "warm")
        write_new_file(warm, WARM_FILE, block)
        files = {}
        for gb in sizes:
            files[gb] = os.path.join(work, f"stream-{gb:g}gb")
            write_new_file(files[gb], int(gb * 1e9) // (1 << 20) * (1 << 20), block)
        for r in range(args.rounds):
            for gb in sizes:
                nbytes = os.path.getsize(files[gb])
                for case in rotated(list(CASES), r):
                    path = os.path.join(work, f"fresh-{gb:g}gb") if case == "after_write" else files[gb]
                    if case == "after_write":
                        write_new_file(path, nbytes, block)  # fsync'ed
                    drop_cached(path)
                    drop_cached(warm)
                    if case == "buffered_busy":
                        read_through(warm, buf)  # the disk busy right up to the stream
                    else:
                        time.sleep(args.idle)
                    read = (lambda: read_direct(path, buf)) if case == "direct" else (lambda: read_through(path, buf))
                    with StatSampler(f"{sysfs}/stat", [SECTORS, IN_FLIGHT]) as sampler:
                        t0 = time.perf_counter()
                        _, counted = measure_counted(read, sysfs)
                        t1 = time.perf_counter()
                    tl = timeline(sampler.series, t0, t1)
                    rec = {"size_gb": gb, "round": r + 1, "case": case, "bytes": nbytes, **counted,
                           **summarize_timeline(tl, counted["wall_s"], nbytes), "timeline": tl}
                    doc["records"].append(rec)
                    if case == "after_write":
                        os.unlink(path)
                    excess = rec.get("excess_s")
                    print(f"{gb:g} GB r{r + 1} {case}: {counted['wall_s']:.3f} s, excess "
                          f"{'n/a' if excess is None else f'{excess:.3f} s'}", flush=True)
    summary = {}
    for gb in sizes:
        for case in CASES:
            rs = [x for x in doc["records"] if x["size_gb"] == gb and x["case"] == case]
            keys = ("wall_s", "excess_s", "first_mib_s", "rate_first_250ms_GBps", "rate_first_500ms_GBps",
                    "steady_GBps", "mean_GBps")
            summary[f"{gb:g}gb_{case}"] = {f"median_{k}": statistics.median(x[k] for x in rs)
                                           for k in keys if rs and all(x.get(k) is not None for x in rs)}
    finish_probe(args.output, doc, summary)


if __name__ == "__main__":
    main()
