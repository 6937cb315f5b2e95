#!/usr/bin/env python3
"""Whether a framework's cold load reads its file slower than a plain reader of the same file does, and
whether it is the loader or the process: the checkpoint runs' own files read cold every way, interleaved.

Every checkpoint session's 2 GB cold loads take about 0.2 s more than the model's read of their bytes, for
torch.load's read() and safetensors' mapping alike, while plain cold readers of other files on other VMs
showed no such intercept (reports/checkpoint-validation.md). Those were different files, processes and
VMs. Here one training state (scripts/training_state.py, --tensors parameter tensors: 4 a layer, as the
checkpoint runs) is built on the GPU, copied to the host and saved once with torch.save and once with
safetensors' save_file (each fsync'ed), the host copy freed, the state kept on the GPU (the CUDA context
live, as in scripts/checkpoint-frameworks.py). For each --sizes-gb, each round runs, order rotated, each
case with the file's pages dropped first (POSIX_FADV_DONTNEED):
  stream_child      the torch file read in 4 MiB readinto()s into one reused buffer by a child process
                    that never imports torch (its own wall time of the loop; Python's start not in it)
  stream_here       the same loop in this process
  torch_load_child  torch.load(map_location="cpu", weights_only=True) of it in a child process that imports
                    torch but never initialises CUDA (its own wall time of the load)
  torch_load        torch.load(map_location="cpu", weights_only=True) of it, timed as the checkpoint
                    runs time their read phase (the GPU synchronized around it)
  safetensors_load  safetensors' load_file(device="cpu") of the safetensors file, timed the same way
  stream_st         the safetensors file read as stream_here
  torch_load_fresh  the state copied to the host and torch.save'd to a new file, fsync'ed, the copy
                    freed and the file's pages dropped, then loaded as torch_load (only the load timed):
                    the checkpoint runs' order, a file just written
For each: wall seconds and the deltas of the process's CPU seconds, page faults and read() bytes and of
the disk's read counters (busy time: the rate per busy second is what the virtual disk managed while it
had work). Nothing is changed on the machine: only a folder made under --dir is written, removed at the end.
usage: scripts/probe-cold-loads.py --dir /var/tmp --output cl.json [--sizes-gb 2,8] [--tensors 128]
       [--rounds 3]
(--size-gib, common to the probes, is not used here: --sizes-gb sets the states.)
Needs PyTorch with a GPU, and safetensors (without it the safetensors cases are left out, and said so).
"""
import gc
import json
import os
import platform
import shutil
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import (drop_cached, finish_probe, fsync_path, measure_counted,  # noqa: E402
                             read_through, rotated, scratch_folder, state_probe_arguments, torch_or_exit)
from disk_counters import block_sysfs  # noqa: E402
from training_state import build_state, flatten, host_copy  # noqa: E402

CASES = ("stream_child", "stream_here", "torch_load", "torch_load_child", "safetensors_load", "stream_st",
         "torch_load_fresh")
SAFETENSORS_CASES = ("safetensors_load", "stream_st")
CHUNK = 4 << 20
# The child's loop: the same reads as stream_here, timed inside, so that Python's start is not counted.
# With "torch": torch imported first (no CUDA initialised), then torch.load timed.
CHILD = """
import json, sys, time
if sys.argv[2] == "torch":
    import torch
    t = time.perf_counter()
    torch.load(sys.argv[1], map_location="cpu", weights_only=True)
else:
    buf = bytearray(%d)
    t = time.perf_counter()
    with open(sys.argv[1], "rb", buffering=0) as f:
        while f.readinto(buf):
            pass
print(json.dumps({"loop_s": time.perf_counter() - t}))
""" % CHUNK


def main():
    args, sizes = state_probe_arguments(__doc__, "probe-cold-loads")
    # Three files of the largest state at once: the two saved and one fresh save.
    if shutil.disk_usage(args.dir).free < 3 * max(sizes) * 1e9 + (512 << 20):
        print(f"probe-cold-loads: --dir has less free space than 3 x {max(sizes):g} GB", file=sys.stderr)
        return 2
    torch = torch_or_exit("probe-cold-loads", gpu=True)
    try:
        from safetensors.torch import load_file, save_file
    except ImportError:
        load_file = save_file = None
    cases = [c for c in CASES if save_file or c not in SAFETENSORS_CASES]
    dev = torch.device("cuda")
    sysfs = block_sysfs(args.dir)
    buf = bytearray(CHUNK)
    records, notes = [], []
    if not save_file:
        notes.append("safetensors not importable: its cases left out")

    def synced(fn):
        return measure_counted(fn, sysfs, sync=torch.cuda.synchronize)

    with scratch_folder(args.dir, "cold-loads-") as folder:
        for size_gb in sizes:
            state = build_state(torch, int(size_gb * 1e9), args.tensors, dev, 1)
            pt, st = os.path.join(folder, "state.pt"), os.path.join(folder, "state.safetensors")

            def save_torch(path, state):
                host = host_copy(state)
                torch.save(host, path)
                del host
                fsync_path(path)
                gc.collect()

            save_torch(pt, state)
            if save_file:
                host = host_copy(state)
                tensors, meta = flatten(host)
                save_file(tensors, st, metadata=meta)
                del host, tensors
                fsync_path(st)
                gc.collect()
            for r in range(args.rounds):
                for case in rotated(cases, r):
                    extra = {}
                    path = st if case in SAFETENSORS_CASES else pt
                    if case == "torch_load_fresh":
                        path = os.path.join(folder, "fresh.pt")
                        save_torch(path, state)
                    drop_cached(path)
                    if case in ("stream_child", "torch_load_child"):
                        mode = "torch" if case == "torch_load_child" else "stream"
                        out, m = measure_counted(lambda: subprocess.run([sys.executable, "-c", CHILD, path, mode],
                                                                        check=True, capture_output=True, text=True),
                                                 sysfs)
                        extra["loop_s"] = json.loads(out.stdout)["loop_s"]
                    elif case in ("stream_here", "stream_st"):
                        _, m = synced(lambda: read_through(path, buf))
                    elif case == "safetensors_load":
                        loaded, m = synced(lambda: load_file(path, device="cpu"))
                        del loaded
                    else:
                        loaded, m = synced(lambda: torch.load(path, map_location="cpu", weights_only=True))
                        del loaded
                    gc.collect()
                    if case == "torch_load_fresh":
                        os.unlink(path)
                    seconds = extra.get("loop_s", m["wall_s"])
                    rec = {"size_gb": size_gb, "file_bytes": os.path.getsize(st if case in SAFETENSORS_CASES else pt),
                           "round": r + 1, "case": case, "seconds": seconds, **extra, **m}
                    records.append(rec)
                    print(f"# {size_gb:g} GB round {r + 1} {case}: {seconds:.3f} s, disk busy "
                          f"{m.get('disk_busy_ms', 0)} ms, {m.get('disk_bytes', 0) / 1e9:.2f} GB, "
                          f"{m['minor_faults']} faults", file=sys.stderr, flush=True)
            del state
            gc.collect()
            torch.cuda.empty_cache()
            for p in (pt, st):
                if os.path.exists(p):
                    os.unlink(p)

    summary = {}
    for size_gb in sizes:
        for case in cases:
            runs = [x for x in records if x["size_gb"] == size_gb and x["case"] == case]
            secs = [x["seconds"] for x in runs]
            busy = [x.get("disk_busy_ms", 0) / 1e3 for x in runs]
            row = {"median_s": statistics.median(secs), "min_s": min(secs), "max_s": max(secs),
                   "gb_per_s": runs[0]["file_bytes"] / 1e9 / statistics.median(secs)}
            if all(b > 0 for b in busy):
                row["disk_busy_share"] = statistics.median(b / s for b, s in zip(busy, secs))
                row["gb_per_busy_s"] = statistics.median(x["disk_bytes"] / 1e9 / b for x, b in zip(runs, busy))
            summary[f"{size_gb:g}gb_{case}"] = row
    doc = {"tool": "probe-cold-loads", "machine": {"kernel": platform.release(), "torch": torch.__version__,
                                                   "cpus": os.cpu_count()},
           "tensors": args.tensors, "rounds": args.rounds, "chunk_bytes": CHUNK, "notes": notes, "records": records}
    finish_probe(args.output, doc, summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
