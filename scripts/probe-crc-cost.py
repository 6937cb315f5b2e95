#!/usr/bin/env python3
"""What torch.save's CRC-32 costs where a checkpoint is written, against where the checkpoint runs measure it.

scripts/checkpoint-frameworks.py --crc-probe times torch.save of one 1 GiB tensor to /dev/shm with and without
compute_crc32, and scripts/checkpoint-derive.py charges the difference per byte to every torch save. On half the
sessions the saves' own serialize+write exceeds safetensors' plus that cost by 0.6-2.5 s at 8 GB
(reports/checkpoint-validation.md). This probe asks whether the probe's conditions hide part of the cost: the
same torch.save, with and without the CRC, of
  one    one --size-gib GiB uint8 tensor (the checkpoint runs' probe)
  state  a training state of the same bytes as scripts/training_state.py builds it (--tensors parameter
         tensors: bf16 weights, fp32 master weights and Adam moments, the optimizer's steps), on the host
each to a file on /dev/shm (shm) and on --dir's disk (disk: the page cache, not made durable; the file removed
at once, so nothing is written back), --rounds rounds, the order rotated each round. For each: the save's wall
seconds and the deltas of the process's CPU seconds and page faults (checkpoint_host.measure_counted). The
state's size is not a checkpoint run's (those are 2 and 8 GB): nothing here is the figure the model is checked
against. Nothing is changed on the machine: only folders made under --dir and /dev/shm are written, removed at
the end.
usage: scripts/probe-crc-cost.py --dir /var/tmp --output crc.json [--size-gib 1] [--tensors 128] [--rounds 5]
Needs PyTorch with torch.utils.serialization.config.save.compute_crc32 (2.5 and later); no GPU.
"""
import gc
import os
import platform
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import (finish_probe, measure_counted, probe_arguments, rotated,  # noqa: E402
                             scratch_folder, torch_or_exit)
from disk_counters import block_sysfs  # noqa: E402
from training_state import build_state  # noqa: E402

CASES = [(where, shape, crc) for where in ("shm", "disk") for shape in ("one", "state") for crc in (True, False)]


def options(ap):
    ap.add_argument("--tensors", type=int, default=128)


def main():
    args, size = probe_arguments(__doc__, options)
    if args.tensors < 1:
        print("probe-crc-cost: --tensors must be at least 1", file=sys.stderr)
        return 2
    torch = torch_or_exit("probe-crc-cost")
    try:
        import torch.utils.serialization as ser
        old = ser.config.save.compute_crc32
    except (ImportError, AttributeError):
        print("probe-crc-cost: this torch has no torch.utils.serialization.config.save.compute_crc32",
              file=sys.stderr)
        return 2
    sysfs = block_sysfs(args.dir)
    one = torch.empty(size, dtype=torch.uint8)
    one.random_(0, 256)
    state = build_state(torch, size, args.tensors, torch.device("cpu"), 1)
    records = []
    try:
        with scratch_folder(args.dir, "crc-cost-") as disk, scratch_folder("/dev/shm", "crc-cost-") as shm:
            for r in range(args.rounds):
                for where, shape, crc in rotated(CASES, r):
                    ser.config.save.compute_crc32 = crc
                    path = os.path.join(shm if where == "shm" else disk, "t.pt")
                    obj = one if shape == "one" else state
                    _, m = measure_counted(lambda: torch.save(obj, path), sysfs)
                    file_bytes = os.path.getsize(path)
                    os.unlink(path)
                    gc.collect()
                    records.append({"round": r + 1, "where": where, "shape": shape, "crc": crc,
                                    "file_bytes": file_bytes, **m})
                    print(f"# round {r + 1} {where} {shape} crc={crc}: {m['wall_s']:.3f} s, {m['cpu_s']:.3f} s CPU",
                          file=sys.stderr, flush=True)
    finally:
        ser.config.save.compute_crc32 = old

    summary = {}
    for where in ("shm", "disk"):
        for shape in ("one", "state"):
            med = {crc: statistics.median(x["wall_s"] for x in records
                                          if (x["where"], x["shape"], x["crc"]) == (where, shape, crc))
                   for crc in (True, False)}
            extra = med[True] - med[False]
            summary[f"{where}_{shape}"] = {"with_crc_s": med[True], "without_crc_s": med[False], "crc_s": extra,
                                           "crc_gb_per_s": size / extra / 1e9 if extra > 0 else 0.0}
    doc = {"tool": "probe-crc-cost", "machine": {"kernel": platform.release(), "torch": torch.__version__,
                                                 "cpus": os.cpu_count()},
           "bytes": size, "tensors": args.tensors, "rounds": args.rounds, "records": records}
    finish_probe(args.output, doc, summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
