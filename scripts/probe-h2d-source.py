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
For each: the fill's and the copy's wall seconds (the GPU synchronized around the copy) and the process's
minor faults. Nothing is changed on the machine: only a folder made under --dir is written, removed at the end.
usage: scripts/probe-h2d-source.py --dir /var/tmp --output hs.json [--size-gib 8] [--tensors 512]
       [--rounds 3] [--wait 3]
Needs PyTorch with a GPU.
"""
import ctypes
import os
import platform
import resource
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import (drop_cached, finish_probe, probe_arguments, scratch_folder,  # noqa: E402
                             torch_or_exit, write_new_file)

KINDS = ("cpu", "warm", "cold", "cold_wait")


def options(ap):
    ap.add_argument("--tensors", type=int, default=512)
    ap.add_argument("--wait", type=float, default=3.0)


def minor_faults():
    return resource.getrusage(resource.RUSAGE_SELF).ru_minflt


def main():
    args, size = probe_arguments(__doc__, options)
    if args.tensors < 1 or args.wait < 0:
        print("probe-h2d-source: --tensors must be at least 1 and --wait not negative", file=sys.stderr)
        return 2
    torch = torch_or_exit("probe-h2d-source", gpu=True)
    dev = torch.device("cuda")
    per = size // args.tensors
    host = [torch.empty(per, dtype=torch.uint8).fill_(1) for _ in range(args.tensors)]
    gpu = [torch.empty(per, dtype=torch.uint8, device=dev) for _ in range(args.tensors)]
    torch.cuda.synchronize()

    def copy():
        torch.cuda.synchronize()
        t = time.perf_counter()
        for d, h in zip(gpu, host):
            d.copy_(h)
        torch.cuda.synchronize()
        return time.perf_counter() - t

    records = []
    with scratch_folder(args.dir, "h2d-source-") as folder:
        path = os.path.join(folder, "state.bin")
        write_new_file(path, per * args.tensors)

        def read_file():
            with open(path, "rb", buffering=0) as f:
                for h in host:  # the tensor's own bytes, no copy in between
                    f.readinto((ctypes.c_char * per).from_address(h.data_ptr()))

        for r in range(args.rounds):
            order = KINDS[r % len(KINDS):] + KINDS[:r % len(KINDS)]
            for kind in order:
                if kind.startswith("cold"):
                    drop_cached(path)
                elif kind == "warm":
                    read_file()  # the file cached before the timed read
                faults = minor_faults()
                t = time.perf_counter()
                if kind == "cpu":
                    for h in host:
                        h.fill_(r + 2)
                else:
                    read_file()
                fill = time.perf_counter() - t
                if kind == "cold_wait":
                    time.sleep(args.wait)
                h2d = copy()
                rec = {"round": r + 1, "kind": kind, "fill_s": fill, "h2d_s": h2d,
                       "minor_faults": minor_faults() - faults}
                records.append(rec)
                print(f"# round {r + 1} {kind}: fill {fill:.3f} s, h2d {h2d:.3f} s ({size / h2d / 1e9:.2f} GB/s), "
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
