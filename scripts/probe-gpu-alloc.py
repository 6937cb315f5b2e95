#!/usr/bin/env python3
"""What a restore's GPU memory costs to allocate: PyTorch's caching allocator taking fresh blocks from
cudaMalloc against reusing blocks it holds, alone and inside the copy of a loaded state to the GPU.

Every checkpoint session's cold load copies its tensors to the GPU 0.1-0.47 s slower at 8 GB (about 0.03 s
at 2 GB) than the warm load of the same round, which reuses the GPU blocks the cold one freed
(reports/checkpoint-validation.md). A restore in a fresh process allocates all its GPU memory anew. For
each --sizes-gb total held in --tensors tensors of equal size, each case run --rounds times, interleaved:
  alloc_fresh   the allocator's cache emptied (torch.cuda.empty_cache), then one torch.empty per tensor
                on the GPU: cudaMalloc for each block
  alloc_cached  the same tensors freed and allocated again: blocks from the allocator's cache
  h2d_fresh     the cache emptied, then every host tensor (pageable, already touched) .to(GPU): what a
                loader does, allocation included
  h2d_cached    the same again, the blocks cached
  h2d_into      each host tensor copied into GPU tensors allocated before the timing: the copy alone
For each: wall seconds (the GPU synchronized before and after). Nothing is written to disk.
usage: scripts/probe-gpu-alloc.py --output ga.json [--sizes-gb 2,8] [--tensors 640] [--rounds 3]
Needs PyTorch with a GPU.
"""
import os
import platform
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import finish_probe, probe_parser, sizes_gb, torch_or_exit  # noqa: E402


def arguments():
    ap = probe_parser(__doc__)
    ap.add_argument("--sizes-gb", default="2,8")
    ap.add_argument("--tensors", type=int, default=640)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    sizes = sizes_gb(args.sizes_gb)
    if not sizes or args.tensors < 1 or args.rounds < 1:
        ap.error("--sizes-gb needs positive sizes, --tensors and --rounds at least 1")
    return args, sizes


def main():
    args, sizes = arguments()
    torch = torch_or_exit("probe-gpu-alloc", gpu=True)
    dev = torch.device("cuda")

    def timed(fn):
        torch.cuda.synchronize()
        t = time.perf_counter()
        out = fn()
        torch.cuda.synchronize()
        return out, time.perf_counter() - t

    records = []
    for size_gb in sizes:
        per = int(size_gb * 1e9) // args.tensors
        host = [torch.empty(per, dtype=torch.uint8).fill_(1) for _ in range(args.tensors)]  # touched
        for r in range(1, args.rounds + 1):
            rec = {"size_gb": size_gb, "round": r}
            torch.cuda.empty_cache()
            gpu, rec["alloc_fresh"] = timed(lambda: [torch.empty(per, dtype=torch.uint8, device=dev)
                                                     for _ in range(args.tensors)])
            gpu = None
            gpu, rec["alloc_cached"] = timed(lambda: [torch.empty(per, dtype=torch.uint8, device=dev)
                                                      for _ in range(args.tensors)])
            gpu = None
            torch.cuda.empty_cache()
            gpu, rec["h2d_fresh"] = timed(lambda: [h.to(dev) for h in host])
            gpu = None
            gpu, rec["h2d_cached"] = timed(lambda: [h.to(dev) for h in host])

            def into():
                for d, h in zip(gpu, host):
                    d.copy_(h)
            _, rec["h2d_into"] = timed(into)
            gpu = None
            torch.cuda.empty_cache()
            records.append(rec)
            print(f"# {size_gb:g} GB round {r}: " + ", ".join(f"{k} {v:.3f}" for k, v in rec.items()
                                                              if isinstance(v, float) and k != "size_gb"),
                  file=sys.stderr, flush=True)
        host = None

    summary = {}
    for size_gb in sizes:
        runs = [x for x in records if x["size_gb"] == size_gb]
        med = {k: statistics.median(x[k] for x in runs)
               for k in ("alloc_fresh", "alloc_cached", "h2d_fresh", "h2d_cached", "h2d_into")}
        med["alloc_fresh_per_tensor_us"] = (med["alloc_fresh"] - med["alloc_cached"]) / args.tensors * 1e6
        med["h2d_fresh_less_cached_s"] = med["h2d_fresh"] - med["h2d_cached"]
        summary[f"{size_gb:g}gb"] = med
    doc = {"tool": "probe-gpu-alloc", "machine": {"kernel": platform.release(), "torch": torch.__version__,
                                                  "gpu": torch.cuda.get_device_name(0)},
           "tensors": args.tensors, "rounds": args.rounds, "records": records}
    finish_probe(args.output, doc, summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
