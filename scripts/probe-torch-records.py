#!/usr/bin/env python3
"""What torch.load costs per record, and what the order it reads its records in costs a cold read.

torch.save names each storage by the order its pickler meets it ("0", "1", "2", ...); the torch
sources of 2.5 and before write the records sorted by those names as text ("0", "1", "10", "100",
..., "2", "20", ...), while torch.load reads a record (one readinto of its size) when its unpickler
meets the storage, in numeric order: there most reads would start away from where the last one
ended. Where the installed torch puts them is recorded (torch_order_jumps: reads in torch's order
that do not start where the last one ended). For files of the same
--size-gib GiB held in N tensors (--tensors, a list), each case run --rounds times, interleaved:
  warm_load         torch.load(map_location="cpu", weights_only=True), the file in the page cache
  warm_read         the same records read by pread into new host tensors in torch's order, the
                    file cached: the bytes' copy and page faults without torch's own work
  cold_load         torch.load with the file's pages dropped first (posix_fadvise DONTNEED)
  cold_torch_order  the records read cold by pread into new tensors in torch's order
  cold_file_order   the same records read cold in the order they lie in the file
The per-record cost of torch.load is the slope over N of warm_load - warm_read; what the order
costs a cold read is cold_torch_order - cold_file_order. For each: wall seconds, the process's
page faults, read() calls and bytes, and the disk's requests and bytes. Nothing is changed on the
machine: only a folder made under --dir is written, and removed at the end.
usage: scripts/probe-torch-records.py --dir /var/tmp --output tr.json [--size-gib 2] [--rounds 3]
       [--tensors 16,128,640,2048]
Needs PyTorch (no GPU).
"""
import ctypes
import gc
import os
import platform
import shutil
import statistics
import struct
import sys
import tempfile
import zipfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import (drop_cached, finish_probe, fsync_path, measure_counted,  # noqa: E402
                             probe_arguments, resident_fraction, thp_mode, torch_or_exit)
from disk_counters import block_sysfs  # noqa: E402

LIBC = ctypes.CDLL(None, use_errno=True)
LIBC.pread.argtypes = [ctypes.c_int, ctypes.c_void_p, ctypes.c_size_t, ctypes.c_long]
LIBC.pread.restype = ctypes.c_ssize_t


def measure(fn, sysfs):
    return measure_counted(fn, sysfs)


def records(path):
    """Each storage record's key (int), data offset and size, as the zip's local headers place them."""
    out = []
    with zipfile.ZipFile(path) as z, open(path, "rb") as f:
        for info in z.infolist():
            parts = info.filename.split("/")
            if len(parts) < 2 or parts[-2] != "data" or not parts[-1].isdigit():
                continue
            f.seek(info.header_offset)
            head = f.read(30)
            name_len, extra_len = struct.unpack("<HH", head[26:30])
            out.append((int(parts[-1]), info.header_offset + 30 + name_len + extra_len, info.file_size))
    return out


def pread_records(torch, path, recs):
    """Each record read whole by one pread into a new host tensor, in the order given."""
    fd = os.open(path, os.O_RDONLY)
    try:
        kept = []
        for _, offset, size in recs:
            t = torch.empty(size, dtype=torch.uint8)
            done = 0
            while done < size:
                n = LIBC.pread(fd, t.data_ptr() + done, size - done, offset + done)
                if n <= 0:
                    raise OSError(ctypes.get_errno(), f"pread of {path} at {offset + done}")
                done += n
            kept.append(t)
        return kept
    finally:
        os.close(fd)


def main():
    args, size = probe_arguments(__doc__, lambda ap: ap.add_argument(
        "--tensors", default="16,128,640,2048", help="tensor counts, comma-separated (default 16,128,640,2048)"))
    try:
        counts = [int(x) for x in args.tensors.split(",")]
    except ValueError:
        counts = []
    if not counts or any(not 1 <= n <= size // 4096 for n in counts):
        print(f"probe-torch-records: --tensors {args.tensors}: counts between 1 and one per 4 KiB of --size-gib",
              file=sys.stderr)
        sys.exit(2)
    torch = torch_or_exit("probe-torch-records")
    sysfs = block_sysfs(args.dir)
    work = tempfile.mkdtemp(prefix="iowall-torch-records-", dir=args.dir)
    path = os.path.join(work, "state.pt")
    doc = {"tool": "probe-torch-records", "machine": {"kernel": platform.release(), "torch": torch.__version__,
                                                      "python": platform.python_version(), "thp": thp_mode(),
                                                      "cpus": os.cpu_count()},
           "size_bytes": size, "rounds": args.rounds, "files": []}
    summary = {}
    try:
        for n in counts:
            per = size // n // 4
            state = {f"t{i}": torch.empty(per, dtype=torch.float32).uniform_() for i in range(n)}
            torch.save(state, path)
            del state
            gc.collect()
            fsync_path(path)
            recs = records(path)
            file_order = sorted(recs, key=lambda r: r[1])
            torch_order = sorted(recs, key=lambda r: r[0])
            jumps = sum(1 for a, b in zip(torch_order, torch_order[1:]) if b[1] != a[1] + a[2] and
                        not (a[1] + a[2] < b[1] <= a[1] + a[2] + 4096))
            entry = {"tensors": n, "records": len(recs), "file_bytes": os.path.getsize(path),
                     "torch_order_jumps": jumps, "cases": {}}
            cases = {
                "warm_load": (False, lambda: torch.load(path, map_location="cpu", weights_only=True)),
                "warm_read": (False, lambda: pread_records(torch, path, torch_order)),
                "cold_load": (True, lambda: torch.load(path, map_location="cpu", weights_only=True)),
                "cold_torch_order": (True, lambda: pread_records(torch, path, torch_order)),
                "cold_file_order": (True, lambda: pread_records(torch, path, file_order)),
            }
            pread_records(torch, path, file_order)  # the file cached for the first warm case
            for rnd in range(args.rounds):
                for name, (cold, fn) in cases.items():
                    if cold:
                        drop_cached(path)
                    resident = resident_fraction(path)
                    out, m = measure(fn, sysfs)
                    del out
                    gc.collect()
                    m["resident_before"] = resident
                    entry["cases"].setdefault(name, []).append(m)
                    if cold:  # warm again for the next warm case
                        pread_records(torch, path, file_order)
            for name, runs in entry["cases"].items():
                w = [r["wall_s"] for r in runs]
                summary[f"n{n}/{name}"] = {"median_s": statistics.median(w), "min_s": min(w), "max_s": max(w)}
            doc["files"].append(entry)
            os.unlink(path)
            print(f"probe-torch-records: {n} tensors done", file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    finish_probe(args.output, doc, summary)


if __name__ == "__main__":
    main()
