#!/usr/bin/env python3
"""In what order torch.load reads a checkpoint's records, and what that order costs a cold read.

torch.save names each storage by a decimal key in the order the pickler meets it ("0", "1", ...,
"639") and writes the records sorted by that key as a string ("0", "1", "10", "100", ..., "109",
"11", "110", ...: torch/serialization.py, _save: `for key in sorted(serialized_storages.keys())`);
torch.load reads each record when the unpickler meets it, in the key's numeric order. So a load
jumps about the file instead of streaming it, and Linux's readahead, which follows a sequential
reader, sees a new stream at most records. This probe measures it, per size (the checkpoint runs'
state, scripts/training_state.py, saved by torch.save and fsync'ed):
  order      torch.load of the file once through a logging reader (the file wrapped in Python's
             buffered reader over a raw file whose readinto() logs (offset, bytes): the read() calls
             the kernel gets), warm: each read's offset and size, and how many of them do not start
             where the one before ended
  then each round, page cache dropped before each case (posix_fadvise DONTNEED), cases rotated:
  torch_load      torch.load(path, map_location="cpu", weights_only=True): the checkpoint runs' load
  replay_torch    the logged reads, os.preadv into one reused buffer, in torch.load's order
  replay_sorted   the same reads sorted by offset (the file's order)
  stream          the file in 4 MiB reads
  For each: wall seconds and the disk's counters (requests, bytes, busy time).
replay_torch against replay_sorted is the order's cost on this disk with nothing else changed;
torch_load against replay_torch is what the loader adds (its allocations, unpickling, copies into
new storages). Only a folder made under --dir is written, and removed at the end.
usage: scripts/probe-torch-read-order.py --dir /var/tmp --output order.json [--sizes-gb 2,8] [--rounds 3]
"""
import gc
import io
import os
import platform
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import (drop_cached, finish_probe, fsync_path, measure_counted,  # noqa: E402
                             read_through, rotated, scratch_folder, state_probe_arguments, torch_or_exit)
from disk_counters import block_sysfs  # noqa: E402
from training_state import build_state, host_copy  # noqa: E402

CHUNK = 4 << 20
CASES = ("torch_load", "replay_torch", "replay_sorted", "stream")


class LoggingRaw(io.FileIO):
    """A raw file whose readinto() logs (offset, bytes) of every read() it makes."""

    def __init__(self, path, log):
        super().__init__(path, "r")
        self.log = log

    def readinto(self, b):
        at = self.tell()
        n = super().readinto(b)
        self.log.append((at, n or 0))
        return n


def logged_reads(torch, path):
    """torch.load's read() calls on `path` as (offset, bytes), through a buffered reader of the size
    open() would give the file (its st_blksize)."""
    log = []
    raw = LoggingRaw(path, log)
    blk = os.fstat(raw.fileno()).st_blksize
    f = io.BufferedReader(raw, buffer_size=blk if blk > 1 else io.DEFAULT_BUFFER_SIZE)
    try:
        obj = torch.load(f, map_location="cpu", weights_only=True)
    finally:
        f.close()
    del obj
    return [r for r in log if r[1] > 0], blk


def replay(fd, reads, buf):
    view = memoryview(buf)
    for off, n in reads:
        os.preadv(fd, [view[:n]], off)


def main():
    args, sizes = state_probe_arguments(__doc__, "probe-torch-read-order")
    torch = torch_or_exit("probe-torch-read-order", gpu=True)
    dev = torch.device("cuda")
    sysfs = block_sysfs(args.dir)
    records, orders = [], {}
    chunk = bytearray(CHUNK)
    with scratch_folder(args.dir, "torch-read-order-") as folder:
        for size_gb in sizes:
            state = build_state(torch, int(size_gb * 1e9), args.tensors, dev, 1)
            path = os.path.join(folder, "state.pt")
            host = host_copy(state)
            del state
            torch.save(host, path)
            del host
            fsync_path(path)
            gc.collect()
            torch.cuda.empty_cache()
            reads, blk = logged_reads(torch, path)
            jumps = sum(1 for a, b in zip(reads, reads[1:]) if b[0] != a[0] + a[1])
            backward = sum(1 for a, b in zip(reads, reads[1:]) if b[0] < a[0])
            big = [r for r in reads if r[1] >= 1 << 20]
            orders[f"{size_gb:g}"] = {"reads": len(reads), "jumps": jumps, "backward": backward,
                                      "buffer_bytes": blk, "reads_of_1mib_or_more": len(big),
                                      "first_reads": reads[:40], "file_bytes": os.path.getsize(path)}
            print(f"# {size_gb:g} GB: {len(reads)} reads, {jumps} not where the last ended ({backward} backward), "
                  f"{len(big)} of 1 MiB or more", file=sys.stderr, flush=True)
            buf = bytearray(max(n for _, n in reads))
            ordered = sorted(reads)
            fd = os.open(path, os.O_RDONLY)
            try:
                for r in range(args.rounds):
                    for case in rotated(list(CASES), r):
                        drop_cached(path)
                        if case == "torch_load":
                            out, m = measure_counted(lambda: torch.load(path, map_location="cpu", weights_only=True),
                                                     sysfs)
                            del out
                        elif case == "replay_torch":
                            _, m = measure_counted(lambda: replay(fd, reads, buf), sysfs)
                        elif case == "replay_sorted":
                            _, m = measure_counted(lambda: replay(fd, ordered, buf), sysfs)
                        else:
                            _, m = measure_counted(lambda: read_through(path, chunk), sysfs)
                        gc.collect()
                        records.append({"size_gb": size_gb, "round": r + 1, "case": case, **m})
                        print(f"# {size_gb:g} GB round {r + 1} {case}: {m['wall_s']:.3f} s, disk busy "
                              f"{m.get('disk_busy_ms', 0)} ms, {m.get('disk_reads', 0)} requests, "
                              f"{m.get('disk_bytes', 0) / 1e9:.2f} GB", file=sys.stderr, flush=True)
            finally:
                os.close(fd)
                os.unlink(path)
    summary = {}
    for size_gb in sizes:
        for case in CASES:
            runs = [x for x in records if x["size_gb"] == size_gb and x["case"] == case]
            secs = [x["wall_s"] for x in runs]
            row = {"median_s": statistics.median(secs), "min_s": min(secs), "max_s": max(secs)}
            busy = [x.get("disk_busy_ms", 0) / 1e3 for x in runs]
            if all(b > 0 for b in busy):
                row["disk_busy_share"] = statistics.median(b / s for b, s in zip(busy, secs))
            if all("disk_reads" in x for x in runs):
                row["disk_requests"] = statistics.median(x["disk_reads"] for x in runs)
            summary[f"{size_gb:g}gb_{case}"] = row
    doc = {"tool": "probe-torch-read-order", "machine": {"kernel": platform.release(), "torch": torch.__version__,
                                                         "python": platform.python_version(), "cpus": os.cpu_count()},
           "tensors": args.tensors, "rounds": args.rounds, "orders": orders, "records": records}
    finish_probe(args.output, doc, summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
