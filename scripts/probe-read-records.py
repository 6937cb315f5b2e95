#!/usr/bin/env python3
"""Whether a cold read costs something per record: one file read cold as N records, each one pread()
of its bytes in file order into one reused buffer, laid out as torch.save lays a checkpoint out (each
record's data 64-byte aligned after a small header, so record boundaries fall inside pages) and
packed on page boundaries, against the same bytes in 4 MiB reads.

A torch.load reads a checkpoint record by record, one read of each record's bytes; cold, such a load
takes longer the more records the same bytes are cut into (scripts/probe-torch-records.py: 2 GiB in
16, 128, 640 records, 1.24, 1.41, 1.59 s cold, flat warm), which the model's loader, a stream of
reads through Linux's readahead, does not. Each round, for each --records N (order reversed every
other round), each layout read cold (POSIX_FADV_DONTNEED on the file first) and then warm:
  torch_N    record k's data at k x (S + 128) + 128, S = size / N rounded down to 64 bytes
  packed_N   record k at k x P, P = size / N rounded down to 4 KiB
  stream     the file's first size bytes in 4 MiB reads (no records)
Where the records land (--into, a list): reused (one buffer the size of the largest record, every record
into it), mapped (each record at its own place in one region as large as the file, every page written
before: distinct destinations already mapped, as a loader's tensors are when the allocator reuses
memory), new (each record into an anonymous mapping of its own made just before its read, untouched:
the read's copy faults its pages in; the mappings held until the case ends, as a load holds its tensors).
--layouts picks torch, packed or both.
For each: wall seconds, the thread's CPU seconds, the process's minor page faults, the disk's counters
(requests, bytes, busy time).
Nothing is changed on the machine: only a folder made under --dir is written, and removed at the end.
usage: scripts/probe-read-records.py --dir /var/tmp --output rr.json [--size-gib 2]
       [--records 16,64,256,640,2048] [--layouts torch,packed] [--into reused] [--rounds 3]
"""
import mmap
import os
import platform
import resource
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import (drop_cached, finish_probe, probe_arguments, scratch_folder,  # noqa: E402
                             touched_buffer, write_new_file)
from disk_counters import (block_sysfs, counter_delta, disk_read_stat)  # noqa: E402

MIB = 1 << 20
HEADER = 128


def layout(kind, size, n):
    """(offset, length) of each record."""
    if kind == "torch":
        s = size // n // 64 * 64
        return [(k * (s + HEADER) + HEADER, s) for k in range(n)]
    p = size // n // 4096 * 4096
    return [(k * p, p) for k in range(n)]


def main():
    def extra(ap):
        ap.add_argument("--records", default="16,64,256,640,2048")
        ap.add_argument("--layouts", default="torch,packed")
        ap.add_argument("--into", default="reused")
    args, size = probe_arguments(__doc__, extra)
    try:
        counts = [int(x) for x in args.records.split(",")]
    except ValueError:
        counts = []
    if not counts or min(counts) < 1 or max(counts) > size // 4096:
        print(f"probe-read-records: --records {args.records}: whole numbers from 1 to {size // 4096}",
              file=sys.stderr)
        return 2
    layouts, intos = args.layouts.split(","), args.into.split(",")
    if not set(layouts) <= {"torch", "packed"} or not set(intos) <= {"reused", "mapped", "new"}:
        print(f"probe-read-records: --layouts {args.layouts} / --into {args.into}: torch, packed / reused, mapped, new",
              file=sys.stderr)
        return 2
    sysfs = block_sysfs(args.dir)
    region = touched_buffer(size + MIB) if "mapped" in intos else None
    largest = max(size // n for n in counts)
    buf, view = touched_buffer(max(largest, 4 * MIB))
    records = []
    with scratch_folder(args.dir, "iowall-read-records-") as work:
        path = os.path.join(work, "file.bin")
        write_new_file(path, size + MIB)  # room for the torch layout's headers

        def read(pieces, into):
            held = []
            fd = os.open(path, os.O_RDONLY)
            try:
                for off, n in pieces:
                    if into == "reused":
                        dst = view[:n]
                    elif into == "mapped":
                        dst = region[1][off:off + n]
                    else:
                        held.append(mmap.mmap(-1, n, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS))  # as malloc maps
                        dst = memoryview(held[-1])
                    os.preadv(fd, [dst], off)
                    if into == "new":
                        dst.release()
            finally:
                os.close(fd)
            return held

        def measure(pieces, cold, into="reused"):
            if cold:
                drop_cached(path)
            d0 = disk_read_stat(sysfs)
            f0 = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
            c0, t0 = time.thread_time(), time.perf_counter()
            held = read(pieces, into)
            rec = {"wall_s": time.perf_counter() - t0, "thread_cpu_s": time.thread_time() - c0,
                   "bytes": sum(n for _, n in pieces),
                   "minor_faults": resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f0}
            for m in held:
                m.close()
            d1 = disk_read_stat(sysfs)
            if disk := counter_delta(d0, d1):
                rec["disk"] = disk
            return rec

        stream = [(off, min(4 * MIB, size - off)) for off in range(0, size, 4 * MIB)]
        for r in range(1, args.rounds + 1):
            rec = {"round": r}
            for n in (counts if r % 2 else list(reversed(counts))):
                for kind in layouts:
                    pieces = layout(kind, size, n)
                    for into in intos:
                        name = f"{kind}_{n}" + ("" if into == "reused" else f"_{into}")
                        rec[f"{name}_cold"] = measure(pieces, True, into)
                        rec[f"{name}_warm"] = measure(pieces, False, into)
            rec["stream_cold"] = measure(stream, True)
            rec["stream_warm"] = measure(stream, False)
            records.append(rec)
            print(f"# round {r}: " + ", ".join(f"{k} {v['wall_s']:.3f}" for k, v in rec.items() if k.endswith("cold")),
                  file=sys.stderr, flush=True)

    summary = {}
    for name in [k for k in records[0] if k != "round"]:
        runs = [rec[name] for rec in records]
        wall = statistics.median(x["wall_s"] for x in runs)
        s = {"median_s": wall, "min_s": min(x["wall_s"] for x in runs), "max_s": max(x["wall_s"] for x in runs),
             "cpu_s": statistics.median(x["thread_cpu_s"] for x in runs),
             "minor_faults": statistics.median(x["minor_faults"] for x in runs)}
        if all("disk" in x for x in runs):
            s["disk_busy_share"] = statistics.median(x["disk"]["busy_ms"] / 1e3 / x["wall_s"] for x in runs)
            s["disk_reads"] = statistics.median(x["disk"]["reads"] for x in runs)
        summary[name] = s
    doc = {"tool": "probe-read-records", "kernel": platform.release(), "size": size, "records": counts, "layouts": layouts, "into": intos,
           "header_bytes": HEADER, "rounds": args.rounds, "runs": records}
    finish_probe(args.output, doc, summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
