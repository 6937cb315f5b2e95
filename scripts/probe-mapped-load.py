#!/usr/bin/env python3
"""How a loader that maps its file (safetensors' load_file) reads a cold checkpoint, against a
buffered read() of the same file: what the page cache, the page faults and the disk each cost.

safetensors hands back tensors that view a private mapping of the file; their bytes reach the
page cache either while the file is opened and parsed (the library's own read, advice or faults)
or when something first touches them (here: the copy to the GPU, faulting each 64 KiB of
fault-around in). Which of these happens, and what each costs, is measured here on one file of
--size-gib GiB written once by safetensors' save_file (512 tensors, as the frameworks' 128-layer
training state), each case run --rounds times, interleaved; before every cold case the file's
pages are dropped (posix_fadvise DONTNEED, this file only):
  safetensors_cpu   cold load_file(device="cpu"): the library's read phase
  safetensors_h2d   then every tensor .to(GPU): the copy out of the mapping (page faults on
                    cached pages: fault-around)
  per_tensor        cold again, safe_open and get_tensor one tensor at a time: each tensor's
                    seconds and major faults in file order, and the disk's in-flight requests
                    sampled every 2 ms by a process of its own (whether the disk drains between
                    tensors: what paces the load's read); the first round keeps both as series
  touch_heads       cold again, the file mapped privately and one byte of each tensor's first
                    page read in file order: what a loader that touches each tensor once costs,
                    with the page cache's resident ranges after the first three (the read-around
                    each fault starts)
  pageable_h2d      a host tensor of the same bytes, already touched, .to(GPU): the staged copy
                    alone
  buffered_4m       cold readinto() in 4 MiB pieces into memory already mapped (the reference)
  touch_cold        the file mapped privately, one byte of every 4 KiB page read in order by one
                    thread: faults with the kernel's mmap read-around
  touch_warm        the same, the file cached: a fault maps cached pages only (fault-around)
For each: wall seconds, the process's page faults (minor, major), its read() bytes and calls
(/proc/self/io rchar, syscr), the machine's pgmajfault / pgfault / pgpgin (/proc/vmstat), and the
disk's counters (requests, bytes, summed request time, busy time) around it. The library's source
of load_file and the advice calls its compiled module names are recorded. Nothing is changed on
the machine: only a folder made under --dir is written, and removed at the end.
usage: scripts/probe-mapped-load.py --dir /var/tmp --output ml.json [--size-gib 4] [--rounds 3] [--tensors 512]
Needs PyTorch with a GPU and safetensors.
"""
import gc
import inspect
import json
import mmap
import os
import platform
import re
import resource
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import (drop_cached, finish_probe, measure_counted, probe_arguments,  # noqa: E402
                             resident_fraction, resident_runs, thp_mode, torch_or_exit)
from disk_counters import (block_sysfs, InflightSampler, queue_settings)  # noqa: E402

TENSORS = 512  # the frameworks' 128-layer training state: 4 tensors a layer
VMSTAT_KEYS = ("pgmajfault", "pgfault", "pgpgin", "thp_file_mapped", "thp_file_alloc")


def measure(fn, sysfs, torch):
    return measure_counted(fn, sysfs, VMSTAT_KEYS, torch.cuda.synchronize)


def tensor_offsets(path):
    """Each tensor's first byte in the file, in file order (the safetensors header: an 8-byte
    little-endian length, a JSON object of data_offsets relative to the data that follows it)."""
    with open(path, "rb") as f:
        n = int.from_bytes(f.read(8), "little")
        header = json.loads(f.read(n))
    return sorted(8 + n + v["data_offsets"][0] for k, v in header.items() if k != "__metadata__")


def span_record(spans, sampler, keep_series):
    """Each tensor's seconds and major faults; the disk's in-flight histogram; with keep_series the
    tensors' [start, end) and the in-flight samples, both in seconds from the first tensor's start."""
    t0 = spans[0][0] if spans else 0.0
    rec = {"tensor_s": [round(b - a, 6) for a, b, _ in spans], "tensor_major_faults": [f for _, _, f in spans],
           "inflight_hist": {str(k): v for k, v in sorted(sampler.hist.items())}}
    if keep_series:
        rec["tensor_spans_s"] = [[round(a - t0, 5), round(b - t0, 5)] for a, b, _ in spans]
        rec["inflight_series"] = [[round(t - t0, 4), n] for t, n in sampler.series if spans[0][0] - 0.01 <= t <= spans[-1][1] + 0.01]
    return rec


def library_facts():
    """What the installed safetensors does when it loads: load_file's source and the madvise /
    fadvise / populate words its compiled module holds."""
    import safetensors
    import safetensors.torch as st
    facts = {"version": safetensors.__version__}
    try:
        facts["load_file_source"] = inspect.getsource(st.load_file)
    except (OSError, TypeError):
        pass
    words = set()
    folder = os.path.dirname(safetensors.__file__)
    for name in os.listdir(folder):
        if name.endswith(".so"):
            with open(os.path.join(folder, name), "rb") as f:
                data = f.read()
            for m in re.finditer(rb"[A-Za-z_]*(?:madvise|MADV_[A-Z_]+|fadvise|FADV_[A-Z_]+|[Pp]opulate|WillNeed|"
                                 rb"[Rr]eadahead|MAP_POPULATE|from_file|pread|io_uring)[A-Za-z_]*", data):
                words.add(m.group(0).decode("ascii", "replace"))
    facts["module_words"] = sorted(words)[:200]
    return facts


def main():
    args, size = probe_arguments(__doc__, lambda ap: ap.add_argument(
        "--tensors", type=int, default=TENSORS, help="tensors the file holds, of equal size (default 512)"))
    if not 1 <= args.tensors <= size // 4096:
        print(f"probe-mapped-load: --tensors {args.tensors}: between 1 and one per 4 KiB of --size-gib", file=sys.stderr)
        sys.exit(2)
    torch = torch_or_exit("probe-mapped-load", gpu=True)
    from safetensors.torch import load_file, save_file
    dev = torch.device("cuda:0")
    sysfs = block_sysfs(args.dir)
    work = tempfile.mkdtemp(prefix="iowall-mapped-load-", dir=args.dir)
    path = os.path.join(work, "state.safetensors")
    records = []
    try:
        per = size // args.tensors
        tensors = {f"layers.{i}.t": torch.empty(per, dtype=torch.uint8).random_(0, 256) for i in range(args.tensors)}
        save_file(tensors, path)
        del tensors
        gc.collect()
        fd = os.open(path, os.O_RDONLY)
        os.fsync(fd)
        os.close(fd)
        nbytes = os.path.getsize(path)
        host_buf = bytearray(b"\1") * nbytes  # touched: mapped before any case
        host = torch.frombuffer(host_buf, dtype=torch.uint8)

        def safetensors_load():
            return load_file(path, device="cpu")

        def to_gpu(obj):
            return lambda: [t.to(dev) for t in obj.values()]

        def per_tensor():
            from safetensors import safe_open
            spans = []
            with safe_open(path, framework="pt", device="cpu") as f:
                for k in getattr(f, "offset_keys", f.keys)():  # in file order where the library says it
                    m0, t0 = resource.getrusage(resource.RUSAGE_SELF).ru_majflt, time.perf_counter()
                    f.get_tensor(k)
                    spans.append((t0, time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF).ru_majflt - m0))
            return spans

        heads = tensor_offsets(path)

        def touch_heads():
            """One byte of each tensor's first page read through a private mapping, in file order,
            as a loader that makes one tensor view per tensor would if making the view touched it;
            the page cache's resident ranges after each of the first three."""
            fd = os.open(path, os.O_RDONLY)
            try:
                m = mmap.mmap(fd, nbytes, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ | mmap.PROT_WRITE)
            finally:
                os.close(fd)
            spans, runs = [], []
            try:
                for i, off in enumerate(heads):
                    m0, t0 = resource.getrusage(resource.RUSAGE_SELF).ru_majflt, time.perf_counter()
                    m[off]
                    spans.append((t0, time.perf_counter(), resource.getrusage(resource.RUSAGE_SELF).ru_majflt - m0))
                    if i < 3:
                        runs.append(resident_runs(path))
            finally:
                m.close()
            return spans, runs

        def buffered():
            buf = memoryview(host_buf)
            with open(path, "rb", buffering=0) as f:
                for off in range(0, nbytes, 4 << 20):
                    f.readinto(buf[off:off + (4 << 20)])

        def touch():
            fd = os.open(path, os.O_RDONLY)
            try:
                m = mmap.mmap(fd, nbytes, flags=mmap.MAP_PRIVATE, prot=mmap.PROT_READ | mmap.PROT_WRITE)
            finally:
                os.close(fd)
            threads = torch.get_num_threads()
            torch.set_num_threads(1)  # one toucher, as a loader's copy
            try:
                t = torch.frombuffer(m, dtype=torch.uint8)
                int(t[::4096].sum())
                del t
            finally:
                torch.set_num_threads(threads)
                m.close()

        for r in range(1, args.rounds + 1):
            rec = {"round": r}
            drop_cached(path)
            loaded, rec["safetensors_cpu"] = measure(safetensors_load, sysfs, torch)
            rec["resident_after_safetensors_cpu"] = resident_fraction(path)
            on_gpu, rec["safetensors_h2d"] = measure(to_gpu(loaded), sysfs, torch)
            del loaded, on_gpu
            gc.collect()
            on_gpu, rec["pageable_h2d"] = measure(to_gpu({"host": host}), sysfs, torch)
            del on_gpu
            torch.cuda.empty_cache()
            drop_cached(path)
            with InflightSampler(sysfs) as sampler:
                spans, rec["per_tensor"] = measure(per_tensor, sysfs, torch)
            rec["per_tensor"].update(span_record(spans, sampler, keep_series=r == 1))
            drop_cached(path)
            with InflightSampler(sysfs) as sampler:
                (spans, runs), rec["touch_heads"] = measure(touch_heads, sysfs, torch)
            rec["touch_heads"].update(span_record(spans, sampler, keep_series=r == 1))
            rec["touch_heads"]["resident_runs_after_first"] = runs
            for name, fn, cold in (("buffered_4m", buffered, True), ("touch_cold", touch, True), ("touch_warm", touch, False)):
                if cold:
                    drop_cached(path)
                _, rec[name] = measure(fn, sysfs, torch)
            records.append(rec)
            print(f"# round {r}: " + ", ".join(f"{k} {v['wall_s']:.3f}" for k, v in rec.items() if isinstance(v, dict)),
                  file=sys.stderr, flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    summary = {}
    for name in [k for k, v in records[0].items() if isinstance(v, dict)]:
        walls = [rec[name]["wall_s"] for rec in records]
        s = {"median_s": statistics.median(walls), "min_s": min(walls), "max_s": max(walls),
             "gb_per_s": nbytes / statistics.median(walls) / 1e9}
        for k in ("cpu_s", "minor_faults", "major_faults", "rchar", "syscr", "pgmajfault", "pgpgin", "disk_reads", "disk_bytes"):
            s[k] = statistics.median(rec[name].get(k, 0) for rec in records)
        busy = [rec[name].get("disk_busy_ms", 0) / 1000 / rec[name]["wall_s"] for rec in records]
        s["disk_busy_share"] = statistics.median(busy)
        if s["disk_reads"]:
            s["mean_request_kib"] = s["disk_bytes"] / s["disk_reads"] / 1024
        if name in ("per_tensor", "touch_heads"):
            per = sorted(t for rec in records for t in rec[name]["tensor_s"])
            s["tensor_median_s"], s["tensor_p90_s"] = statistics.median(per), per[int(0.9 * (len(per) - 1))]
            hist = [rec[name]["inflight_hist"] for rec in records]
            s["inflight_zero_share"] = statistics.median(h.get("0", 0) / max(1, sum(h.values())) for h in hist)
            s["inflight_mean"] = statistics.median(sum(int(k) * v for k, v in h.items()) / max(1, sum(h.values()))
                                                   for h in hist)
        summary[name] = s
    doc = {"tool": "scripts/probe-mapped-load.py", "bytes": nbytes, "tensors": args.tensors, "rounds": args.rounds,
           "machine": {"kernel": platform.release(), "cpus": os.cpu_count(), "thp": thp_mode(), "torch": torch.__version__,
                       "queue": queue_settings(sysfs, ["read_ahead_kb", "max_sectors_kb", "nr_requests",
                                                       "max_segments", "rotational"]),
                       "safetensors": library_facts()},
           "records": records}
    finish_probe(args.output, doc, summary)


if __name__ == "__main__":
    main()
