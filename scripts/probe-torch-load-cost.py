#!/usr/bin/env python3
"""What torch.load costs besides moving its bytes: the framework checkpoints' own state loaded from the page
cache, against a plain read of the same file, and the same state's structure with almost no bytes.

Every checkpoint session's warm torch loads (the file cached) take about 0.3 s more than their bytes explain
(time = a + bytes/rate over the 2 and 8 GB loads: a = 0.29-0.38 s on most sessions), and the cold loads'
read phase about 0.2 s (reports/checkpoint-validation.md). This probe sets the load's fixed and per-tensor
work apart from its copies. For each --sizes-gb total (and a tiny state of the same structure: 128 parameter
tensors, as scripts/training_state.py builds it for scripts/checkpoint-frameworks.py, i.e. 512 tensors and
128 optimizer steps), saved once with torch.save (then in the page cache), each round, interleaved:
  load_weights_only  torch.load(map_location="cpu", weights_only=True), as the checkpoint runs load
  load_full          the same with weights_only=False (the plain unpickler)
  read_stream        the file read in 4 MiB readinto()s into one reused buffer: its bytes' copy alone
For each: wall seconds and the deltas of the process's CPU seconds, page faults and read() bytes and of
the disk's read counters (checkpoint_host.measure_counted). Nothing is changed on the machine: only
a folder made under --dir is written, and removed at the end.
usage: scripts/probe-torch-load-cost.py --dir /var/tmp --output tl.json [--sizes-gb 0,2,8] [--rounds 3]
(--size-gib, common to the probes, is not used here: --sizes-gb sets the files.)
Needs PyTorch (no GPU).
"""
import gc
import os
import platform
import shutil
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import (finish_probe, measure_counted, probe_arguments, scratch_folder,  # noqa: E402
                             read_through, rotated, sizes_gb, torch_or_exit)
from disk_counters import block_sysfs  # noqa: E402
from training_state import build_state  # noqa: E402

CASES = ("load_weights_only", "load_full", "read_stream")
TINY_BYTES = 1 << 20  # the "0 GB" state: the structure, 14 bytes a parameter of 1 MiB in all


def options(ap):
    ap.add_argument("--sizes-gb", default="0,2,8")
    ap.add_argument("--tensors", type=int, default=128)


def main():
    args, _ = probe_arguments(__doc__, options)
    sizes = sizes_gb(args.sizes_gb, zero_ok=True)
    if not sizes or args.tensors < 1:
        print("probe-torch-load-cost: --sizes-gb needs sizes of 0 or more, --tensors at least 1", file=sys.stderr)
        return 2
    if shutil.disk_usage(args.dir).free < max(sizes) * 1e9 + (256 << 20):  # one file at a time, the largest
        print(f"probe-torch-load-cost: --dir has less free space than {max(sizes):g} GB", file=sys.stderr)
        return 2
    torch = torch_or_exit("probe-torch-load-cost")
    cpu = torch.device("cpu")
    sysfs = block_sysfs(args.dir)
    buf = bytearray(4 << 20)
    records = []
    with scratch_folder(args.dir, "torch-load-cost-") as folder:
        for size_gb in sizes:
            nbytes = int(size_gb * 1e9) if size_gb > 0 else TINY_BYTES
            path = os.path.join(folder, f"state-{size_gb:g}.pt")
            state = build_state(torch, nbytes, args.tensors, cpu, 1)
            torch.save(state, path)
            del state
            gc.collect()
            file_bytes = os.path.getsize(path)

            def read_stream():
                read_through(path, buf)

            read_stream()  # the file cached before any timed case
            for r in range(args.rounds):
                for case in rotated(CASES, r):
                    if case == "read_stream":
                        _, m = measure_counted(read_stream, sysfs)
                    else:
                        loaded, m = measure_counted(lambda: torch.load(path, map_location="cpu",
                                                                       weights_only=(case == "load_weights_only")),
                                                    sysfs)
                        del loaded
                        gc.collect()
                    rec = {"size_gb": size_gb, "file_bytes": file_bytes, "round": r + 1, "case": case, **m}
                    records.append(rec)
                    print(f"# {size_gb:g} GB round {r + 1} {case}: {m['wall_s']:.3f} s wall, {m['cpu_s']:.3f} s CPU, "
                          f"{m['minor_faults']} faults", file=sys.stderr, flush=True)
            os.unlink(path)

    summary = {}
    for size_gb in sizes:
        row = {}
        for case in CASES:
            runs = [x for x in records if x["size_gb"] == size_gb and x["case"] == case]
            row[f"{case}_s"] = statistics.median(x["wall_s"] for x in runs)
            row[f"{case}_spread_s"] = max(x["wall_s"] for x in runs) - min(x["wall_s"] for x in runs)
        row["weights_only_less_stream_s"] = row["load_weights_only_s"] - row["read_stream_s"]
        summary[f"{size_gb:g}gb"] = row
    doc = {"tool": "probe-torch-load-cost", "machine": {"kernel": platform.release(), "torch": torch.__version__,
                                                        "cpus": os.cpu_count()},
           "tensors": args.tensors, "rounds": args.rounds, "records": records}
    finish_probe(args.output, doc, summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
