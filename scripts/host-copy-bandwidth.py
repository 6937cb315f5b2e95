#!/usr/bin/env python3
"""Host memory copy bandwidth, one copying process and then N at once (default: every CPU).

Each process copies a 256 MiB buffer into another (larger than any cache) for SECONDS and
reports GB/s of bytes copied; host memory carries twice that (every byte read and written).
An independent check on a topology's dram bandwidth: it uses no part of iowall.
Usage: scripts/host-copy-bandwidth.py [SECONDS] [ROUNDS]
"""
import multiprocessing as mp
import os
import sys
import time

SIZE = 256 << 20


def copy_rate(seconds, out):
    a = bytearray(b"\x01") * SIZE
    b = bytearray(SIZE)
    b[:] = a  # touch both buffers before timing
    start = time.perf_counter()
    copies = 0
    while time.perf_counter() - start < seconds:
        b[:] = a
        copies += 1
    out.put(copies * SIZE / (time.perf_counter() - start) / 1e9)


def run(processes, seconds):
    q = mp.Queue()
    ps = [mp.Process(target=copy_rate, args=(seconds, q)) for _ in range(processes)]
    for p in ps:
        p.start()
    rates = [q.get() for _ in ps]
    for p in ps:
        p.join()
    return rates


def main():
    seconds = float(sys.argv[1]) if len(sys.argv) > 1 else 4
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 3
    cpus = os.cpu_count() or 1
    print(f"# {cpus} CPUs, {SIZE >> 20} MiB buffers, {seconds:g} s per run")
    print("round processes copy_GBps_each memory_traffic_GBps")
    for r in range(1, rounds + 1):
        for n in sorted({1, cpus}):
            rates = run(n, seconds)
            each = " ".join(f"{x:.2f}" for x in rates)
            print(f"{r} {n} {each} {2 * sum(rates):.1f}")


if __name__ == "__main__":
    main()
