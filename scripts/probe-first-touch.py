#!/usr/bin/env python3
"""Whether a VM's memory that was never written costs a cold page-cache read: the host's first touch.

A virtual machine's memory is the host's anonymous memory, given a page when the guest first writes
it (the host's fault: a page allocated and zeroed there), and kept after (a guest with no free page
reporting never hands it back: scripts/probe-guest-memory.py). A guest's anonymous page is zeroed by
the guest's CPU, so the host's fault lands on the guest's thread; a page-cache page is not zeroed: the
first to write it is the virtual disk's host thread, copying a read's data into it, and the host's
fault lands on the disk's time. A fresh VM's page cache may then be filled into memory nothing wrote
before, each such page costing the disk the host's fault; a VM whose memory was all written once reads
into backed pages. This probe reads one file of --size-gib GiB cold, --rounds times, before and after
writing all the memory the guest has free, and times the writing:
  stream       buffered 4 MiB readinto()s into one reused buffer, the file's pages dropped first
               (POSIX_FADV_DONTNEED): the page cache's pages taken from the free memory
  direct_32m   O_DIRECT 4 MiB reads from 4 threads, each cycling two 4 MiB buffers written before
               (the disk's rate into backed memory: the control for drift)
  touch        between the two: MemAvailable less --keep-gib GiB mapped anonymously and written by
               MADV_POPULATE_WRITE in --chunk-gib GiB pieces, each piece timed (a piece of never-written
               memory is slower by the host's faults), all held until the last is written, then freed
  retouch      at once, --chunk-gib GiB written the same way again, twice: memory just freed, backed on
               the host (the guest's faults and zeroing alone)
For each read: wall seconds, the thread's CPU seconds and the disk's counters (busy time: the rate per
busy second is the disk's host thread's). Only a folder made under --dir is written, and removed at the
end; nothing on the machine is changed.
usage: scripts/probe-first-touch.py --dir /var/tmp --output ft.json [--size-gib 2] [--rounds 3]
       [--keep-gib 6] [--chunk-gib 4]
"""
import mmap
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import (drop_cached, finish_probe, probe_arguments, read_direct_threads,  # noqa: E402
                             read_meminfo, read_through, scratch_folder, thp_mode, touched_buffer,
                             write_new_file)
from disk_counters import block_sysfs, counter_delta, disk_read_stat, queue_settings  # noqa: E402

MIB = 1 << 20
GIB = 1 << 30
MADV_POPULATE_WRITE = getattr(mmap, "MADV_POPULATE_WRITE", 23)  # Linux 5.14


def measure(fn, sysfs):
    d0 = disk_read_stat(sysfs)
    c0, t0 = time.thread_time(), time.perf_counter()
    fn()
    wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
    rec = {"wall_s": wall, "thread_cpu_s": cpu}
    if disk := counter_delta(d0, disk_read_stat(sysfs)):
        rec["disk"] = disk
    return rec


def populate(nbytes):
    """A new private anonymous mapping of nbytes, written by MADV_POPULATE_WRITE: (mapping, seconds)."""
    m = mmap.mmap(-1, nbytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    t0 = time.perf_counter()
    m.madvise(MADV_POPULATE_WRITE)
    return m, time.perf_counter() - t0


def main():
    def extra(ap):
        ap.add_argument("--keep-gib", type=int, default=6, help="GiB of MemAvailable left unwritten by touch")
        ap.add_argument("--chunk-gib", type=int, default=4)
    args, size = probe_arguments(__doc__, extra)
    if args.keep_gib < 1 or args.chunk_gib < 1:
        print("probe-first-touch: --keep-gib and --chunk-gib must be at least 1", file=sys.stderr)
        return 2
    sysfs = block_sysfs(args.dir)
    _, dst_mv = touched_buffer(4 * MIB)
    direct_bufs = [[touched_buffer(4 * MIB)[0] for _ in range(2)] for _ in range(4)]
    records, touch = [], {}
    mem_start = read_meminfo()
    with scratch_folder(args.dir, "iowall-first-touch-") as work:
        path = os.path.join(work, "file.bin")
        write_new_file(path, size)

        def stream():
            read_through(path, dst_mv)

        def direct():
            read_direct_threads(path, size, direct_bufs)

        def reads(phase):
            for r in range(1, args.rounds + 1):
                rec = {"phase": phase, "round": r}
                for name, fn in (("stream", stream), ("direct_32m", direct)):
                    drop_cached(path)
                    rec[name] = measure(fn, sysfs)
                records.append(rec)
                print(f"# {phase} round {r}: stream {rec['stream']['wall_s']:.3f}, direct_32m "
                      f"{rec['direct_32m']['wall_s']:.3f}", file=sys.stderr, flush=True)

        reads("before")
        drop_cached(path)
        avail = read_meminfo().get("MemAvailable", 0)
        chunk = args.chunk_gib * GIB
        pieces = max(0, (avail - args.keep_gib * GIB) // chunk)
        held, touch["pieces_s"] = [], []
        for _ in range(pieces):
            m, s = populate(chunk)
            held.append(m)
            touch["pieces_s"].append(s)
        touch["meminfo_held"] = read_meminfo()
        for m in held:
            m.close()
        held.clear()
        touch["retouch_s"] = []
        for _ in range(2):
            m, s = populate(chunk)
            m.close()
            touch["retouch_s"].append(s)
        touch["chunk_bytes"] = chunk
        print(f"# touch: {pieces} x {args.chunk_gib} GiB, " + " ".join(f"{s:.2f}" for s in touch["pieces_s"])
              + f"; retouch {' '.join(f'{s:.2f}' for s in touch['retouch_s'])}", file=sys.stderr, flush=True)
        reads("after")

    summary = {}
    for phase in ("before", "after"):
        for name in ("stream", "direct_32m"):
            runs = [r[name] for r in records if r["phase"] == phase]
            med = statistics.median(x["wall_s"] for x in runs)
            s = {"median_s": med, "min_s": min(x["wall_s"] for x in runs), "max_s": max(x["wall_s"] for x in runs),
                 "gb_per_s": size / med / 1e9}
            if all("disk" in x and x["disk"]["busy_ms"] > 0 for x in runs):
                s["disk_busy_share"] = statistics.median(x["disk"]["busy_ms"] / 1e3 / x["wall_s"] for x in runs)
                s["gb_per_busy_s"] = statistics.median(size / (x["disk"]["busy_ms"] / 1e3) / 1e9 for x in runs)
            summary[f"{phase}_{name}"] = s
    if touch["pieces_s"]:
        retouch = statistics.median(touch["retouch_s"])
        touch["host_ns_per_byte"] = [(t - retouch) / touch["chunk_bytes"] * 1e9 for t in touch["pieces_s"]]
        summary["touch"] = {"pieces": len(touch["pieces_s"]),
                            "first_gb_per_s_median": touch["chunk_bytes"] / statistics.median(touch["pieces_s"]) / 1e9,
                            "first_gb_per_s_slowest": touch["chunk_bytes"] / max(touch["pieces_s"]) / 1e9,
                            "retouch_gb_per_s": touch["chunk_bytes"] / retouch / 1e9,
                            "host_ns_per_byte_median": statistics.median(touch["host_ns_per_byte"]),
                            "host_ns_per_byte_max": max(touch["host_ns_per_byte"])}
    doc = {"tool": "probe-first-touch", "thp": thp_mode(), "memory": mem_start, "queue": queue_settings(sysfs),
           "file_bytes": size, "rounds": args.rounds, "touch": touch, "records": records, "summary": summary}
    return finish_probe(args.output, doc, summary)


if __name__ == "__main__":
    sys.exit(main())
