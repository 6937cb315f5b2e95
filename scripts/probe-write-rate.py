#!/usr/bin/env python3
"""How a disk's write rate changes over one long write: where a cache in front of it fills.

A virtual disk whose host keeps the guest's writes in its page cache (Firecracker's default
block cache_type Unsafe, QEMU cache=writeback/unsafe) takes writes at memory speed until the
host's dirty limits hold its writer back, then at the backing store's rate; a flush does not
wait for it under Unsafe. This probe writes one long stream and records when each slice of it
was done, so the knee and the two rates show:
  direct     --gib GiB of O_DIRECT 1 MiB writes from --threads threads (each its own share of
             the file, in turn), the time each 256 MiB of the total was done
  buffered   the same bytes written buffered in 1 MiB pieces, then fsync, with /proc/meminfo's
             Dirty and Writeback sampled every 50 ms from the start of the fsync
Rounds alternate the two. Files go only into a folder made under --dir and removed at the end;
one JSON document goes to --output (written atomically).
usage: scripts/probe-write-rate.py --dir /var/tmp --output rate.json [--gib 16] [--threads 8] [--rounds 2]
"""
import argparse
import json
import mmap
import os
import platform
import shutil
import sys
import tempfile
import threading
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import read_meminfo as meminfo, write_atomically  # noqa: E402

MIB = 1 << 20
SLICE = 256 * MIB


def direct(path, total, threads, block):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_DIRECT, 0o600)
    done_bytes = [0]
    lock = threading.Lock()
    marks = []
    start = time.perf_counter()
    per = total // threads

    def worker(k):
        buf = mmap.mmap(-1, MIB)
        buf.write(block)
        for off in range(k * per, (k + 1) * per, MIB):
            os.pwritev(fd, [buf], off)
            with lock:
                done_bytes[0] += MIB
                if done_bytes[0] % SLICE == 0:
                    marks.append(time.perf_counter() - start)
    ts = [threading.Thread(target=worker, args=(k,)) for k in range(threads)]
    for t in ts:
        t.start()
    for t in ts:
        t.join()
    elapsed = time.perf_counter() - start
    t0 = time.perf_counter()
    os.fsync(fd)
    sync_s = time.perf_counter() - t0
    os.close(fd)
    os.unlink(path)
    return {"test": "direct", "bytes": total, "threads": threads, "write_s": elapsed, "fsync_s": sync_s,
            "slice_bytes": SLICE, "slice_done_s": marks}


def buffered(path, total, block):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    start = time.perf_counter()
    marks = []
    for off in range(0, total, MIB):
        os.write(fd, block)
        if (off + MIB) % SLICE == 0:
            marks.append(time.perf_counter() - start)
    write_s = time.perf_counter() - start
    samples, stop = [], threading.Event()

    def sample():
        t0 = time.perf_counter()
        while not stop.is_set():
            m = meminfo()
            samples.append([time.perf_counter() - t0, m.get("Dirty"), m.get("Writeback")])
            time.sleep(0.05)
    s = threading.Thread(target=sample)
    s.start()
    t0 = time.perf_counter()
    os.fsync(fd)
    sync_s = time.perf_counter() - t0
    stop.set()
    s.join()
    os.close(fd)
    os.unlink(path)
    return {"test": "buffered", "bytes": total, "write_s": write_s, "fsync_s": sync_s, "slice_bytes": SLICE,
            "slice_done_s": marks, "fsync_samples": samples, "sample_columns": ["t_s", "Dirty_B", "Writeback_B"]}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--output", required=True)
    ap.add_argument("--gib", type=int, default=16)
    ap.add_argument("--threads", type=int, default=8)
    ap.add_argument("--rounds", type=int, default=2)
    args = ap.parse_args()
    if not os.path.isdir(args.dir):
        ap.error(f"--dir {args.dir}: not an existing folder")
    if args.gib < 1 or args.threads < 1 or args.rounds < 1 or (args.gib << 30) % (args.threads * MIB):
        ap.error("--gib, --threads and --rounds must be at least 1, and the GiBs split into whole MiB per thread")
    total = args.gib << 30
    if shutil.disk_usage(args.dir).free < total + (512 << 20):
        ap.error(f"--dir has less free space than {args.gib} GiB")
    block = os.urandom(MIB)
    work = tempfile.mkdtemp(prefix="iowall-write-rate-", dir=args.dir)
    records = []
    try:
        for r in range(1, args.rounds + 1):
            for test in (("direct", "buffered") if r % 2 else ("buffered", "direct")):
                path = os.path.join(work, f"{test}.bin")
                rec = direct(path, total, args.threads, block) if test == "direct" else buffered(path, total, block)
                rec["round"] = r
                records.append(rec)
                print(f"# round {r} {test}: write {rec['write_s']:.3f} s, fsync {rec['fsync_s']:.3f} s", file=sys.stderr,
                      flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    doc = {"tool": "scripts/probe-write-rate.py", "machine": {"kernel": platform.release(), "cpus": os.cpu_count()},
           "gib": args.gib, "threads": args.threads, "records": records}
    write_atomically(args.output, json.dumps(doc))


if __name__ == "__main__":
    main()
