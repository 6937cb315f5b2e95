"""Reading one GPU-machine session's measurements for scripts/checkpoint-derive.py: its phases unpacked
where they were kept as the run's archives, `iowall calibrate` on its reads and writes, the host's copy
and fault costs from copies/, the frameworks' checkpoints, and the costs its own probes give (mapped-load,
writeback). Each value comes back with the line that says where it came from.
"""
import glob
import json
import os
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def die(msg):
    print(f"checkpoint-derive: {msg}", file=sys.stderr)
    sys.exit(2)


def rel(path):
    return os.path.relpath(path, ROOT)


def unpack_phases(session):
    """Unpacks each PHASE.tar.gz of the session whose PHASE folder is missing, in place (the names the
    run packed), refusing an archive with a member outside its PHASE folder."""
    import tarfile
    for archive in sorted(glob.glob(os.path.join(session, "*.tar.gz"))):
        phase = os.path.basename(archive)[:-len(".tar.gz")]
        if os.path.isdir(os.path.join(session, phase)):
            continue
        try:
            with tarfile.open(archive) as tar:
                members = tar.getmembers()
                bad = [m.name for m in members if not (m.isfile() or m.isdir())
                       or os.path.normpath(m.name).split(os.sep)[0] != phase or ".." in m.name.split("/")]
                if bad:
                    die(f"{rel(archive)}: member {bad[0]!r} is not a file under {phase}/")
                tar.extractall(session, members=members)
        except (OSError, tarfile.TarError) as e:
            die(f"{rel(archive)}: {e}")


def copy_runs(session, name):
    files = sorted(glob.glob(os.path.join(session, "copies", f"{name}-r*.json")))
    if not files:
        die(f"{rel(os.path.join(session, 'copies'))}: no {name}-r*.json")
    return [json.load(open(f))["jobs"][0] for f in files], files


def median_bw(session, name):
    jobs, files = copy_runs(session, name)
    return statistics.median(j["copy"]["bw_bytes"] for j in jobs), files


def gbs(x):
    return f"{x / 1e9:.4g} GB/s"


def us(x):
    return f"{x * 1e6:.4g} us"


def host_costs(session):
    """The copy and fault costs, each with its source line."""
    out, src = {}, {}
    size = 2 << 30
    staged_d2h, f1 = median_bw(session, "d2h-pageable-none-256M")
    staged_h2d, f2 = median_bw(session, "h2d-pageable-none-256M")
    out["staged_d2h_bandwidth"], out["staged_h2d_bandwidth"] = gbs(staged_d2h), gbs(staged_h2d)
    src["staged_d2h_bandwidth"] = f"d2h into reused pageable memory in 256 MiB calls, median of {len(f1)}"
    src["staged_h2d_bandwidth"] = f"h2d from reused pageable memory in 256 MiB calls, median of {len(f2)}"
    jobs, f3 = copy_runs(session, "d2h-pinned-none-4K")
    call = statistics.median(j["copy"]["lat_ns"]["percentile"]["50.000000"] for j in jobs) * 1e-9
    out["copy_call_cost"] = us(call)
    src["copy_call_cost"] = f"a 4 KiB copy into pinned memory, median call of each run, median of {len(f3)}"
    small = {}
    for pages in ("nohuge", "huge"):
        jobs, files = copy_runs(session, f"d2h-pageable_fresh-{pages}-256M")
        bw = statistics.median(j["copy"]["bw_bytes"] for j in jobs)
        faults = statistics.median(j["minf"] for j in jobs)
        small[pages] = ((size / bw - size / staged_d2h) / faults, bw, faults, len(files))
    (per4k, bw4k, n4k, r4k), (per2m, bw2m, n2m, r2m) = small["nohuge"], small["huge"]
    zero = ((2 << 20) - 4096) / (per2m - per4k) if per2m > per4k else None
    if not zero or zero <= 0 or per4k - 4096 / zero <= 0:
        die(f"copies/: the fresh-memory runs do not give a positive fault cost and zeroing rate "
            f"({us(per4k)} per 4 KiB fault, {us(per2m)} per 2 MiB fault)")
    fault = per4k - 4096 / zero
    out["page_fault_cost"], out["page_zero_bandwidth"] = us(fault), gbs(zero)
    src["page_fault_cost"] = (f"d2h of 2 GiB into fresh pageable memory in 256 MiB calls with 4 KiB pages ({gbs(bw4k)}, "
                              f"{n4k:.0f} minor faults) and with huge pages ({gbs(bw2m)}, {n2m:.0f}), less the staged "
                              f"copy: {us(per4k)} per 4 KiB fault and {us(per2m)} per 2 MiB fault solve f + page / z "
                              f"(medians of {r4k} and {r2m})")
    src["page_zero_bandwidth"] = "solved with page_fault_cost from the same two measurements"
    memcpy, f4 = median_bw(session, "cpu_pass-memcpy")
    out["memcpy_per_core"] = gbs(memcpy)
    src["memcpy_per_core"] = f"one thread's memcpy pass, median of {len(f4)}"
    return out, src


def calibrate(session, iowall):
    reads = sorted(glob.glob(os.path.join(session, "disk", "sweep", "*.json")))
    writes = sorted(glob.glob(os.path.join(session, "writes", "*.json")))
    if not reads or not writes:
        die(f"{rel(session)}: needs disk/sweep/*.json and writes/*.json")
    profile = os.path.join(session, "profile.json")
    topo = os.path.join(session, "calibrated-topology.json")
    with open(os.path.join(session, "profile.txt"), "w") as txt:
        subprocess.run([iowall, "calibrate", *map(rel, reads), *map(rel, writes), "-o", rel(profile), "--name",
                        os.path.basename(session), "--machine", "GPU machine session " + os.path.basename(session),
                        "--topology", "topologies/gpu-machine.json", "--emit-topology", rel(topo)],
                       cwd=ROOT, check=True, stdout=txt)
    return json.load(open(profile)), json.load(open(topo))


def frameworks(session):
    path = os.path.join(session, "frameworks", "checkpoints.json")
    if not os.path.exists(path):
        die(f"{rel(path)}: missing (scripts/checkpoint-frameworks.py's output)")
    doc = json.load(open(path))["iowall"]
    return doc, rel(path)


def session_probe_costs(session):
    """cpu_cached costs the session's own probes give, where it ran them: {param: (value, source,
    scenario keys' ending)}. A tensor view's cost per page from the mapped-load probe's touch_heads
    (the process's CPU over the pages its read-arounds read); a new file's writeback cost per page
    from the writeback probe (new against overwrite fsync medians, least squares through the
    origin). Without them the scenarios keep cpu_cached's defaults (other VMs' probes)."""
    out = {}
    ml_path = os.path.join(session, "mappedload", "mapped-load.json")
    if os.path.exists(ml_path):
        th = json.load(open(ml_path))["summary"].get("touch_heads")
        if th and th.get("cpu_s") and th.get("pgpgin"):
            pages = th["pgpgin"] / 4  # pgpgin counts KiB
            us = th["cpu_s"] / pages * 1e6
            out["view_page_cost"] = (f"{us:.3g} us", f"cpu_cached view_page_cost {us:.3g} us: touch_heads' CPU "
                                     f"{th['cpu_s']:.3f} s over {pages:,.0f} pages read ({rel(ml_path)})", "safetensors-load")
    wb_path = os.path.join(session, "writeback", "writeback.json")
    if os.path.exists(wb_path):
        summary = json.load(open(wb_path))["summary"]
        xs, ys = [], []
        for name, s in summary.items():
            if name.startswith("new_") and f"overwrite_{name[4:]}" in summary:
                xs.append(int(name[4:-1]) << 30 >> 12)
                ys.append(s["fsync_median_s"] - summary[f"overwrite_{name[4:]}"]["fsync_median_s"])
        if xs:
            us = max(0.0, sum(x * y for x, y in zip(xs, ys)) / sum(x * x for x in xs) * 1e6)
            out["new_block_cost"] = (f"{us:.3g} us", f"cpu_cached new_block_cost {us:.3g} us: new-file fsync "
                                     f"against overwrite, least squares through the origin ({rel(wb_path)})", "save")
    return out
