#!/usr/bin/env python3
"""Does a VM's "cold" read depend on how recently the host saw the bytes? Writes three files
(A, B, C, SIZE GiB each, in that order, each made durable with fsync and dropped from the
guest's page cache with posix_fadvise DONTNEED), then reads them back cold in the guest:
A (written first), C (written last), B, and A again (just read). If the host keeps a page cache
of the virtual disk, the bytes it saw last come back faster than the drive gives them; if it
does not, every read runs at the same rate. Buffered 16 MiB reads, as a framework's load makes
them; then the same with O_DIRECT. ROUNDS rounds. Writes only the files it makes in a folder it
makes under DIR (default /var/tmp), removed at the end. JSON on stdout.
usage: scripts/probe-host-cache.py [SIZE_GIB] [ROUNDS] [DIR]
"""
import json
import mmap
import os
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import probe_parser  # noqa: E402

MIB = 1 << 20
CHUNK = 16 * MIB


def write_file(path, size, buf):
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        t = time.perf_counter()
        for off in range(0, size, CHUNK):
            os.pwrite(fd, buf, off)
        os.fsync(fd)
        elapsed = time.perf_counter() - t
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)
    return size / elapsed / 1e9


def read_file(path, size, direct, buf):
    fd = os.open(path, os.O_RDONLY | (os.O_DIRECT if direct else 0))
    try:
        if not direct:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        t = time.perf_counter()
        for off in range(0, size, CHUNK):
            os.preadv(fd, [buf], off)
        elapsed = time.perf_counter() - t
        os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
    finally:
        os.close(fd)
    return size / elapsed / 1e9


def main():
    ap = probe_parser(__doc__, output=False)
    ap.add_argument("size_gib", nargs="?", type=int, default=6)
    ap.add_argument("rounds", nargs="?", type=int, default=3)
    ap.add_argument("dir", nargs="?", default="/var/tmp")
    args = ap.parse_args()
    if args.size_gib < 1 or args.rounds < 1:
        ap.error("SIZE_GIB and ROUNDS must be at least 1")
    if not os.path.isdir(args.dir):
        ap.error(f"DIR {args.dir}: not an existing folder")
    size, rounds, top = args.size_gib << 30, args.rounds, args.dir
    d = tempfile.mkdtemp(prefix="iowall-hostcache.", dir=top)
    buf = mmap.mmap(-1, CHUNK)
    buf.write(os.urandom(CHUNK))
    res = {"size_bytes": size, "rounds": rounds, "write_GBps": [], "reads": {}}
    try:
        for r in range(rounds):
            paths = {k: os.path.join(d, f"{k}{r}") for k in "ABC"}
            for k in "ABC":
                res["write_GBps"].append(write_file(paths[k], size, buf))
            for direct in (False, True):
                for label, k in (("A_oldest", "A"), ("C_newest", "C"), ("B_middle", "B"), ("A_again", "A")):
                    key = ("direct_" if direct else "buffered_") + label
                    res["reads"].setdefault(key, []).append(read_file(paths[k], size, direct, buf))
            for p in paths.values():
                os.unlink(p)
        res["median_GBps"] = {k: statistics.median(v) for k, v in res["reads"].items()}
        print(json.dumps(res, indent=1))
    finally:
        shutil.rmtree(d, ignore_errors=True)


if __name__ == "__main__":
    main()
