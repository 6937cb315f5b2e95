"""The disk's side of the host probes: which block device a folder's file system sits on, its queue
settings, its read, write and flush counters from sysfs `stat` (Documentation/block/stat.rst), and its
in-flight requests sampled by a process of their own. Standard library only.
"""
import os
import time


def block_sysfs(path):
    """The sysfs folder of the disk the file system under `path` sits on (a partition's queue and
    counters are its disk's)."""
    st = os.stat(path)
    base = f"/sys/dev/block/{os.major(st.st_dev)}:{os.minor(st.st_dev)}"
    return base if os.path.isdir(f"{base}/queue") else f"{base}/.."


def queue_settings(sysfs, names=None):
    """The disk's block queue settings (read_ahead_kb, max_sectors_kb, ...; all of them unless
    `names`), as sysfs writes them, and its hardware queue count, where readable."""
    out = {}
    try:
        for name in names or sorted(os.listdir(f"{sysfs}/queue")):
            try:
                with open(f"{sysfs}/queue/{name}") as f:
                    text = f.read().strip()
                out[name] = int(text) if text.lstrip("-").isdigit() else text
            except OSError:
                continue
    except OSError:
        pass
    try:
        out["hw_queues"] = len(os.listdir(f"{sysfs}/mq"))
    except OSError:
        pass
    return out


def counter_delta(before, after):
    """after - before for each counter both readings hold ({} where either is unreadable: None or {})."""
    return {k: after[k] - before[k] for k in (before or {}) if k in (after or {})}


def disk_read_stat(sysfs):
    """The disk's read counters from its sysfs stat (reads, merges, bytes read, summed read time
    in ms, busy time in ms); None where unreadable."""
    return _disk_stat(sysfs, 0, "read")


def disk_write_stat(sysfs):
    """The same for writes (writes, merges, bytes written, summed write time in ms, busy time in
    ms), and the disk's cache flushes (flushes, summed flush time in ms; 0 where the kernel has no
    such fields)."""
    out = _disk_stat(sysfs, 4, "write")
    if out is not None:
        out.update(_disk_stat(sysfs, 15, "flush", flush=True) or {"flushes": 0, "flush_ticks_ms": 0})
    return out


def _disk_stat(sysfs, first, kind, flush=False):
    # Documentation/block/stat.rst: reads at 0-3, writes at 4-7, in flight 8, io_ticks 9,
    # discards at 11-14, flushes at 15-16.
    try:
        with open(f"{sysfs}/stat") as f:
            v = [int(x) for x in f.read().split()]
        if flush:
            return {"flushes": v[15], "flush_ticks_ms": v[16]}
        return {f"{kind}s": v[first], "merges": v[first + 1], "bytes": v[first + 2] * 512,
                f"{kind}_ticks_ms": v[first + 3], "busy_ms": v[9]}
    except (OSError, ValueError, IndexError):
        return None


_SAMPLER_LOOP = """
import sys, time
path, period = sys.argv[1], float(sys.argv[2])
fields = [int(x) for x in sys.argv[3].split(",")]
out = sys.stdout
while True:
    try:
        with open(path) as f:
            v = f.read().split()
        row = " ".join(v[i] for i in fields)
    except (OSError, ValueError, IndexError):
        break
    out.write("%.6f %s\\n" % (time.perf_counter(), row))
    out.flush()
    time.sleep(period)
"""


class StatSampler:
    """Fields of a sysfs file (whitespace-separated integers: a disk's `stat`, its `inflight`) every
    `period` s, sampled by a process of its own (a thread of the measured process would stall wherever
    the code measured holds Python's GIL), kept as a series of (perf_counter seconds, field values...) on
    the measuring process's clock (CLOCK_MONOTONIC, shared by processes)."""

    def __init__(self, path, fields, period=0.002):
        import sys
        self.args = [sys.executable, "-c", _SAMPLER_LOOP, path, str(period), ",".join(str(f) for f in fields)]
        self.series = []

    def __enter__(self):
        import subprocess
        self.proc = subprocess.Popen(self.args, stdout=subprocess.PIPE, text=True)
        time.sleep(0.05)  # the sampler's interpreter starts before the measured code does
        return self

    def __exit__(self, *exc):
        self.proc.terminate()
        out, _ = self.proc.communicate()
        for line in out.splitlines():
            try:
                t, *values = line.split()
                self.series.append((float(t), *(int(v) for v in values)))
            except ValueError:
                continue


class InflightSampler(StatSampler):
    """The disk's in-flight reads (writes with writes=True) every `period` s (StatSampler on its
    `inflight` file), as a series of (perf_counter seconds, requests) and as a histogram."""

    def __init__(self, sysfs, period=0.002, writes=False):
        super().__init__(f"{sysfs}/inflight", [1 if writes else 0], period)
        self.hist = {}

    def __exit__(self, *exc):
        super().__exit__(*exc)
        for _, n in self.series:
            self.hist[n] = self.hist.get(n, 0) + 1
