#!/usr/bin/env python3
"""How a cold buffered read of a large file reaches the disk on this machine, against O_DIRECT
reads of the same file: what a checkpoint's cold load is made of.

A loader (torch.load, safetensors) reads a cold file through the page cache: read() (or page
faults on a mapping) allocates page-cache pages, the kernel's readahead sends their I/O, the
completions unlock the pages and the reader copies them out. Whether the disk is kept busy while
the reader copies, how large the requests are and how many are in flight decide the rate. Each
case below is run --rounds times, interleaved, on one file of --size-gib GiB written once; before
every cold case the file's pages are dropped (posix_fadvise DONTNEED, this file only):
  buffered_Nm      cold read() in N MiB pieces (readinto, into memory already mapped), N = 1, 4, 16, and
                   128 (a read() many times the readahead window, as a loader of few large records makes)
  buffered_4m_seq  the same with POSIX_FADV_SEQUENTIAL (the kernel doubles the readahead window)
  buffered_4m_rand the same with POSIX_FADV_RANDOM (no readahead: each read() reads its own pages)
  mmap_4m          the file mapped and copied out in 4 MiB slices (page faults, read-around); its
                   in-flight samples are few: the slice copy holds Python's GIL while it faults, so
                   the sampling thread rarely runs (the disk counters are whole)
  warm_4m          buffered_4m again, the file now cached (the copy alone)
  direct_Nm_qd1    O_DIRECT reads of N MiB one at a time, N = 1, 4, 16
  direct_4m_qd2    O_DIRECT 4 MiB reads from two threads (two in flight)
  direct_Nm_qd1_huge  the same as direct_Nm_qd1 into a buffer of 2 MiB pages (MADV_HUGEPAGE), N = 1, 4:
                   one DMA segment per request where the others' 4 KiB pages give one per page
  sendfile_4m      cold, the page cache's pages sent to /dev/null in 4 MiB pieces: readahead as
                   buffered_4m, without the reader's copy into its own memory
For each: wall seconds; the reading thread's CPU seconds (user + system, so the share of the
wall the reader was running); the disk's counters around it from sysfs (requests, merges, bytes,
the summed request time and the time the disk had any request: busy); and the disk's in-flight
reads sampled every 2 ms (a histogram). The machine's queue settings are recorded. Nothing is
changed on the machine: only a folder made under --dir is written, and removed at the end.
usage: scripts/probe-read-path.py --dir /var/tmp --output rp.json [--size-gib 4] [--rounds 3]
       [--cases buffered_4m,buffered_128m,...]   (default: every case, in the order above)
"""
import ctypes
import mmap
import os
import platform
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import (drop_cached, finish_probe, map_file, probe_arguments, read_direct_threads,  # noqa: E402
                             scratch_folder, thp_mode, write_new_file)
from disk_counters import (block_sysfs, counter_delta,  # noqa: E402
                           disk_read_stat, InflightSampler, queue_settings)

MIB = 1 << 20
HUGE = 2 * MIB


def measure(fn, sysfs):
    """Runs fn() and returns wall s, the calling thread's CPU s, the disk's counters and in-flight
    histogram."""
    d0 = disk_read_stat(sysfs)
    with InflightSampler(sysfs) as sampler:
        c0, t0 = time.thread_time(), time.perf_counter()
        fn()
        wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
    d1 = disk_read_stat(sysfs)
    rec = {"wall_s": wall, "thread_cpu_s": cpu}
    if disk := counter_delta(d0, d1):
        rec["disk"] = disk
    rec["inflight_hist"] = {str(k): v for k, v in sorted(sampler.hist.items())}
    return rec


def huge_page_buffer(length):
    """An anonymous mapping with `length` bytes 2 MiB-aligned inside it, advised MADV_HUGEPAGE
    and touched: (the mapping, a memoryview of the aligned part). Where the kernel gives no huge
    pages the buffer has 4 KiB pages; the record says how many bytes were huge."""
    # Private: Python's default anonymous mapping is shared (shmem), which THP leaves alone.
    m = mmap.mmap(-1, length + HUGE, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
    addr = ctypes.addressof(ctypes.c_char.from_buffer(m))
    start = (-addr) % HUGE
    if hasattr(mmap, "MADV_HUGEPAGE"):
        m.madvise(mmap.MADV_HUGEPAGE, start, length)
    view = memoryview(m)[start:start + length]
    for off in range(0, length, MIB):
        view[off:off + MIB] = b"\1" * MIB
    return m, view


def anon_huge_kib():
    """This process's AnonHugePages (kB), or None where /proc does not say."""
    try:
        with open("/proc/self/smaps_rollup") as f:
            for line in f:
                if line.startswith("AnonHugePages:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return None


def main():
    args, size = probe_arguments(__doc__, lambda ap: ap.add_argument("--cases", default="",
                                                                      help="comma-separated case names (default: all)"))

    # The cases read the file, buffers and folder made below (each name looked up when a case runs).
    def buffered(piece, advice=None):
        def run():
            fd = os.open(path, os.O_RDONLY)
            if advice is not None:
                os.posix_fadvise(fd, 0, 0, advice)
            with os.fdopen(fd, "rb", buffering=0) as f:
                for off in range(0, size, piece):
                    f.readinto(dst_mv[off:off + piece])
        return run

    def mapped():
        m = map_file(path, size)
        mv = memoryview(m)
        for off in range(0, size, 4 * MIB):
            dst_mv[off:off + 4 * MIB] = mv[off:off + 4 * MIB]
        mv.release()
        m.close()

    def sent(piece):
        def run():
            fd = os.open(path, os.O_RDONLY)
            null = os.open(os.devnull, os.O_WRONLY)
            try:
                off = 0
                while off < size:
                    n = os.sendfile(null, fd, off, piece)
                    if n <= 0:
                        break
                    off += n
            finally:
                os.close(null)
                os.close(fd)
        return run

    def direct(piece, threads=1, huge=False):
        def run():
            read_direct_threads(path, size, [[huge_view[:piece] if huge else memoryview(direct_bufs[k])[:piece]]
                                             for k in range(threads)])
        return run

    cases = [
        ("buffered_4m", buffered(4 * MIB), True),
        ("direct_1m_qd1", direct(MIB), False),
        ("buffered_1m", buffered(MIB), True),
        ("direct_4m_qd1", direct(4 * MIB), False),
        ("buffered_16m", buffered(16 * MIB), True),
        ("buffered_128m", buffered(128 * MIB), True),
        ("direct_16m_qd1", direct(16 * MIB), False),
        ("buffered_4m_seq", buffered(4 * MIB, os.POSIX_FADV_SEQUENTIAL), True),
        ("buffered_4m_rand", buffered(4 * MIB, os.POSIX_FADV_RANDOM), True),
        ("direct_4m_qd2", direct(4 * MIB, 2), False),
        ("mmap_4m", mapped, True),
        ("direct_1m_qd1_huge", direct(MIB, huge=True), False),
        ("sendfile_4m", sent(4 * MIB), True),
        ("direct_4m_qd1_huge", direct(4 * MIB, huge=True), False),
        ("warm_4m", buffered(4 * MIB), False),
    ]
    names = [name for name, _, _ in cases]
    wanted = [c for c in args.cases.split(",") if c] or names
    unknown = sorted(set(wanted) - set(names))
    if unknown:
        print(f"probe-read-path: --cases: {', '.join(unknown)} is not a case (cases: {', '.join(names)})",
              file=sys.stderr)
        sys.exit(2)
    cases = [c for c in cases if c[0] in wanted]
    sysfs = block_sysfs(args.dir)
    dst = bytearray(size)
    dst_mv = memoryview(dst)
    for off in range(0, size, MIB):  # mapped before any case: no faults in the timed copies
        dst_mv[off:off + MIB] = b"\1" * MIB
    direct_bufs = [mmap.mmap(-1, 16 * MIB) for _ in range(2)]  # page-aligned for O_DIRECT
    huge_before = anon_huge_kib()
    huge_buf, huge_view = huge_page_buffer(16 * MIB)
    huge_kib = None if huge_before is None else anon_huge_kib() - huge_before  # of the 16 MiB asked
    records = []
    with scratch_folder(args.dir, "iowall-read-path-") as work:
        path = os.path.join(work, "file.bin")
        write_new_file(path, size)
        for r in range(1, args.rounds + 1):
            rec = {"round": r}
            for name, fn, cold in cases:
                if cold:
                    drop_cached(path)
                rec[name] = measure(fn, sysfs)
            records.append(rec)
            print(f"# round {r}: " + ", ".join(f"{n} {rec[n]['wall_s']:.3f}" for n, _, _ in cases),
                  file=sys.stderr, flush=True)
    summary = {}
    for name, _, _ in cases:
        walls = [rec[name]["wall_s"] for rec in records]
        cpus = [rec[name]["thread_cpu_s"] for rec in records]
        s = {"median_s": statistics.median(walls), "min_s": min(walls), "max_s": max(walls),
             "gb_per_s": size / statistics.median(walls) / 1e9,
             "thread_cpu_share": statistics.median(c / w for c, w in zip(cpus, walls))}
        disks = [rec[name].get("disk") for rec in records]
        if all(disks):
            s["mean_request_kib"] = statistics.median(d["bytes"] / d["reads"] / 1024 for d in disks if d["reads"])  \
                if any(d["reads"] for d in disks) else 0
            s["mean_request_ms"] = statistics.median(d["read_ticks_ms"] / d["reads"] for d in disks if d["reads"]) \
                if any(d["reads"] for d in disks) else 0
            s["disk_busy_share"] = statistics.median(d["busy_ms"] / 1000 / rec[name]["wall_s"]
                                                     for d, rec in zip(disks, records))
        summary[name] = s
    doc = {"tool": "scripts/probe-read-path.py", "bytes": size, "rounds": args.rounds,
           "huge_buffer_huge_kib": huge_kib,
           "machine": {"kernel": platform.release(), "cpus": os.cpu_count(), "thp": thp_mode(),
                       "queue": queue_settings(sysfs)},
           "records": records}
    finish_probe(args.output, doc, summary)


if __name__ == "__main__":
    main()
