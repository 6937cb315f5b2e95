#!/usr/bin/env python3
"""What a virtual machine's memory costs the first time it is written after lying free: free page
reporting, measured, and what it does to a cold page-cache fill.

A guest whose virtio-balloon device offers free page reporting (VIRTIO_BALLOON_F_REPORTING, feature
bit 5; Linux mm/page_reporting.c) tells the host, about two seconds after memory is freed
(PAGE_REPORTING_DELAY), which free blocks of at least page_reporting_order (a pageblock, 2 MiB on
x86) it holds; the host drops their backing. The next write to such memory faults on the host
(its page allocated and zeroed there) whoever writes it: the guest's CPU zeroing a new anonymous
page, or the virtual disk's host thread copying a read into a page-cache page. Memory freed less
than a reporting pass ago is still backed and costs the guest's work alone. Each case below runs
--rounds times, interleaved:
  populate_settled  --settle s after the last free, a fresh anonymous mapping of --populate-gib GiB
                    written by MADV_POPULATE_WRITE (the guest's page faults and zeroing), timed;
                    then unmapped
  populate_again    at once, the same again: the memory just freed is still backed on the host,
                    so the difference per byte is the host's first-touch cost
  fill_at_once      a cold buffered read (4 MiB readinto()s into memory already mapped) of one file
                    of --size-gib GiB, started as soon as the mapping above is freed
  fill_settled      the same, --settle s after the file's pages were dropped (everything free has
                    been reported)
  mapped_at_once, mapped_settled  the file mapped and one byte of each page read in order (the
                    disk kept busy: no copy between the reader's calls), at once / settled
  direct_32m        the disk's rate without the page cache: O_DIRECT 4 MiB reads from 4 threads,
                    each cycling two 4 MiB buffers (32 MiB of memory, backed and cold in the host's
                    CPU cache, as a page-cache fill's pages are): the control for drift
For each: wall seconds, the thread's CPU seconds, the disk's counters from sysfs (busy time:
the rate per busy second is what the disk's host thread managed while it had work). Recorded: the
virtio devices and their feature bits, page_reporting_order, transparent huge pages, memory.
Nothing is changed on the machine: only a folder made under --dir is written, and removed at the end.
usage: scripts/probe-guest-memory.py --dir /var/tmp --output gm.json [--size-gib 4] [--rounds 3]
       [--populate-gib 8] [--settle 10]
"""
import glob
import mmap
import os
import platform
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from checkpoint_host import (drop_cached, finish_probe, map_file, probe_arguments, read_meminfo,  # noqa: E402
                             read_direct_threads, read_proc_fields, read_through, scratch_folder, thp_mode,
                             touched_buffer, write_new_file)
from disk_counters import (block_sysfs, counter_delta, disk_read_stat)  # noqa: E402

MIB = 1 << 20
MADV_POPULATE_WRITE = getattr(mmap, "MADV_POPULATE_WRITE", 23)  # Linux 5.14
VMSTAT = ("pgfault", "thp_fault_alloc", "pgalloc_normal", "pgfree", "nr_free_pages")


def read_text(path):
    """A sysfs or proc file's text, stripped; None where unreadable."""
    try:
        with open(path) as f:
            return f.read().strip()
    except OSError:
        return None


def virtio_devices():
    """Each virtio device: its id (5: balloon, 2: block), driver and offered feature bits."""
    out = []
    for d in sorted(glob.glob("/sys/bus/virtio/devices/*")):
        rec = {"name": os.path.basename(d)}
        rec.update({key: text for key in ("device", "features") if (text := read_text(f"{d}/{key}")) is not None})
        try:
            rec["driver"] = os.path.basename(os.readlink(f"{d}/driver"))
        except OSError:
            pass
        bits = rec.get("features", "")
        rec["feature_bits"] = [i for i, c in enumerate(bits) if c == "1"]
        out.append(rec)
    return out


def reporting_facts(devices):
    balloon = [d for d in devices if d.get("device") == "0x0005"]
    names = sorted(os.listdir(REPORTING)) if os.path.isdir(REPORTING) else []
    params = {name: text for name in names if (text := read_text(f"{REPORTING}/{name}")) is not None}
    cmdline = [w for w in (read_text("/proc/cmdline") or "").split() if "report" in w or "balloon" in w]
    return {"balloon": bool(balloon), "parameters": params, "cmdline": cmdline,
            "free_page_reporting": any(5 in d["feature_bits"] for d in balloon)}


REPORTING = "/sys/module/page_reporting/parameters"


def reporting_counters():
    """The guest kernel's page-reporting counters where it exposes them (reported_kib, passes: a
    platform's own parameters, absent from mainline Linux); {} otherwise."""
    texts = {name: read_text(f"{REPORTING}/{name}") for name in ("reported_kib", "passes", "walked")}
    return {name: int(t) for name, t in texts.items() if t is not None and t.isdigit()}


def measure(fn, sysfs):
    d0, v0, p0 = disk_read_stat(sysfs), read_proc_fields("/proc/vmstat", VMSTAT), reporting_counters()
    c0, t0 = time.thread_time(), time.perf_counter()
    fn()
    wall, cpu = time.perf_counter() - t0, time.thread_time() - c0
    d1, v1, p1 = disk_read_stat(sysfs), read_proc_fields("/proc/vmstat", VMSTAT), reporting_counters()
    rec = {"wall_s": wall, "thread_cpu_s": cpu, "vmstat": counter_delta(v0, v1),
           "reporting": counter_delta(p0, p1)}
    if disk := counter_delta(d0, d1):
        rec["disk"] = disk
    return rec


def main():
    def extra(ap):
        ap.add_argument("--populate-gib", type=int, default=8)
        ap.add_argument("--settle", type=float, default=10.0)
    args, size = probe_arguments(__doc__, extra)
    avail = read_meminfo().get("MemAvailable", 0)
    pop_bytes = min(args.populate_gib << 30, int(avail * 0.4)) // (2 * MIB) * (2 * MIB)
    if pop_bytes < 256 * MIB or args.settle < 0:
        print(f"probe-guest-memory: --populate-gib {args.populate_gib} and --settle {args.settle} leave "
              f"nothing to measure ({avail >> 20} MiB available)", file=sys.stderr)
        return 2
    sysfs = block_sysfs(args.dir)
    dst, dst_mv = touched_buffer(4 * MIB)
    direct_bufs = [[touched_buffer(4 * MIB)[0] for _ in range(2)] for _ in range(4)]
    records = []
    with scratch_folder(args.dir, "iowall-guest-memory-") as work:
        path = os.path.join(work, "file.bin")
        write_new_file(path, size)

        def populate():
            m = mmap.mmap(-1, pop_bytes, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS)
            try:
                m.madvise(MADV_POPULATE_WRITE)
            finally:
                m.close()

        def fill():
            read_through(path, dst_mv)

        def mapped():
            m = map_file(path, size)
            s = 0
            for off in range(0, size, 4096):
                s += m[off]
            m.close()

        def direct():
            read_direct_threads(path, size, direct_bufs)

        # (name, what, seconds to wait first, drop the file's pages first)
        cases = [("populate_settled", populate, args.settle, False),
                 ("populate_again", populate, 0, False),
                 ("fill_at_once", fill, 0, True),
                 ("fill_settled", fill, args.settle, True),
                 ("mapped_at_once", mapped, 0, True),
                 ("mapped_settled", mapped, args.settle, True),
                 ("direct_32m", direct, 0, True)]
        for r in range(1, args.rounds + 1):
            rec = {"round": r}
            for name, fn, wait, drop in cases:
                if drop:
                    drop_cached(path)
                p0 = reporting_counters()
                time.sleep(wait)
                p1 = reporting_counters()
                rec[name] = measure(fn, sysfs)
                rec[name]["reporting_before"] = counter_delta(p0, p1)
            records.append(rec)
            print(f"# round {r}: " + ", ".join(f"{n} {rec[n]['wall_s']:.3f}" for n, _, _, _ in cases),
                  file=sys.stderr, flush=True)

    summary = {}
    for name, *_ in cases:
        runs = [rec[name] for rec in records]
        nbytes = pop_bytes if name.startswith("populate") else size
        med = statistics.median(x["wall_s"] for x in runs)
        s = {"median_s": med, "min_s": min(x["wall_s"] for x in runs), "max_s": max(x["wall_s"] for x in runs),
             "gb_per_s": nbytes / med / 1e9, "cpu_s": statistics.median(x["thread_cpu_s"] for x in runs)}
        if all("reported_kib" in x["reporting"] for x in runs):
            s["reported_mib"] = statistics.median(x["reporting"]["reported_kib"] / 1024 for x in runs)
        if not name.startswith("populate") and all("disk" in x for x in runs):
            busy = statistics.median(x["disk"]["busy_ms"] / 1e3 / x["wall_s"] for x in runs)
            s["disk_busy_share"] = busy
            s["gb_per_busy_s"] = statistics.median(nbytes / (x["disk"]["busy_ms"] / 1e3) / 1e9 for x in runs
                                                   if x["disk"]["busy_ms"] > 0)
        summary[name] = s
    first = [(rec["populate_settled"]["wall_s"] - rec["populate_again"]["wall_s"]) / pop_bytes * 1e9 for rec in records]
    summary["host_first_touch"] = {"ns_per_byte": statistics.median(first), "min": min(first), "max": max(first)}
    devices = virtio_devices()
    doc = {"tool": "probe-guest-memory", "kernel": platform.release(), "thp": thp_mode(),
           "reporting": reporting_facts(devices), "virtio_devices": devices,
           "memory": {k: read_meminfo().get(k) for k in ("MemTotal", "MemFree", "MemAvailable")},
           "file_bytes": size, "populate_bytes": pop_bytes, "rounds": args.rounds, "settle_s": args.settle,
           "records": records}
    finish_probe(args.output, doc, summary)
    return 0


if __name__ == "__main__":
    sys.exit(main())
