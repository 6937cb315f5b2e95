#!/usr/bin/env python3
"""Framework checkpoints saved and loaded on this machine, timed phase by phase.

Builds a training state of each SIZE on the GPU (bf16 weights, fp32 master weights, Adam's
exp_avg and exp_avg_sq: 14 bytes per parameter, split over --tensors tensors), then, for each
round and writer, saves it until durable and loads it back to the GPU:
  save   d2h: the state's tensors copied into fresh pageable host memory (.cpu(), as torch.save
         does for each storage of a GPU tensor); serialize_write: the writer's call on that
         copy (into the page cache); fsync: the file(s) and their directory made durable.
  load   after the fsync the file's pages are dropped (posix_fadvise DONTNEED) for a cold load,
         then loaded again warm; each as read (into host memory) and h2d (to the GPU).
Writers: torch_save (torch.save / torch.load, phases as above), torch_save_gpu (torch.save of
the GPU state in one call, torch.load with map_location to the GPU: a check on the split),
safetensors (save_file / load_file) and dcp (torch.distributed.checkpoint with a
FileSystemWriter, one process, no process group; skipped with a note where it will not run) and
plain_stream (no framework: a new file of the state's size written in 1 MiB write()s of random bytes
and fsync'ed, then read cold and warm in 4 MiB readinto()s into one reused buffer: the disk's stream
rate at the time of the checkpoints, beside them in the same rounds, for the derivation to compare
with the calibration sweep taken earlier; it has no d2h or h2d phase).
Writer order rotates per round. Files go only under --dir (a folder made there and removed at
the end). One JSON record per writer x size x round goes to --output, with the machine's facts
(GPU, torch, file system, vm.dirty_*, /proc/meminfo before and after); a median/spread summary
goes to stdout. Needs Python 3 and PyTorch (safetensors for its writer); nothing is downloaded.

usage: scripts/checkpoint-frameworks.py --dir /mnt/nvme/ckpt --output ckpt.json [--rounds 3] 2 8 20
       scripts/checkpoint-frameworks.py --cpu-only --dir /tmp/ck --output /tmp/ck.json 0.02
Sizes are GB (10^9 bytes) unless given with a unit (512MB, 2GiB).
"""
import argparse
import gc
import json
import os
import platform
import re
import shutil
import signal
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import (disk_bytes, drop_cached, file_system_of, fsync_path, measure_counted,  # noqa: E402
                             read_meminfo, read_through, resident_fraction, rotated, thp_mode, vm_dirty_settings,
                             write_atomically, write_new_file, dirty_now)
from checkpoint_summary import print_summary, summarize  # noqa: E402
from disk_counters import block_sysfs, queue_settings  # noqa: E402
from training_state import BYTES_PER_PARAM, build_state, flatten, host_copy, state_bytes, tree_map  # noqa: E402

WRITERS = ("torch_save", "torch_save_gpu", "safetensors", "dcp", "plain_stream")
STREAM_PIECE = 4 << 20  # plain_stream's read() size: the read-sizes probe's and coldloads' plain reader


# ---------------------------------------------------------------- machine facts
def block_queue(path):
    """The block device under `path`: its kernel name (a virtio disk is vdX) and the queue settings the
    page cache's reads depend on (read_ahead_kb: the readahead window; max_sectors_kb: the largest
    request), as sysfs has them (a setting it cannot read is left out)."""
    sysfs = block_sysfs(path)
    queue = queue_settings(sysfs, ("read_ahead_kb", "max_sectors_kb", "max_segments", "rotational", "nr_requests"))
    queue["name"] = os.path.basename(os.path.realpath(sysfs))
    return queue


def machine_facts(torch, args, device):
    facts = {"hostname": platform.node(), "kernel": platform.release(), "python": platform.python_version(),
             "cpus": os.cpu_count(), "torch": torch.__version__, "torch_cuda": getattr(torch.version, "cuda", None),
             "torch_threads": torch.get_num_threads(), "gpu": None, "file_system": file_system_of(args.dir),
             "vm": vm_dirty_settings(), "transparent_hugepage": thp_mode(), "block_queue": block_queue(args.dir)}
    if device.type == "cuda":
        facts["gpu"] = {"name": torch.cuda.get_device_name(device), "index": device.index,
                        "memory_bytes": torch.cuda.get_device_properties(device).total_memory}
    try:
        import safetensors
        facts["safetensors"] = safetensors.__version__
    except ImportError:
        facts["safetensors"] = None
    try:  # whether torch.save computes its zip CRC-32 (torch.utils.serialization.config, torch 2.5 and later)
        import torch.utils.serialization as ser
        facts["torch_save_compute_crc32"] = bool(ser.config.save.compute_crc32)
    except (ImportError, AttributeError):
        facts["torch_save_compute_crc32"] = None
    return facts


# ---------------------------------------------------------------- timing
class Timer:
    """Times a call; also counts the process's page faults during it (getrusage), which say
    whether a copy went into memory the process had to fault in (new) or already had mapped, the
    process's CPU seconds (all its threads) and read() calls and bytes, and, where the disk under the
    work folder has a sysfs stat, the disk's reads, bytes and busy milliseconds (whether a phase kept
    the disk busy or left it idle while the CPU worked): checkpoint_host.measure_counted's counters."""

    def __init__(self, torch, device, sysfs):
        self.sync = torch.cuda.synchronize if device.type == "cuda" else None
        self.sysfs = sysfs
        self.faults = {}

    def __call__(self, fn):
        out, counted = measure_counted(fn, self.sysfs, sync=self.sync)
        elapsed = counted.pop("wall_s")
        self.faults = counted
        return out, elapsed


def phase(seconds, nbytes, faults=None, **extra):
    d = {"seconds": seconds, "bytes": nbytes, "bw_bytes": (nbytes / seconds) if seconds and seconds > 0 else None}
    d.update(faults or {})
    d.update(extra)
    return d


# ---------------------------------------------------------------- writers
class Writers:
    def __init__(self, torch, device, workdir, cpu_only):
        self.torch, self.device, self.workdir, self.cpu_only = torch, device, workdir, cpu_only
        self.time = Timer(torch, device, block_sysfs(workdir))
        self.unavailable = {}  # writer -> why, once it failed to run at all

    def to_host(self, state):
        # .cpu() allocates fresh pageable memory for each tensor, as torch.save does per storage.
        return self.time(lambda: host_copy(state))

    def to_device(self, obj):
        return self.time(lambda: tree_map(lambda t: t.to(self.device) if hasattr(t, "to") else t, obj))

    def _loads(self, rec, path, load, nbytes, sbytes, split=True):
        """Cold then warm: each load's read and (when split) host-to-device phases."""
        drop_cached(path)
        for temp in ("cold", "warm"):
            rec[f"resident_before_{temp}_load"] = resident_fraction(path)
            if split:
                host, t_read = self.time(lambda: load("cpu"))
                read_faults = self.time.faults
                dev, t_h2d = self.to_device(host)
                h2d_faults = self.time.faults
                rec["phases"][f"load_{temp}_read"] = phase(t_read, nbytes, read_faults)
                rec["phases"][f"load_{temp}_h2d"] = phase(t_h2d, 0 if self.cpu_only else sbytes, h2d_faults,
                                                         **({"skipped": "cpu-only"} if self.cpu_only else {}))
                rec["phases"][f"load_{temp}_total"] = phase(t_read + t_h2d, nbytes)
                del host, dev
            else:
                dev, t = self.time(lambda: load(self.device))
                rec["phases"][f"load_{temp}_total"] = phase(t, nbytes, self.time.faults)
                del dev
            gc.collect()

    def _save_split(self, rec, state, path, write):
        sbytes = state_bytes(state)
        host, t_d2h = self.to_host(state)
        rec["phases"]["d2h"] = phase(t_d2h, 0 if self.cpu_only else sbytes, self.time.faults,
                                     **({"skipped": "cpu-only"} if self.cpu_only else {}))
        _, t_write = self.time(lambda: write(host, path))
        write_faults = self.time.faults
        rec["dirty_after_write"] = dirty_now()
        nbytes = disk_bytes(path)
        rec["phases"]["serialize_write"] = phase(t_write, nbytes, write_faults)
        _, t_sync = self.time(lambda: fsync_path(path))
        rec["dirty_after_fsync"] = dirty_now()
        rec["phases"]["fsync"] = phase(t_sync, nbytes)
        rec["file_bytes"] = nbytes
        rec["save_durable_s"] = t_d2h + t_write + t_sync
        del host
        gc.collect()
        return nbytes, sbytes

    def torch_save(self, rec, state, path):
        torch = self.torch
        nbytes, sbytes = self._save_split(rec, state, path, lambda host, p: torch.save(host, p))
        self._loads(rec, path, lambda loc: torch.load(path, map_location=loc, weights_only=True), nbytes, sbytes)

    def torch_save_gpu(self, rec, state, path):
        torch = self.torch
        sbytes = state_bytes(state)
        _, t_save = self.time(lambda: torch.save(state, path))  # copies each storage to host itself
        save_faults = self.time.faults
        rec["dirty_after_write"] = dirty_now()
        nbytes = disk_bytes(path)
        rec["phases"]["save_call"] = phase(t_save, nbytes, save_faults)
        _, t_sync = self.time(lambda: fsync_path(path))
        rec["dirty_after_fsync"] = dirty_now()
        rec["phases"]["fsync"] = phase(t_sync, nbytes)
        rec["file_bytes"] = nbytes
        rec["save_durable_s"] = t_save + t_sync
        self._loads(rec, path, lambda loc: torch.load(path, map_location=loc, weights_only=True), nbytes, sbytes,
                    split=False)

    def safetensors(self, rec, state, path):
        from safetensors.torch import load_file, save_file

        def write(host, p):
            tensors, meta = flatten(host)
            save_file(tensors, p, metadata=meta)

        nbytes, sbytes = self._save_split(rec, state, path, write)
        self._loads(rec, path, lambda loc: load_file(path, device=str(loc)), nbytes, sbytes)

    def dcp(self, rec, state, path):
        import warnings

        import torch.distributed.checkpoint as dcp

        def write(host, p):
            # sync_files=False: the fsync phase below makes the files durable, as for the others.
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # "assuming the intent is to save in a single process"
                dcp.save(host, storage_writer=dcp.FileSystemWriter(p, sync_files=False))

        rec["notes"].append("dcp: one process without a process group; FileSystemWriter(sync_files=False), "
                            "then every file and the folder fsync'ed; loads go straight into the GPU state "
                            "(dcp.load in place), so each load is one read+h2d phase")
        nbytes, sbytes = self._save_split(rec, state, path, write)

        def load(_loc):
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                dcp.load(state, storage_reader=dcp.FileSystemReader(path))
            return None

        self._loads(rec, path, load, nbytes, sbytes, split=False)

    def plain_stream(self, rec, state, path):
        sbytes = state_bytes(state)
        block = os.urandom(1 << 20)
        nbytes = (sbytes + len(block) - 1) // len(block) * len(block)
        _, t_write = self.time(lambda: write_new_file(path, nbytes, block, sync=False))
        rec["phases"]["serialize_write"] = phase(t_write, nbytes, self.time.faults)
        _, t_sync = self.time(lambda: fsync_path(path))
        rec["phases"]["fsync"] = phase(t_sync, nbytes)
        rec["file_bytes"] = nbytes
        rec["save_durable_s"] = t_write + t_sync
        buf = bytearray(STREAM_PIECE)  # touched by its allocation: no fault inside the timed reads
        drop_cached(path)
        for temp in ("cold", "warm"):
            rec[f"resident_before_{temp}_load"] = resident_fraction(path)
            _, t_read = self.time(lambda: read_through(path, buf))
            rec["phases"][f"load_{temp}_read"] = phase(t_read, nbytes, self.time.faults)
            rec["phases"][f"load_{temp}_total"] = phase(t_read, nbytes)

    def run(self, writer, rec, state):
        path = os.path.join(self.workdir, {"safetensors": "state.safetensors", "dcp": "state.dcp",
                                               "plain_stream": "stream.bin"}.get(writer, "state.pt"))
        try:
            getattr(self, writer)(rec, state, path)
        except Exception as e:  # a writer that cannot run here is noted, the others go on
            rec["error"] = f"{type(e).__name__}: {e}"[:500]
            if writer in ("dcp", "safetensors") and not rec["phases"]:
                self.unavailable[writer] = rec["error"]
        finally:
            if os.path.isdir(path):
                shutil.rmtree(path, ignore_errors=True)
            elif os.path.exists(path):
                os.unlink(path)
            gc.collect()
            if self.device.type == "cuda":
                self.torch.cuda.empty_cache()


def probe_crc(torch, rounds=3, nbytes=1 << 30):
    """torch.save of one host tensor to /dev/shm, with and without compute_crc32, alternated."""
    try:
        import torch.utils.serialization as ser
        ser.config.save.compute_crc32
    except (ImportError, AttributeError):
        return {"error": "this torch has no torch.utils.serialization.config.save.compute_crc32"}
    folder = tempfile.mkdtemp(prefix="ckpt-crc-", dir="/dev/shm")
    t = torch.empty(nbytes, dtype=torch.uint8)
    t.random_(0, 256)
    result = {"bytes": nbytes, "with_crc_s": [], "without_crc_s": []}
    old = ser.config.save.compute_crc32
    try:
        for _ in range(rounds):
            for crc in (True, False):
                ser.config.save.compute_crc32 = crc
                path = os.path.join(folder, "t.pt")
                start = time.perf_counter()
                torch.save(t, path)
                result["with_crc_s" if crc else "without_crc_s"].append(time.perf_counter() - start)
                os.unlink(path)
    finally:
        ser.config.save.compute_crc32 = old
        shutil.rmtree(folder, ignore_errors=True)
    extra = statistics.median(result["with_crc_s"]) - statistics.median(result["without_crc_s"])
    result["crc_seconds_per_byte"] = extra / nbytes
    result["crc_bandwidth_bytes"] = nbytes / extra if extra > 0 else None
    print(f"# crc probe: torch.save 1 GiB to /dev/shm with CRC {statistics.median(result['with_crc_s']):.3f} s, "
          f"without {statistics.median(result['without_crc_s']):.3f} s", file=sys.stderr, flush=True)
    return result


# ---------------------------------------------------------------- main
def parse_size(text):
    m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+)\s*([kKmMgGtT]i?[bB])?\s*", text)
    if not m:
        raise argparse.ArgumentTypeError(f"{text!r} is not a size (e.g. 2, 8GB, 512MB, 2GiB)")
    units = {"kb": 1e3, "mb": 1e6, "gb": 1e9, "tb": 1e12, "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}
    value = float(m.group(1)) * (units[m.group(2).lower()] if m.group(2) else 1e9)
    if value < BYTES_PER_PARAM:
        raise argparse.ArgumentTypeError(f"{text!r} is too small for one parameter")
    return int(value)


def _terminate(signum, frame):
    raise KeyboardInterrupt  # a term signal unwinds like ^C, so the files are removed


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    ap.add_argument("sizes", nargs="+", type=parse_size, help="state sizes: GB, or with a unit (512MB, 2GiB)")
    ap.add_argument("--dir", required=True, help="existing folder for the checkpoint files (removed at the end)")
    ap.add_argument("--output", required=True, help="JSON file for the records (written atomically)")
    ap.add_argument("--rounds", type=int, default=3, help="rounds per size (default 3; medians need 3 or more)")
    ap.add_argument("--tensors", type=int, default=128, help="parameter tensors in the state (default 128)")
    ap.add_argument("--writers", default=",".join(WRITERS), help=f"comma-separated subset of {','.join(WRITERS)}")
    ap.add_argument("--gpu", type=int, default=0, help="GPU index (default 0)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--crc-probe", action="store_true", help="first time torch.save of a 1 GiB host tensor to "
                    "/dev/shm with and without its zip CRC-32 (3 rounds each, no disk in the way): this machine's "
                    "per-byte cost of the CRC pass, measured apart from the checkpoints")
    ap.add_argument("--cpu-only", action="store_true", help="no GPU: the state stays in host memory (a logic check; "
                    "d2h and h2d phases are marked skipped)")
    args = ap.parse_args(argv)
    writers = [w for w in args.writers.split(",") if w]
    for w in writers:
        if w not in WRITERS:
            ap.error(f"--writers: unknown writer {w!r} (expected some of {', '.join(WRITERS)})")
    if args.rounds < 1 or args.tensors < 1:
        ap.error("--rounds and --tensors must be at least 1")
    if not os.path.isdir(args.dir):
        ap.error(f"--dir {args.dir} is not an existing folder")
    if args.cpu_only and "torch_save_gpu" in writers and args.writers == ",".join(WRITERS):
        writers.remove("torch_save_gpu")  # the same as torch_save without a GPU
    free = shutil.disk_usage(args.dir).free
    if max(args.sizes) * 1.05 + (64 << 20) > free:
        ap.error(f"--dir has {free / 1e9:.1f} GB free, less than the largest checkpoint ({max(args.sizes) / 1e9:.1f} GB) needs")

    import torch  # after the arguments, so --help works without it

    device = torch.device("cpu") if args.cpu_only else torch.device("cuda", args.gpu)
    if not args.cpu_only and not torch.cuda.is_available():
        ap.error("no CUDA GPU is visible to torch; use --cpu-only for a logic check")
    notes = []
    if args.rounds < 3:
        notes.append(f"{args.rounds} round(s): medians and spreads need 3 or more")
    avail = read_meminfo().get("MemAvailable")
    if avail and 2.2 * max(args.sizes) > avail:
        notes.append(f"MemAvailable {avail / 1e9:.1f} GB is less than 2.2x the largest state: host copies and the "
                     "page cache compete, and the warm loads may not be warm")
    signal.signal(signal.SIGTERM, _terminate)

    meminfo_before = read_meminfo()
    facts = machine_facts(torch, args, device)
    workdir = tempfile.mkdtemp(prefix="ckpt-frameworks-", dir=args.dir)
    records = []
    try:
        w = Writers(torch, device, workdir, args.cpu_only)
        # One small untimed pass: CUDA's context, the allocators and the imports are set up.
        warm = build_state(torch, 64 * BYTES_PER_PARAM * 1024, 4, device, args.seed)
        for writer in writers:
            w.run(writer, {"phases": {}, "notes": []}, warm)
        del warm
        crc_probe = probe_crc(torch) if args.crc_probe else None
        for size in args.sizes:
            state = build_state(torch, size, args.tensors, device, args.seed)
            sbytes = state_bytes(state)
            for rnd in range(1, args.rounds + 1):
                for writer in rotated(writers, rnd - 1):
                    if writer in w.unavailable:
                        continue
                    rec = {"writer": writer, "size_bytes": size, "state_bytes": sbytes, "tensors": args.tensors,
                           "round": rnd, "device": str(device), "phases": {}, "notes": [], "error": None}
                    w.run(writer, rec, state)
                    records.append(rec)
                    status = rec["error"] or f"saved durable in {rec.get('save_durable_s', 0):.3f} s"
                    print(f"# {writer} {size / 1e9:.2f} GB round {rnd}: {status}", file=sys.stderr, flush=True)
            del state
            gc.collect()
            if device.type == "cuda":
                torch.cuda.empty_cache()
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    for writer, why in w.unavailable.items():
        notes.append(f"{writer} skipped after its first attempt failed: {why}")
    facts["meminfo_before"] = meminfo_before
    facts["meminfo_after"] = read_meminfo()
    summary = summarize(records)
    doc = {"iowall_version": "checkpoint-frameworks-1", "timestamp": int(time.time()),
           "iowall": {"tool": "scripts/checkpoint-frameworks.py", "machine": facts,
                      "options": {"sizes_bytes": args.sizes, "rounds": args.rounds, "tensors": args.tensors,
                                  "writers": writers, "gpu": None if args.cpu_only else args.gpu,
                                  "seed": args.seed, "cpu_only": args.cpu_only,
                                  "bytes_per_param": BYTES_PER_PARAM},
                      "records": records, "summary": summary, "crc_probe": crc_probe, "notes": notes}}
    write_atomically(args.output, json.dumps(doc, indent=1) + "\n")
    print_summary(summary)
    for n in notes:
        print(f"note: {n}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
