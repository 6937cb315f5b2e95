#!/usr/bin/env python3
"""Peer copies between GPUs: cudaMemcpyPeer from every GPU to every other, by size, with
peer access enabled (cudaDeviceEnablePeerAccess both ways where cudaDeviceCanAccessPeer
allows it: NVLink or PCIe peer-to-peer) or left disabled (the driver stages the copy through
pinned host memory). One mode per process, so that a disabled run never sees access that an
earlier enable left on. The CUDA runtime is loaded with ctypes (libcudart), so nothing but
Python's standard library is needed.

Usage: peer-copy-bandwidth.py --mode enabled|disabled [--sizes 1M,16M,256M] [--bytes 1G]
                              [--reps 3] [--output FILE]
Writes one JSON object: the mode, the device count, the peer-access matrix and, per
(src, dst, size), the seconds and GB/s of each repetition (each moves --bytes, at least
one copy). Exit 3 when no CUDA runtime or fewer than two GPUs are found.
"""
import argparse
import ctypes
import json
import sys
import time


def parse_size(text):
    units = {"K": 1 << 10, "M": 1 << 20, "G": 1 << 30}
    text = text.strip().upper().rstrip("IB")
    return int(text[:-1]) * units[text[-1]] if text[-1] in units else int(text)


def load_cudart():
    for name in ("libcudart.so.13", "libcudart.so.12", "libcudart.so"):
        try:
            return ctypes.CDLL(name)
        except OSError:
            continue
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--mode", choices=["enabled", "disabled"], required=True)
    ap.add_argument("--sizes", default="1M,16M,256M")
    ap.add_argument("--bytes", default="1G")
    ap.add_argument("--reps", type=int, default=3)
    ap.add_argument("--output")
    a = ap.parse_args()
    rt = load_cudart()
    if rt is None:
        print("peer copies: no libcudart found", file=sys.stderr)
        return 3

    def check(err, what):
        if err != 0:
            raise RuntimeError(f"{what}: CUDA error {err}")

    rt.cudaMemcpyPeer.argtypes = [ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_size_t]
    rt.cudaMalloc.argtypes = [ctypes.POINTER(ctypes.c_void_p), ctypes.c_size_t]
    n = ctypes.c_int(0)
    err = rt.cudaGetDeviceCount(ctypes.byref(n))
    count = n.value if err == 0 else 0
    if count < 2:
        print(f"peer copies: {count} GPU(s) (cudaGetDeviceCount: error {err}), need two", file=sys.stderr)
        return 3
    sizes = [parse_size(s) for s in a.sizes.split(",")]
    total = parse_size(a.bytes)
    biggest = max(sizes)
    bufs = []
    for d in range(count):
        check(rt.cudaSetDevice(d), "cudaSetDevice")
        p = ctypes.c_void_p()
        check(rt.cudaMalloc(ctypes.byref(p), biggest), "cudaMalloc")
        bufs.append(p)
    access = [[False] * count for _ in range(count)]
    for s in range(count):
        for d in range(count):
            if s == d:
                continue
            ok = ctypes.c_int(0)
            check(rt.cudaDeviceCanAccessPeer(ctypes.byref(ok), s, d), "cudaDeviceCanAccessPeer")
            access[s][d] = bool(ok.value)
            if a.mode == "enabled" and ok.value:
                check(rt.cudaSetDevice(s), "cudaSetDevice")
                err = rt.cudaDeviceEnablePeerAccess(d, 0)
                if err not in (0, 704):  # 704: cudaErrorPeerAccessAlreadyEnabled
                    check(err, "cudaDeviceEnablePeerAccess")
    points = []
    for s in range(count):
        for d in range(count):
            if s == d:
                continue
            for size in sizes:
                copies = max(1, total // size)
                # One copy first, untimed: the first copy of a pair sets up its mappings.
                check(rt.cudaMemcpyPeer(bufs[d], d, bufs[s], s, size), "cudaMemcpyPeer")
                reps = []
                for _ in range(a.reps):
                    check(rt.cudaSetDevice(s), "cudaSetDevice")
                    check(rt.cudaDeviceSynchronize(), "cudaDeviceSynchronize")
                    t0 = time.perf_counter()
                    for _ in range(copies):
                        check(rt.cudaMemcpyPeer(bufs[d], d, bufs[s], s, size), "cudaMemcpyPeer")
                    check(rt.cudaDeviceSynchronize(), "cudaDeviceSynchronize")
                    check(rt.cudaSetDevice(d), "cudaSetDevice")
                    check(rt.cudaDeviceSynchronize(), "cudaDeviceSynchronize")
                    sec = time.perf_counter() - t0
                    reps.append({"seconds": sec, "GBps": copies * size / sec / 1e9})
                points.append({"src": s, "dst": d, "size": size, "copies": copies,
                               "peer_access": a.mode == "enabled" and access[s][d], "reps": reps})
    result = {"mode": a.mode, "devices": count, "can_access_peer": access, "points": points}
    text = json.dumps(result, indent=1)
    if a.output:
        with open(a.output, "w") as f:
            f.write(text + "\n")
    else:
        print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
