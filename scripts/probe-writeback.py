#!/usr/bin/env python3
"""What making a buffered write durable costs by how the file's blocks stand: a new file (ext4
allocates its blocks when writeback sends the pages: delayed allocation), a new file whose
blocks were preallocated (fallocate: unwritten extents, converted as they are written, fio's
default layout) and the same file overwritten (blocks allocated and written: what the write
sweeps of scripts/calibrate-gpu-machine.sh time, their file laid out once). Frameworks save
checkpoints to new files; the writeback fitted from the sweeps is an overwrite's.

For each size (1 GiB, 2 GiB and --size-gib) and round, in this order on one file:
  new         create, write the size in 1 MiB write() calls, fsync
  overwrite   the same file, the same writes from its start, fsync
  fallocated  a second new file, fallocate(size) first, the writes, fsync
Each: the write phase's and the fsync's seconds, /proc/meminfo Dirty and Writeback before the
fsync, the disk's write counters over the fsync (requests, bytes, summed write time, busy time,
cache flushes) and its in-flight writes sampled every 2 ms by a process of its own, the
process's CPU seconds over each phase and the whole machine's busy CPU seconds over the fsync
(/proc/stat: kernel threads included). Nothing is changed on the machine: only a folder made
under --dir is written, and removed at the end; the pages written are dropped from the cache
(POSIX_FADV_DONTNEED, these files only) before each file is removed.
usage: scripts/probe-writeback.py --dir /var/tmp --output wb.json [--size-gib 8] [--rounds 3]
Standard library only.
"""
import os
import platform
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import (dirty_now, file_system_of, finish_probe, probe_arguments,  # noqa: E402
                             vm_dirty_settings)
from disk_counters import (block_sysfs, counter_delta,  # noqa: E402
                           disk_write_stat, InflightSampler, queue_settings)

MIB = 1 << 20
CASES = ("new", "overwrite", "fallocated")


def cpu_s():
    t = os.times()
    return t.user + t.system


def machine_busy_s():
    """CPU seconds the whole machine spent busy (user, nice, system, irq, softirq; /proc/stat),
    kernel threads included: where writeback's own work would show."""
    try:
        with open("/proc/stat") as f:
            v = [int(x) for x in f.readline().split()[1:8]]
        return (v[0] + v[1] + v[2] + v[5] + v[6]) / os.sysconf("SC_CLK_TCK")
    except (OSError, ValueError, IndexError):
        return 0.0


def write_file(path, size, chunk, create, fallocate):
    """Writes `size` bytes from the file's start in 1 MiB calls, then fsyncs: the two phases' records."""
    flags = os.O_WRONLY | (os.O_CREAT | os.O_EXCL if create else 0)
    fd = os.open(path, flags, 0o644)
    try:
        if fallocate:
            os.posix_fallocate(fd, 0, size)
        c0, t0 = cpu_s(), time.perf_counter()
        done = 0
        view = memoryview(chunk)
        while done < size:  # 1 MiB calls, cycling through the random buffer
            off = done % len(chunk)
            done += os.write(fd, view[off:off + min(MIB, size - done, len(chunk) - off)])
        write = {"seconds": time.perf_counter() - t0, "cpu_s": cpu_s() - c0, "bytes": done}
        return fd, write
    except BaseException:
        os.close(fd)
        raise


def fsync_record(fd, sysfs):
    before = dirty_now()
    d0 = disk_write_stat(sysfs)
    with InflightSampler(sysfs, writes=True) as sampler:
        m0, c0, t0 = machine_busy_s(), cpu_s(), time.perf_counter()
        os.fsync(fd)
        seconds, cpu, busy = time.perf_counter() - t0, cpu_s() - c0, machine_busy_s() - m0
    d1 = disk_write_stat(sysfs)
    rec = {"seconds": seconds, "cpu_s": cpu, "machine_busy_s": busy, "dirty_before": before, "dirty_after": dirty_now(),
           "inflight_hist": {str(k): v for k, v in sorted(sampler.hist.items())}}
    if disk := counter_delta(d0, d1):
        rec["disk"] = disk
    return rec


def main():
    args, size = probe_arguments(__doc__)
    sysfs = block_sysfs(args.dir)
    sizes = sorted({1 << 30, 2 << 30, size})
    work = tempfile.mkdtemp(prefix="iowall-writeback-", dir=args.dir)
    chunk = bytearray(os.urandom(64 * MIB))  # random: nothing below can compress or skip it
    records = []
    try:
        for r in range(1, args.rounds + 1):
            for sz in sizes:
                rec = {"round": r, "size_bytes": sz}
                a, b = os.path.join(work, "a.bin"), os.path.join(work, "b.bin")
                for case, path, create, falloc in (("new", a, True, False), ("overwrite", a, False, False),
                                                   ("fallocated", b, True, True)):
                    fd, write = write_file(path, sz, chunk, create, falloc)
                    try:
                        rec[case] = {"write": write, "fsync": fsync_record(fd, sysfs)}
                        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
                    finally:
                        os.close(fd)
                for path in (a, b):
                    os.unlink(path)
                records.append(rec)
                print(f"# round {r} {sz >> 30} GiB: " + ", ".join(
                    f"{c} write {rec[c]['write']['seconds']:.3f} fsync {rec[c]['fsync']['seconds']:.3f}" for c in CASES),
                    file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    summary = {}
    for sz in sizes:
        for case in CASES:
            rows = [rec[case] for rec in records if rec["size_bytes"] == sz]
            fs = [x["fsync"]["seconds"] for x in rows]
            ws = [x["write"]["seconds"] for x in rows]
            s = {"fsync_median_s": statistics.median(fs), "fsync_min_s": min(fs), "fsync_max_s": max(fs),
                 "fsync_gb_per_s": sz / statistics.median(fs) / 1e9, "write_median_s": statistics.median(ws),
                 "fsync_cpu_s": statistics.median(x["fsync"]["cpu_s"] for x in rows),
                 "fsync_machine_busy_s": statistics.median(x["fsync"]["machine_busy_s"] for x in rows)}
            disk = [x["fsync"].get("disk") for x in rows if x["fsync"].get("disk")]
            if disk:
                s["disk_busy_share"] = statistics.median(d["busy_ms"] / 1000 / x["fsync"]["seconds"]
                                                         for d, x in zip(disk, rows))
                s["mean_request_kib"] = statistics.median(d["bytes"] / max(1, d["writes"]) / 1024 for d in disk)
                s["flushes"] = statistics.median(d["flushes"] for d in disk)
            hist = [x["fsync"]["inflight_hist"] for x in rows]
            s["inflight_mean"] = statistics.median(sum(int(k) * v for k, v in h.items()) / max(1, sum(h.values()))
                                                   for h in hist)
            summary[f"{case}_{sz >> 30}g"] = s
    doc = {"tool": "scripts/probe-writeback.py", "sizes": sizes, "rounds": args.rounds,
           "machine": {"kernel": platform.release(), "cpus": os.cpu_count(), "vm_dirty": vm_dirty_settings(),
                       "file_system": file_system_of(args.dir),
                       "queue": queue_settings(sysfs, ["max_sectors_kb", "nr_requests", "write_cache", "rotational"])},
           "records": records}
    finish_probe(args.output, doc, summary)


if __name__ == "__main__":
    main()
