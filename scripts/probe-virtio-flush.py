#!/usr/bin/env python3
"""What a virtual disk's flush costs, against the bytes written since the last one.

A VM's virtio disk that reports a volatile write cache (queue/write_cache "write back") may be
backed by the host's page cache: a write completes once the host has copied it, and a flush
(the guest's fdatasync) makes the host write back what is dirty and sync its own drive. Then
a flush costs a fixed part plus the dirty bytes over the host's writeback rate. This probe
measures that law on a file it creates and fills first (so later writes allocate nothing and
an fdatasync is only the disk's flush, no journal commit):

  flush   for N in --sizes (MiB): N MiB of O_DIRECT 1 MiB writes at queue depth 1 over the
          file's start, timed, then fdatasync, timed apart. Rounds interleave the sizes.
  ingest  1 GiB of O_DIRECT writes by 1, 2 and 8 threads (1 MiB each, queue depth 1 per
          thread), then fdatasync: the guest-to-host write rate with and without concurrency.
  buffered  N GiB of buffered 1 MiB writes (the page cache), then fsync, timed apart: the
          pattern of a checkpoint save.

Bytes are random (a backend may treat zeros specially), made once. Writes only the file it
creates in a folder it creates under --dir, removed at the end. Output: one JSON record per
measurement to --output, and a median summary to stdout.

usage: scripts/probe-virtio-flush.py --dir /var/tmp --output flush.json [--rounds 3]
"""
import argparse
import json
import mmap
import os
import shutil
import statistics
import tempfile
import sys
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import timed  # noqa: E402

MIB = 1 << 20


def aligned_random(nbytes):
    buf = mmap.mmap(-1, nbytes)
    buf.write(os.urandom(nbytes))
    return buf


def meminfo():
    out = {}
    with open("/proc/meminfo") as f:
        for line in f:
            k, v = line.split(":", 1)
            if k in ("Dirty", "Writeback", "MemTotal"):
                out[k] = int(v.split()[0]) * 1024
    return out


def machine():
    facts = {"kernel": os.uname().release}
    for name in ("write_cache", "rotational", "nr_requests", "max_sectors_kb", "scheduler"):
        p = f"/sys/block/vda/queue/{name}"
        if os.path.exists(p):
            facts[name] = open(p).read().strip()
    mq = "/sys/block/vda/mq"
    if os.path.isdir(mq):
        facts["hardware_queues"] = len(os.listdir(mq))
    for name in ("dirty_ratio", "dirty_background_ratio", "dirty_expire_centisecs"):
        facts["vm." + name] = open(f"/proc/sys/vm/{name}").read().strip()
    facts.update(meminfo())
    return facts


def direct_write(fd, buf, nbytes, offset=0):
    view = memoryview(buf)
    done = 0
    while done < nbytes:
        n = min(len(buf), nbytes - done)
        os.pwrite(fd, view[:n], offset + done)
        done += n


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--dir", required=True)
    ap.add_argument("--output", required=True)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--sizes", default="1,4,16,64,256,1024,4096", help="MiB written before each flush")
    ap.add_argument("--buffered", default="1,4,8", help="GiB of buffered writes before each fsync")
    args = ap.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    buffered = [int(s) for s in args.buffered.split(",")]
    work = tempfile.mkdtemp(prefix="iowall-virtio-flush.", dir=args.dir)
    records = []
    try:
        path = os.path.join(work, "data")
        span = max(sizes) * MIB
        buf = aligned_random(MIB)
        fd = os.open(path, os.O_RDWR | os.O_CREAT | os.O_EXCL | os.O_DIRECT, 0o600)
        fill = timed(lambda: direct_write(fd, buf, span))
        sync0 = timed(lambda: os.fsync(fd))
        records.append({"test": "fill", "bytes": span, "write_s": fill, "sync_s": sync0})
        small = aligned_random(128 * 1024)
        for r in range(1, args.rounds + 1):
            # 128 KiB: one write, then its flush.
            w = timed(lambda: direct_write(fd, small, len(small)))
            s = timed(lambda: os.fdatasync(fd))
            records.append({"test": "flush", "round": r, "bytes": len(small), "write_s": w, "sync_s": s})
            for n in sizes:
                w = timed(lambda: direct_write(fd, buf, n * MIB))
                s = timed(lambda: os.fdatasync(fd))
                records.append({"test": "flush", "round": r, "bytes": n * MIB, "write_s": w, "sync_s": s})
            for threads in (1, 2, 8):
                per = 1024 * MIB // threads
                bufs = [aligned_random(MIB) for _ in range(threads)]

                def worker(i):
                    direct_write(fd, bufs[i], per, i * per)
                ts = [threading.Thread(target=worker, args=(i,)) for i in range(threads)]
                t0 = time.perf_counter()
                for t in ts:
                    t.start()
                for t in ts:
                    t.join()
                w = time.perf_counter() - t0
                s = timed(lambda: os.fdatasync(fd))
                records.append({"test": "ingest", "round": r, "threads": threads, "bytes": 1024 * MIB,
                                "write_s": w, "sync_s": s})
        os.close(fd)
        src = bytes(buf)  # one MiB of random bytes for buffered writes
        for r in range(1, args.rounds + 1):
            for g in buffered:
                bpath = os.path.join(work, f"buffered-{g}")
                bfd = os.open(bpath, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                before = meminfo()
                w = timed(lambda: [os.write(bfd, src) for _ in range(g * 1024)])
                mid = meminfo()
                s = timed(lambda: os.fsync(bfd))
                os.close(bfd)
                records.append({"test": "buffered", "round": r, "bytes": g << 30, "write_s": w, "sync_s": s,
                                "dirty_before": before.get("Dirty"), "dirty_at_fsync": mid.get("Dirty"),
                                "writeback_at_fsync": mid.get("Writeback")})
                os.unlink(bpath)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    doc = {"machine": machine(), "records": records}
    tmp = args.output + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f, indent=1)
    os.replace(tmp, args.output)
    groups = {}
    for rec in records:
        if rec["test"] == "fill":
            continue
        key = (rec["test"], rec["bytes"], rec.get("threads", 0))
        groups.setdefault(key, []).append(rec)
    print("test bytes threads write_s(median) sync_s(median min max) write_GB/s")
    for key in sorted(groups):
        g = groups[key]
        w = statistics.median(x["write_s"] for x in g)
        ss = [x["sync_s"] for x in g]
        print(f"{key[0]} {key[1]} {key[2]} {w:.6f} {statistics.median(ss):.6f} {min(ss):.6f} {max(ss):.6f} "
              f"{key[1] / w / 1e9:.2f}")


if __name__ == "__main__":
    main()
