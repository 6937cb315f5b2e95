#!/usr/bin/env python3
"""What PyTorch adds to each tensor's copy between the GPU and host memory, beyond the CUDA copy itself.

A checkpoint's save copies every tensor with .cpu() (a new host tensor each) and its restore with .to(GPU);
the model charges each copy the driver's call cost (the gpu's copy_call_cost, measured by `iowall measure`'s
own cudaMemcpy calls) and its bytes. Both phases of the 2 GB checkpoints (512 tensors) run 0.03-0.06 s longer
than the model on most sessions (reports/checkpoint-validation.md). This probe times, for --tensors tensors of
each of --sizes bytes (interleaved over --rounds rounds, the GPU synchronized around each batch):
  d2h_new      .cpu() of each GPU tensor (a new host tensor each, as torch.save's copies)
  d2h_into     host_tensor.copy_(gpu_tensor) into host tensors allocated and touched before
  h2d_new      .to(GPU) of each host tensor (a new GPU tensor each, the caching allocator warm)
  h2d_into     gpu_tensor.copy_(host_tensor) into GPU tensors allocated before
The time per tensor against its bytes gives each case a per-tensor cost (the line's intercept) and a rate;
new less into is what allocating the destination costs. The sizes are not a checkpoint's tensors (4 and 16 MB
at 2 and 8 GB): nothing here is the figure the model is checked against. Nothing is written to disk.
usage: scripts/probe-torch-copy-cost.py --output tc.json [--sizes 4096,65536,262144,1048576] [--tensors 512]
       [--rounds 5]
Needs PyTorch with a GPU.
"""
import os
import platform
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import finish_probe, probe_parser, rotated, torch_or_exit  # noqa: E402

CASES = ("d2h_new", "d2h_into", "h2d_new", "h2d_into")


def line(points):
    """Least-squares intercept and slope of (x, y) points."""
    n = len(points)
    mx = sum(x for x, _ in points) / n
    my = sum(y for _, y in points) / n
    sxx = sum((x - mx) ** 2 for x, _ in points)
    slope = sum((x - mx) * (y - my) for x, y in points) / sxx if sxx else 0.0
    return my - slope * mx, slope


def main():
    ap = probe_parser(__doc__)
    ap.add_argument("--sizes", default="4096,65536,262144,1048576")
    ap.add_argument("--tensors", type=int, default=512)
    ap.add_argument("--rounds", type=int, default=5)
    args = ap.parse_args()
    try:
        sizes = [int(x) for x in args.sizes.split(",")]
    except ValueError:
        sizes = []
    if not sizes or min(sizes) < 1 or args.tensors < 1 or args.rounds < 1:
        ap.error("--sizes needs byte counts of 1 or more, --tensors and --rounds at least 1")
    torch = torch_or_exit("probe-torch-copy-cost", gpu=True)
    dev = torch.device("cuda")
    sync = torch.cuda.synchronize
    records = []
    for size in sizes:
        gpu = [torch.empty(size, dtype=torch.uint8, device=dev).fill_(1) for _ in range(args.tensors)]
        host = [torch.empty(size, dtype=torch.uint8).fill_(1) for _ in range(args.tensors)]
        gpu_dst = [torch.empty(size, dtype=torch.uint8, device=dev) for _ in range(args.tensors)]
        work = {
            "d2h_new": lambda: [g.cpu() for g in gpu],
            "d2h_into": lambda: [h.copy_(g) for h, g in zip(host, gpu)],
            "h2d_new": lambda: [h.to(dev) for h in host],
            "h2d_into": lambda: [d.copy_(h) for d, h in zip(gpu_dst, host)],
        }
        for case in CASES:  # once each, untimed: the allocators hold what the timed rounds reuse
            work[case]()
        sync()
        for r in range(args.rounds):
            for case in rotated(CASES, r):
                sync()
                t = time.perf_counter()
                out = work[case]()
                sync()
                seconds = time.perf_counter() - t
                del out
                records.append({"size": size, "round": r + 1, "case": case, "seconds": seconds,
                                "per_tensor_us": seconds / args.tensors * 1e6})
        print(f"# {size} B: " + ", ".join(
            f"{c} {statistics.median(x['per_tensor_us'] for x in records if x['size'] == size and x['case'] == c):.1f} us"
            for c in CASES), file=sys.stderr, flush=True)
        gpu = host = gpu_dst = work = None
        torch.cuda.empty_cache()

    summary = {}
    for case in CASES:
        pts = [(size, statistics.median(x["per_tensor_us"] for x in records
                                        if x["size"] == size and x["case"] == case)) for size in sizes]
        a, b = line(pts)
        summary[case] = {**{f"{s}B_us": us for s, us in pts}, "per_tensor_us": a,
                         "gb_per_s": (1e-3 / b) if b > 0 else 0.0}
    doc = {"tool": "probe-torch-copy-cost", "machine": {"kernel": platform.release(), "torch": torch.__version__,
                                                        "gpu": torch.cuda.get_device_name(0)},
           "sizes": sizes, "tensors": args.tensors, "rounds": args.rounds, "records": records}
    finish_probe(args.output, doc, summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
