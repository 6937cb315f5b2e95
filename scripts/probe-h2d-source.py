#!/usr/bin/env python3
"""Whether a copy to the GPU from pageable host memory slows after that memory was filled by a cold read:
the same host tensors filled by the CPU, by a read of a file already cached, and by a cold read, each then
copied to GPU tensors allocated beforehand.

Every checkpoint session's cold load copies its tensors to the GPU 0.1-0.47 s slower at 8 GB than the warm
load of the same round (reports/checkpoint-validation.md); the GPU's allocation explains about 0.06 s of it
(scripts/probe-gpu-alloc.py). What else differs is what came just before the copy: a read that went to the
disk and filled the page cache, against one served from it. For one file of --size-gib GiB (written once
and fsync'ed, 1 MiB write()s) held in --tensors host tensors of equal size (allocated and touched once: the
same memory every time, no page faults after the first fill), each round runs, order rotated:
  cpu        the host tensors filled by the CPU (fill_), then copied to the GPU
  warm       the file read (readinto, one call per tensor) into them from the page cache, then copied
  cold       the file's pages dropped (POSIX_FADV_DONTNEED), read the same way from the disk, then copied
  cold_wait  as cold, then --wait seconds idle before the copy: a transient after the disk reads ends by then
For each: the fill's and the copy's wall seconds (the GPU synchronized around the copy) with the deltas of
the process's counters and the disk's (checkpoint_host.measure_counted). Nothing is changed on the machine: only a folder made under --dir is written, removed at the end.
usage: scripts/probe-h2d-source.py --dir /var/tmp --output hs.json [--size-gib 8] [--tensors 512]
       [--rounds 3] [--wait 3]
Needs PyTorch with a GPU.
"""
import ctypes
import os
import platform
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import (drop_cached, finish_probe, measure_counted, probe_arguments,  # noqa: E402
                             rotated, scratch_folder, torch_or_exit, write_new_file)
from disk_counters import block_sysfs  # noqa: E402

KINDS = ("cpu", "warm", "cold", "cold_wait")


def options(ap):
    ap.add_argument("--tensors", type=int, default=512)
    ap.add_argument("--wait", type=float, default=3.0)


def main():
    args, size = probe_arguments(__doc__, options)
    if args.tensors < 1 or args.wait < 0:
        print("probe-h2d-source: --tensors must be at least 1 and --wait not negative", file=sys.stderr)
        return 2
    torch = torch_or_exit("probe-h2d-source", gpu=True)
    dev = torch.device("cuda")
    sysfs = block_sysfs(args.dir)
    per = size // args.tensors
    host = [torch.empty(per, dtype=torch.uint8).fill_(1) for _ in range(args.tensors)]
    gpu = [torch.empty(per, dtype=torch.uint8, device=dev) for _ in range(args.tensors)]
    torch.cuda.synchronize()

    def copy():
        for d, h in zip(gpu, host):
            d.copy_(h)

    records = []
    with scratch_folder(args.dir, "h2d-source-") as folder:
        path = os.path.join(folder, "state.bin")
        write_new_file(path, per * args.tensors)

        def read_file():
            with open(path, "rb", buffering=0) as f:
                for h in host:  # the tensor's own bytes, no copy in between
                    f.readinto((ctypes.c_char * per).from_address(h.data_ptr()))

        for r in range(args.rounds):
            for kind in rotated(KINDS, r):
                if kind.startswith("cold"):
                    drop_cached(path)
                elif kind == "warm":
                    read_file()  # the file cached before the timed read
                fill_with = read_file if kind != "cpu" else (lambda: [h.fill_(r + 2) for h in host])
                _, fill = measure_counted(fill_with, sysfs)
                if kind == "cold_wait":
                    time.sleep(args.wait)
                _, h2d = measure_counted(copy, sysfs, sync=torch.cuda.synchronize)
                rec = {"round": r + 1, "kind": kind, "fill_s": fill["wall_s"], "h2d_s": h2d["wall_s"],
                       "minor_faults": fill.get("minor_faults", 0) + h2d.get("minor_faults", 0),
                       "fill": fill, "h2d": h2d}
                records.append(rec)
                print(f"# round {r + 1} {kind}: fill {rec['fill_s']:.3f} s, h2d {rec['h2d_s']:.3f} s "
                      f"({size / rec['h2d_s'] / 1e9:.2f} GB/s), "
                      f"faults {rec['minor_faults']}", file=sys.stderr, flush=True)

    summary = {}
    for kind in KINDS:
        runs = [x for x in records if x["kind"] == kind]
        h2d = [x["h2d_s"] for x in runs]
        summary[kind] = {"fill_median_s": statistics.median(x["fill_s"] for x in runs),
                         "h2d_median_s": statistics.median(h2d), "h2d_min_s": min(h2d), "h2d_max_s": max(h2d),
                         "h2d_gb_per_s": size / statistics.median(h2d) / 1e9}
    doc = {"tool": "probe-h2d-source", "machine": {"kernel": platform.release(), "torch": torch.__version__,
                                                   "gpu": torch.cuda.get_device_name(0)},
           "bytes": per * args.tensors, "tensors": args.tensors, "rounds": args.rounds, "wait_s": args.wait,
           "records": records}
    finish_probe(args.output, doc, summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
