#!/usr/bin/env python3
"""What the page cache costs a writer and a reader, apart from the drive, on this machine.

A framework's checkpoint writes every byte once from memory it has not touched lately (a cold
source) into pages the page cache must first allocate; a loader reads a cold file through
readahead into memory it already has. A calibration sweep (fio, iowall measure) writes one small
buffer again and again (a hot source) and reads with O_DIRECT. This probe measures the
difference, each point --rounds times, interleaved:
  memcpy_hot     one 1 MiB block copied again and again into one 1 MiB destination
  memcpy_cold    SIZE bytes copied in 1 MiB pieces from a filled source into a filled
                 destination (both touched before: no page faults)
  write_hot      SIZE bytes written with write() in 1 MiB pieces from the hot 1 MiB block into a
                 new file (the write phase), then fsync (its writeback)
  write_cold     the same from the cold SIZE source
  read_cold      that file, its pages dropped (posix_fadvise DONTNEED after fsync), read with
                 readinto() in 4 MiB pieces into the filled destination (memory already mapped)
  read_warm      the same again, the file now cached
  read_direct    the same file with O_DIRECT, 1 MiB reads one at a time (QD 1)
The disk's request counters around each read (so their request sizes) and its queue's
read_ahead_kb, max_sectors_kb and max_segments are recorded too.
Per 4 KiB page, write_cold - memcpy_cold is what a buffered write costs beyond its copy (page
allocation, charging, insertion, dirtying) when the source is cold. An untimed 1 GiB write comes
first. Files go only into a folder
made under --dir and removed at the end. One JSON document (--output, written atomically).
usage: scripts/probe-page-cache.py --dir /var/tmp --output pc.json [--size-gib 4] [--rounds 3]
"""
import json
import mmap
import os
import platform
import shutil
import statistics
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import (probe_arguments, timed, write_atomically)  # noqa: E402
from disk_counters import (block_sysfs, counter_delta, queue_settings)  # noqa: E402

MIB = 1 << 20


def disk_stat(path):
    """The block device's I/O counters under `path` (reads, read sectors, writes, write sectors),
    from its sysfs stat; None where the file system sits on no block device."""
    try:
        with open(f"{block_sysfs(path)}/stat") as f:
            v = [int(x) for x in f.read().split()]
        return {"reads": v[0], "read_sectors": v[2], "writes": v[4], "write_sectors": v[6]}
    except (OSError, ValueError, IndexError):
        return None


def filled(nbytes, block):
    buf = bytearray(nbytes)
    mv = memoryview(buf)
    for off in range(0, nbytes, len(block)):
        mv[off:off + len(block)] = block
    return buf, mv


def main():
    args, size = probe_arguments(__doc__)
    block = os.urandom(MIB)
    hot_src = bytes(block)
    hot_dst = bytearray(MIB)
    src, src_mv = filled(size, block[::-1])
    dst, dst_mv = filled(size, block)
    direct_buf = mmap.mmap(-1, MIB)  # page-aligned for O_DIRECT
    work = tempfile.mkdtemp(prefix="iowall-page-cache-", dir=args.dir)
    records = []
    try:
        # Untimed: a first write in a fresh process or machine can pay for memory the kernel
        # has not yet handed out (seen: a first 1 GiB write ten times slower than the next).
        warm = os.path.join(work, "warm.bin")
        fd = os.open(warm, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        for _ in range(min(size, 1 << 30) // MIB):
            os.write(fd, hot_src)
        os.fsync(fd)
        os.close(fd)
        os.unlink(warm)
        for r in range(1, args.rounds + 1):
            rec = {"round": r}

            def memcpy_hot():
                hv = memoryview(hot_dst)
                for _ in range(size // MIB):
                    hv[:] = hot_src
            rec["memcpy_hot_s"] = timed(memcpy_hot)

            def memcpy_cold():
                for off in range(0, size, MIB):
                    dst_mv[off:off + MIB] = src_mv[off:off + MIB]
            rec["memcpy_cold_s"] = timed(memcpy_cold)
            for kind in ("hot", "cold"):
                path = os.path.join(work, f"{kind}.bin")
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                if kind == "hot":
                    rec["write_hot_s"] = timed(lambda: [os.write(fd, hot_src) for _ in range(size // MIB)])
                else:
                    rec["write_cold_s"] = timed(lambda: [os.write(fd, src_mv[off:off + MIB])
                                                         for off in range(0, size, MIB)])
                rec[f"fsync_{kind}_s"] = timed(lambda: os.fsync(fd))
                os.close(fd)
                if kind == "hot":
                    os.unlink(path)
            path = os.path.join(work, "cold.bin")
            fd = os.open(path, os.O_RDONLY)
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)

            def read_buffered():
                f = os.fdopen(os.dup(fd), "rb", buffering=0)
                with f:
                    f.seek(0)
                    for off in range(0, size, 4 * MIB):
                        f.readinto(dst_mv[off:off + 4 * MIB])
            d0 = disk_stat(work)
            rec["read_cold_s"] = timed(read_buffered)
            rec["read_cold_disk"] = counter_delta(d0, disk_stat(work)) or None  # requests and sectors: the request sizes
            rec["read_warm_s"] = timed(read_buffered)
            os.close(fd)
            try:
                dfd = os.open(path, os.O_RDONLY | os.O_DIRECT)
                d0 = disk_stat(work)
                rec["read_direct_s"] = timed(lambda: [os.preadv(dfd, [direct_buf], off) for off in range(0, size, MIB)])
                rec["read_direct_disk"] = counter_delta(d0, disk_stat(work)) or None
                os.close(dfd)
            except OSError as e:
                rec["read_direct_error"] = str(e)
            os.unlink(path)
            records.append(rec)
            print(f"# round {r}: " + ", ".join(f"{k} {v:.3f}" for k, v in rec.items() if k.endswith("_s")),
                  file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    pages = size // 4096
    med = {k: statistics.median(rec[k] for rec in records) for k in records[0] if k.endswith("_s")}
    summary = {k: {"median_s": v, "gb_per_s": size / v / 1e9} for k, v in med.items()}
    summary["page_cost_cold_write_us"] = (med["write_cold_s"] - med["memcpy_cold_s"]) / pages * 1e6
    summary["page_cost_hot_write_us"] = (med["write_hot_s"] - med["memcpy_hot_s"]) / pages * 1e6
    doc = {"tool": "scripts/probe-page-cache.py", "bytes": size, "rounds": args.rounds,
           "machine": {"kernel": platform.release(), "cpus": os.cpu_count(), "queue": queue_settings(block_sysfs(args.dir), ("read_ahead_kb", "max_sectors_kb", "max_segments"))},
           "records": records, "summary": summary}
    write_atomically(args.output, json.dumps(doc, indent=1))
    for k, v in summary.items():
        print(k, v)


if __name__ == "__main__":
    main()
