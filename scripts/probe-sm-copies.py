#!/usr/bin/env python3
"""Host<->GPU copies by the copy engine and by the GPU's SMs, as nvbandwidth's
host_to_device_memcpy_ce/_sm and device_to_host_memcpy_ce/_sm measure them.

Copy engine: cudaMemcpyAsync between a pinned host buffer and GPU memory (torch's copy_).
SM-driven: an elementwise kernel whose loads (or stores) touch the pinned host buffer through
its unified address (the host buffer seen as a CUDA tensor): every access crosses PCIe as
requests from the SMs, as nvbandwidth's striding copy kernel does. Each point: ROUNDS rounds of
REPEAT copies timed with CUDA events (the four copies alternate within a round);
per-round GB/s, median and spread, as JSON on stdout.
Touches no file; allocates SIZE of pinned host memory and 2 x SIZE of GPU memory.
usage: scripts/probe-sm-copies.py [SIZE_MIB] [ROUNDS] [REPEAT]
"""
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import probe_parser, torch_or_exit  # noqa: E402

MIB = 1 << 20
torch = None  # PyTorch, imported once the command line is checked


class HostView:
    """A pinned host buffer described as CUDA memory (its unified virtual address)."""

    def __init__(self, t):
        self.__cuda_array_interface__ = {"shape": (t.numel(),), "typestr": "<f4",
                                         "data": (t.data_ptr(), False), "version": 2, "strides": None}


def timed(fn, repeat):
    start, end = torch.cuda.Event(enable_timing=True), torch.cuda.Event(enable_timing=True)
    fn()  # warm
    torch.cuda.synchronize()
    start.record()
    for _ in range(repeat):
        fn()
    end.record()
    end.synchronize()
    return start.elapsed_time(end) / 1e3 / repeat  # seconds per copy


def main():
    global torch
    ap = probe_parser(__doc__, output=False)
    ap.add_argument("size_mib", nargs="?", type=int, default=512)
    ap.add_argument("rounds", nargs="?", type=int, default=5)
    ap.add_argument("repeat", nargs="?", type=int, default=8)
    args = ap.parse_args()
    if min(args.size_mib, args.rounds, args.repeat) < 1:
        ap.error("SIZE_MIB, ROUNDS and REPEAT must be at least 1")
    size_mib, rounds, repeat = args.size_mib, args.rounds, args.repeat
    torch = torch_or_exit("probe-sm-copies", gpu=True)
    n = size_mib * MIB // 4
    host = torch.ones(n, dtype=torch.float32).pin_memory()
    hv = torch.as_tensor(HostView(host), device="cuda")
    assert hv.data_ptr() == host.data_ptr()
    dev = torch.ones(n, dtype=torch.float32, device="cuda")
    dst = torch.empty(n, dtype=torch.float32, device="cuda")
    tests = {
        "host_to_device_memcpy_ce": lambda: dst.copy_(host, non_blocking=True),
        "device_to_host_memcpy_ce": lambda: host.copy_(dev, non_blocking=True),
        # A multiply by one is an elementwise kernel (16 B vector loads and stores per thread):
        # it reads the host buffer from the SMs, or writes it.
        "host_to_device_memcpy_sm": lambda: torch.mul(hv, 1.0, out=dst),
        "device_to_host_memcpy_sm": lambda: torch.mul(dev, 1.0, out=hv),
    }
    bytes_ = n * 4
    out = {"gpu": torch.cuda.get_device_name(0), "torch": torch.__version__, "cuda": torch.version.cuda,
           "size_bytes": bytes_, "rounds": rounds, "repeat": repeat, "tests": {}}
    try:
        out["nvidia_smi"] = subprocess.run(
            ["nvidia-smi", "--query-gpu=name,driver_version,pcie.link.gen.current,pcie.link.width.current,"
             "pcie.link.gen.max,pcie.link.width.max", "--format=csv,noheader"],
            capture_output=True, text=True, timeout=30).stdout.strip()
    except (OSError, subprocess.SubprocessError) as e:
        out["nvidia_smi"] = f"unavailable: {e}"
    for r in range(rounds):  # rounds alternate the four copies
        for name, fn in tests.items():
            s = timed(fn, repeat)
            out["tests"].setdefault(name, []).append(bytes_ / s / 1e9)
    for name, v in out["tests"].items():
        med = statistics.median(v)
        out["tests"][name] = {"GBps": v, "median_GBps": med, "spread": (max(v) - min(v)) / med}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
