"""Host-side helpers of scripts/checkpoint-frameworks.py: what the machine is (memory, vm.dirty_*,
transparent huge pages, the file system of a folder) and what its page cache holds (mincore),
dropping a file's cached pages (POSIX_FADV_DONTNEED), making files durable (fsync of the files
and their folder), and writing a result file atomically. Standard library only.
"""
import argparse
import ctypes
import json
import os
import re
import shutil
import sys
import tempfile
import time


# ---------------------------------------------------------------- machine facts
def timed(fn):
    """Seconds fn() took (perf_counter)."""
    t = time.perf_counter()
    fn()
    return time.perf_counter() - t


def read_proc_fields(path, keys=None):
    """The integer fields of a /proc file of "key: value [kB]" or "key value" lines (/proc/meminfo,
    /proc/self/io, /proc/vmstat), kB scaled to bytes; only `keys` when given; {} where unreadable."""
    out = {}
    try:
        with open(path) as f:
            for line in f:
                key, sep, rest = line.partition(":")
                parts = rest.split() if sep else line.split()[1:]
                key = key.strip() if sep else line.split()[0]
                if parts and (keys is None or key in keys) and parts[0].lstrip("-").isdigit():
                    out[key] = int(parts[0]) * (1024 if len(parts) > 1 and parts[1] == "kB" else 1)
    except (OSError, IndexError):
        pass
    return out


def read_meminfo():
    return read_proc_fields("/proc/meminfo")


def vm_dirty_settings():
    out = {}
    for name in ("dirty_ratio", "dirty_background_ratio", "dirty_bytes", "dirty_background_bytes",
                 "dirty_expire_centisecs", "dirty_writeback_centisecs"):
        try:
            with open("/proc/sys/vm/" + name) as f:
                out[name] = int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            out[name] = None
    return out


def thp_mode():
    try:
        with open("/sys/kernel/mm/transparent_hugepage/enabled") as f:
            m = re.search(r"\[(\w+)\]", f.read())
            return m.group(1) if m else None
    except OSError:
        return None


def file_system_of(path):
    """The mount that holds `path`: the longest mount point that prefixes its real path."""
    real = os.path.realpath(path)
    best = None
    try:
        with open("/proc/self/mounts") as f:
            for line in f:
                dev, mnt, fstype = line.split()[:3]
                mnt = mnt.replace("\\040", " ")
                if (real == mnt or real.startswith(mnt.rstrip("/") + "/")) and (best is None or len(mnt) > len(best[1])):
                    best = (dev, mnt, fstype)
    except OSError:
        pass
    st = os.statvfs(path)
    return {"device": best[0] if best else None, "mount_point": best[1] if best else None,
            "type": best[2] if best else None, "block_size": st.f_bsize,
            "free_bytes": st.f_bavail * st.f_frsize}


# ---------------------------------------------------------------- probes
def probe_parser(doc, output=True):
    """A probe's argument parser: its module doc as the help, and (with `output`) --output, the result's
    JSON."""
    ap = argparse.ArgumentParser(description=doc.split("\n\n")[0], epilog=doc,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    if output:
        ap.add_argument("--output", required=True)
    return ap


def probe_arguments(doc, extra=None):
    """The probes' common command line (--dir, --output, --size-gib, --rounds; `extra(ap)` adds a
    probe's own), checked: returns the arguments and the size in bytes; bad values end the run with
    one line and exit code 2."""
    ap = probe_parser(doc)
    if extra:
        extra(ap)
    ap.add_argument("--dir", required=True, help="existing folder on the disk to probe")
    ap.add_argument("--size-gib", type=int, default=4)
    ap.add_argument("--rounds", type=int, default=3)
    args = ap.parse_args()
    if not os.path.isdir(args.dir):
        ap.error(f"--dir {args.dir}: not an existing folder")
    if args.size_gib < 1 or args.rounds < 1:
        ap.error("--size-gib and --rounds must be at least 1")
    size = args.size_gib << 30
    if shutil.disk_usage(args.dir).free < size + (256 << 20):
        ap.error(f"--dir has less free space than {args.size_gib} GiB")
    return args, size


def state_probe_arguments(doc, tool):
    """probe_arguments for a probe of checkpoint states, with --sizes-gb (default 2,8) and --tensors (default
    128, the checkpoint runs'), checked: returns the arguments and the sizes in GB; bad values end the run
    with one line naming `tool` and exit code 2."""
    def options(ap):
        ap.add_argument("--sizes-gb", default="2,8")
        ap.add_argument("--tensors", type=int, default=128)

    args, _ = probe_arguments(doc, options)
    sizes = sizes_gb(args.sizes_gb)
    if not sizes or args.tensors < 1:
        print(f"{tool}: --sizes-gb needs sizes above 0, --tensors at least 1", file=sys.stderr)
        sys.exit(2)
    return args, sizes


def rotated(items, r):
    """`items` started at r modulo their count: a probe's cases in round r, so that no case is always first."""
    k = r % len(items)
    return items[k:] + items[:k]


def read_through(path, buf):
    """The file read from start to end in readinto()s of `buf` (unbuffered), the bytes dropped."""
    with open(path, "rb", buffering=0) as f:
        while f.readinto(buf):
            pass


def sizes_gb(text, zero_ok=False):
    """A --sizes-gb value: comma-separated sizes in GB, each above 0 (or 0 and above with zero_ok); None
    where any is not a number or is out of range, or there is none."""
    try:
        sizes = [float(x) for x in text.split(",")]
    except ValueError:
        return None
    if not sizes or min(sizes) < 0 or (min(sizes) == 0 and not zero_ok):
        return None
    return sizes


# ---------------------------------------------------------------- page cache
_libc = None


def _c():
    global _libc
    if _libc is None:
        _libc = ctypes.CDLL(None, use_errno=True)
        _libc.mmap.restype = ctypes.c_void_p
        _libc.mmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.c_int, ctypes.c_int, ctypes.c_int,
                               ctypes.c_long]
        _libc.munmap.argtypes = [ctypes.c_void_p, ctypes.c_size_t]
        _libc.mincore.argtypes = [ctypes.c_void_p, ctypes.c_size_t, ctypes.POINTER(ctypes.c_ubyte)]
    return _libc


_LOW_BIT = bytes(i & 1 for i in range(256))


def files_under(path):
    if os.path.isdir(path):
        return sorted(os.path.join(d, f) for d, _, fs in os.walk(path) for f in fs)
    return [path]


def _resident_vectors(path):
    """(file, offset, mincore vector) of each 1 GiB piece of the file (or folder's files); raises
    OSError where the page cache cannot be asked."""
    libc = _c()
    for name in files_under(path):
        size = os.path.getsize(name)
        fd = os.open(name, os.O_RDONLY)
        try:
            for off in range(0, size, 1 << 30):
                length = min(1 << 30, size - off)
                addr = libc.mmap(None, length, 1, 1, fd, off)  # PROT_READ, MAP_SHARED: faults nothing in
                if addr in (None, ctypes.c_void_p(-1).value):
                    raise OSError("mmap")
                pages = (length + PAGE - 1) // PAGE
                vec = (ctypes.c_ubyte * pages)()
                rc = libc.mincore(addr, length, vec)
                libc.munmap(addr, length)
                if rc != 0:
                    raise OSError("mincore")
                yield name, off, bytes(vec).translate(_LOW_BIT)  # bit 0: resident
        finally:
            os.close(fd)


PAGE = os.sysconf("SC_PAGE_SIZE")


def resident_fraction(path):
    """Share of the file's (or folder's files') pages in the page cache (mincore), None if unknown."""
    try:
        resident = total = 0
        for _, _, vec in _resident_vectors(path):
            resident += vec.count(1)
            total += len(vec)
        return resident / total if total else None
    except (OSError, AttributeError):
        return None


def resident_runs(path):
    """The file's byte ranges in the page cache, pages being read included, as [start, end) pairs
    (mincore); None if unknown."""
    try:
        runs = []
        for _, off, vec in _resident_vectors(path):
            i = vec.find(1)
            while i >= 0:
                j = vec.find(0, i)
                j = len(vec) if j < 0 else j
                start, end = off + i * PAGE, off + j * PAGE
                if runs and runs[-1][1] == start:
                    runs[-1][1] = end
                else:
                    runs.append([start, end])
                i = vec.find(1, j)
        return runs
    except (OSError, AttributeError):
        return None


def drop_cached(path):
    """Drops clean cached pages of the file(s): their data is untouched, the next read is cold."""
    for name in files_under(path):
        fd = os.open(name, os.O_RDONLY)
        try:
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)


def fsync_path(path):
    """fsync every file, then the folder(s) holding them (their directory entries)."""
    dirs = set()
    for name in files_under(path):
        fd = os.open(name, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)
        dirs.add(os.path.dirname(name))
    dirs.add(os.path.dirname(path.rstrip("/")))
    for d in dirs:
        fd = os.open(d, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


class scratch_folder:
    """A folder made under `parent` for a probe's files (mkdtemp: never an existing one), removed with
    everything in it when the with-block ends, however it ends."""

    def __init__(self, parent, prefix):
        self.parent, self.prefix = parent, prefix

    def __enter__(self):
        self.path = tempfile.mkdtemp(prefix=self.prefix, dir=self.parent)
        return self.path

    def __exit__(self, *exc):
        shutil.rmtree(self.path, ignore_errors=True)


def write_new_file(path, size, block=None, sync=True):
    """Creates `path` (never an existing file: O_EXCL), writes `size` bytes of it in 1 MiB write()s of
    `block` (1 MiB of random bytes unless given) and fsyncs it (unless `sync` is False: a caller that
    times the fsync apart)."""
    block = block or os.urandom(1 << 20)
    fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    try:
        for _ in range(size // len(block)):
            os.write(fd, block)
        if sync:
            os.fsync(fd)
    finally:
        os.close(fd)


def map_file(path, size):
    """A read-only shared mapping of the file's first `size` bytes (the descriptor closed at once:
    the mapping keeps the file)."""
    import mmap
    fd = os.open(path, os.O_RDONLY)
    try:
        return mmap.mmap(fd, size, prot=mmap.PROT_READ)
    finally:
        os.close(fd)


def read_direct_threads(path, size, bufs):
    """O_DIRECT reads of the file's first `size` bytes from one thread per entry of `bufs` (a list of
    lists of equal touched buffers): thread k reads pieces k, k + n, k + 2n, ... (n threads, a piece
    the buffers' length) into its buffers in turn, so n pieces are in flight and the reads land in
    n x len(bufs[k]) buffers cycled."""
    import threading
    piece = len(bufs[0][0])

    def reader(k):
        fd = os.open(path, os.O_RDONLY | os.O_DIRECT)
        try:
            for i, off in enumerate(range(k * piece, size, len(bufs) * piece)):
                os.preadv(fd, [bufs[k][i % len(bufs[k])]], off)
        finally:
            os.close(fd)
    ts = [threading.Thread(target=reader, args=(k,)) for k in range(len(bufs))]
    for t in ts:
        t.start()
    for t in ts:
        t.join()


def touched_buffer(nbytes):
    """An anonymous mapping of `nbytes`, every page written once (mapped before any timed copy into
    it), and a memoryview of it."""
    import mmap
    m = mmap.mmap(-1, nbytes)
    m[:] = b"\1" * nbytes
    return m, memoryview(m)


def process_counters(sysfs, vmstat_keys=()):
    """This process's page faults and CPU seconds (getrusage), its read() calls and bytes (/proc/self/io),
    the machine's `vmstat_keys` and the disk's read counters (disk_*)."""
    import resource
    from disk_counters import disk_read_stat
    ru = resource.getrusage(resource.RUSAGE_SELF)
    return {"minor_faults": ru.ru_minflt, "major_faults": ru.ru_majflt, "cpu_s": ru.ru_utime + ru.ru_stime,
            **read_proc_fields("/proc/self/io", ("rchar", "syscr", "read_bytes")),
            **read_proc_fields("/proc/vmstat", vmstat_keys),
            **{f"disk_{k}": v for k, v in (disk_read_stat(sysfs) or {}).items()}}


def measure_counted(fn, sysfs, vmstat_keys=(), sync=None):
    """Runs fn() (sync() before and after, where given: a GPU's) and returns its result and a record of
    wall seconds and process_counters' deltas."""
    from disk_counters import counter_delta
    if sync:
        sync()
    c0, t0 = process_counters(sysfs, vmstat_keys), time.perf_counter()
    out = fn()
    if sync:
        sync()
    wall = time.perf_counter() - t0
    return out, {"wall_s": wall, **counter_delta(c0, process_counters(sysfs, vmstat_keys))}


def disk_bytes(path):
    return sum(os.path.getsize(n) for n in files_under(path))


def dirty_now():
    m = read_meminfo()
    return {"dirty_bytes": m.get("Dirty"), "writeback_bytes": m.get("Writeback")}


def torch_or_exit(tool, gpu=False):
    """PyTorch for a probe named `tool`, or one line on stderr and exit code 2 where it cannot import, or where
    `gpu` is asked and PyTorch sees none."""
    try:
        import torch
    except ImportError:
        print(f"{tool}: needs PyTorch (import torch failed)", file=sys.stderr)
        sys.exit(2)
    if gpu and not torch.cuda.is_available():
        print(f"{tool}: no GPU visible to PyTorch", file=sys.stderr)
        sys.exit(2)
    return torch


def finish_probe(output, doc, summary):
    """Writes a probe's result (doc, with its summary) atomically to `output` and prints each summary
    line."""
    doc["summary"] = summary
    write_atomically(output, json.dumps(doc, indent=1))
    for k, v in summary.items():
        print(k, json.dumps({a: round(b, 4) for a, b in v.items()}))


def write_atomically(path, text):
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix=".ckpt-frameworks-", dir=folder)
    try:
        with os.fdopen(fd, "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        os.unlink(tmp)
        raise
