"""Reading one GPU-machine session's measurements for scripts/checkpoint-derive.py: its phases unpacked
where they were kept as the run's archives, `iowall calibrate` on its reads and writes, the host's copy
and fault costs from copies/, the frameworks' checkpoints, and the costs its own probes give (mapped-load,
writeback). Each value comes back with the line that says where it came from.
"""
import glob
import json
import os
import re
import statistics
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
BASE_TOPOLOGY = "topologies/gpu-machine-h200.json"
# The session's GPU (the machine facts it recorded) picks the gpu preset and the names' tag; the
# base topology is the H200 VM's shape (the GPU VMs differ in their GPU, not in how they are built).
GPU_PRESETS = (("H200", "h200", "h200"), ("H100 PCIe", "h100_pcie", "h100"), ("H100", "h100_sxm", "h100"))
DISK_FIELDS = ("read_bandwidth", "write_bandwidth", "read_latency", "write_latency", "latency_sigma", "max_iops",
               "flush_cost", "mdts", "read_service", "write_service")


def iowall_binary():
    """The iowall the scripts run: $IOWALL, else the release build's."""
    return os.path.abspath(os.environ.get("IOWALL", os.path.join(ROOT, "build/release/iowall")))


def die(msg):
    print(f"{os.path.splitext(os.path.basename(sys.argv[0]))[0]}: {msg}", file=sys.stderr)
    sys.exit(2)


def check_name(name):
    """A session's short name names files under topologies/ and validation/: refused (exit 2) unless it is
    lower-case letters, digits and '-'."""
    if not re.fullmatch(r"[a-z0-9][a-z0-9-]{0,31}", name):
        die(f"name {name!r}: lower-case letters, digits and '-' only (it names files under topologies/ and validation/)")


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


def calibrate(session, iowall, writes_needed=True):
    """`iowall calibrate` on the session's reads (disk/sweep) and writes (writes/; without them, where
    `writes_needed` is false, the drive's reads alone), into SESSION/profile.json and calibrated-topology.json."""
    reads = sorted(glob.glob(os.path.join(session, "disk", "sweep", "*.json")))
    writes = sorted(glob.glob(os.path.join(session, "writes", "*.json")))
    if not reads or (writes_needed and not writes):
        die(f"{rel(session)}: needs disk/sweep/*.json{' and writes/*.json' if writes_needed else ''}")
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


def summary_medians(doc):
    """{(writer, size_bytes, phase): median seconds of the rounds} of a frameworks document's summary."""
    return {(x["writer"], x["size_bytes"], x["phase"]): x["median_s"] for x in doc["summary"]}


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


def node_topology(session, name, profile, calibrated, facts, host=None, host_src=None,
                  tool="scripts/checkpoint-derive.py", unused="its framework checkpoints", settings=()):
    """Writes topologies/gpu-machine-GPU-NAME.json: BASE_TOPOLOGY's shape with the session's drive (calibrated
    from its reads, and writes where it has them), the virtual disk's copy cache where the reads show one, the
    host's copy and fault costs where the session measured them (`host`, `host_src`: host_costs(); without them
    the base topology's stay, with their sources), and the machine `facts` it recorded, each (value, where):
    "gpu" (its name: the preset and GPU tag), "queue" (the checkpoints' disk, /sys/block/DEV/queue with its
    name where recorded) and "mem_total" (bytes). `tool` made it and `unused` names the measurements it was
    not taken from. `settings` are the machine's own further values, each (where, key, value, source): a
    device id (a parameter of that device) or a data path's name (the topology's own setting for that path: its
    kernel's page cache and block queue, which every scenario on the topology reads through).
    Returns (path, GPU tag, queue, whether the disk is a virtual one)."""
    sess = rel(session)
    gpu_name, gpu_src = facts["gpu"]
    queue, queue_src = facts["queue"]
    mem, mem_src = facts["mem_total"]
    preset, tag = next(((pr, t) for key, pr, t in GPU_PRESETS if key in gpu_name), ("h200", "h200"))
    writes = bool(glob.glob(os.path.join(session, "writes", "*.json")))

    topo = json.load(open(os.path.join(ROOT, BASE_TOPOLOGY)))
    topo["name"] = f"gpu-machine-{tag}-{name}"
    host_text = "its host costs from the session's copies" if host else f"its host costs {BASE_TOPOLOGY}'s"
    topo["description"] = (f"The GPU machine as measured in one session ({sess}): {BASE_TOPOLOGY}'s shape, its drive "
                           f"from `iowall calibrate` on that session's {'reads and writes' if writes else 'reads'}, "
                           f"{host_text} ({tool}); nothing from {unused}")
    disk = next(d for d in calibrated["devices"] if d["id"] == "disk0")
    sources = [f"disk0 {', '.join(k for k in DISK_FIELDS if k in disk)}: iowall calibrate on {sess}/disk/sweep"
               f"{f' and {sess}/writes' if writes else ''} ({sess}/profile.json; uncertainties dropped)"]
    # The checkpoints' disk as the run found it: a virtio disk (vdX) keeps the base topology's virtual disk
    # over the drive; any other (an NVMe namespace, a SCSI disk) is the drive itself, so the virtual disk
    # (its emulation and copy cache) goes and the scenarios read and write disk0. Sessions that did not
    # record it ran on the virtio VMs.
    virtual = queue.get("name", "vda").startswith("vd")
    if not virtual:
        topo["devices"] = [d for d in topo["devices"] if d["id"] != "vda"]
        sources.append(f"no virtual disk: the checkpoints' file system is on {queue['name']} ({queue_src}), the "
                       f"drive itself")
    for d in topo["devices"]:
        if d["id"] == "disk0":
            for k in DISK_FIELDS:
                if k in disk or writes:  # without writes the base drive's write side stays
                    d.pop(k, None)
                if k in disk:
                    d[k] = disk[k].split(" +- ")[0] if isinstance(disk[k], str) else disk[k]
        elif d["id"] == "vda" and "copy_cache" in profile["fits"]["storage"]:
            # The reads' slowdown where their buffers outgrow the host's cache: the virtual
            # disk's copy into guest memory, fitted with the drive.
            st = profile["fits"]["storage"]
            for k in ("copy_cache", "cold_copy_bandwidth"):
                d[k] = st[k]
            sources.append(f"vda copy_cache {st['copy_cache']}, cold_copy_bandwidth {st['cold_copy_bandwidth']}: "
                           f"iowall calibrate on {sess}/disk/sweep ({sess}/profile.json)")
        elif d["id"] == "cpu0" and host:
            for k in ("memcpy_per_core", "page_fault_cost", "page_zero_bandwidth"):
                d[k] = host[k]
                sources.append(f"cpu0 {k} {host[k]}: {host_src[k]} ({sess}/copies)")
        elif d["id"] == "gpu0":
            if d.get("preset") != preset:
                d["preset"] = preset
                sources.append(f"gpu0 preset {preset}: the session's GPU, {gpu_name} ({gpu_src})")
            for k in ("staged_d2h_bandwidth", "staged_h2d_bandwidth", "copy_call_cost") if host else ():
                d[k] = host[k]
                sources.append(f"gpu0 {k} {host[k]}: {host_src[k]} ({sess}/copies)")
        elif d["id"] == "dram0" and mem:
            d["capacity"] = f"{mem // (1 << 30)} GiB"
            sources.append(f"dram0 capacity {d['capacity']}: MemTotal {mem:,} B ({mem_src})")
    devices = {d["id"]: d for d in topo["devices"]}
    for where, key, value, src in settings:
        if where in devices:
            devices[where][key] = value
        else:
            topo.setdefault("paths", {}).setdefault(where, {})[key] = value
        sources.append(f"{where} {key} {value}: {src}")
    # The values the base topology keeps (the host's without copies, the drive's writes without writes),
    # with its word for where they came from.
    kept = (() if host else ("cpu0", "gpu0", "vda")) + (() if writes else ("disk0 write",))
    sources += [f"{line} (as {BASE_TOPOLOGY})" for line in topo.get("sources", [])
                if any(line.startswith(k) for k in kept)]
    topo["sources"] = sources
    topo_path = f"topologies/gpu-machine-{tag}-{name}.json"
    with open(os.path.join(ROOT, topo_path), "w") as f:
        json.dump(topo, f, indent=1)
        f.write("\n")
    return topo_path, tag, queue, virtual


def sweep_runs(session, point, phase="disk"):
    """A session's sweep records of one point (cpu_only-POINT-rN.json): from PHASE/sweep/, or read out of
    PHASE.tar.gz where the session keeps that phase as the run packed it (nothing is unpacked)."""
    import tarfile
    folder = os.path.join(ROOT, session, phase)
    if os.path.isdir(folder):
        return [json.load(open(f)) for f in sorted(glob.glob(os.path.join(folder, "sweep", f"cpu_only-{point}-r*.json")))]
    name = re.compile(rf"{re.escape(os.path.basename(phase))}/sweep/cpu_only-{re.escape(point)}-r\d+\.json$")
    archive = folder + ".tar.gz"
    if not os.path.isfile(archive):
        return []
    with tarfile.open(archive) as tar:
        return [json.load(tar.extractfile(m)) for m in sorted(tar.getmembers(), key=lambda m: m.name)
                if m.isfile() and name.search(m.name)]


def sweep_median(session, point, phase="disk"):
    """The median over the rounds of one sweep point's read rate, GB/s (None where the session has none)."""
    bws = [j["read"]["bw_bytes"] / 1e9 for doc in sweep_runs(session, point, phase) for j in doc["jobs"]]
    return statistics.median(bws) if bws else None


def sweep_drift(session, phase="drift"):
    """The drift phase's points (scripts/calibrate-gpu-machine.sh drift: the disk sweep's O_DIRECT points
    measured again after the checkpoints) beside the disk sweep's: (point, disk GB/s, drift GB/s) for each
    point both hold; [] where the session ran no drift phase. `phase` names the drift phase's folder under
    the session (repeat/drift: the drift phase of a repeat of the checkpoints, unpacked)."""
    import tarfile
    folder = os.path.join(ROOT, session, phase)
    if os.path.isdir(folder):
        names = [os.path.basename(f) for f in glob.glob(os.path.join(folder, "sweep", "cpu_only-*-r*.json"))]
    elif os.path.isfile(folder + ".tar.gz"):
        with tarfile.open(folder + ".tar.gz") as tar:
            names = [os.path.basename(m.name) for m in tar.getmembers() if m.isfile()]
    else:
        return []
    points = sorted({m.group(1) for m in map(re.compile(r"^cpu_only-(.+)-r\d+\.json$").match, names) if m},
                    key=lambda p: (int(re.search(r"-t(\d+)$", p).group(1)), p))
    rows = []
    for point in points:
        disk, drift = sweep_median(session, point), sweep_median(session, point, phase)
        if disk and drift:
            rows.append((point, disk, drift))
    return rows


def drift_ratios(rows):
    """sweep_drift's rows as after/sweep ratios, lowest first."""
    return sorted(d / s for _, s, d in rows)


def drift_lines(session):
    """The drift table as text lines, with the median ratio; [] where the session has no drift phase."""
    rows = sweep_drift(session)
    if not rows:
        return []
    lines = ["calibration drift: the disk sweep's O_DIRECT points measured again after the checkpoints (GB/s, "
             "median of the rounds)", f"  {'point':16} {'sweep':>7} {'after':>7} {'after/sweep':>12}"]
    for point, disk, drift in rows:
        lines.append(f"  {point:16} {disk:7.3f} {drift:7.3f} {drift / disk:12.3f}")
    lines.append(f"  median after/sweep {statistics.median(drift_ratios(rows)):.3f} over {len(rows)} points")
    return lines


def case_result(iowall, case):
    """A corpus case's scenario run with its settings (`iowall run -q SCENARIO --set ...`): (the JSON
    result, None), or (None, iowall's error) where the run failed."""
    cmd = [iowall, "run", "-q", case["scenario"], "--output-format", "json"]
    for pointer, value in case["set"].items():
        cmd += ["--set", f"{pointer}={json.dumps(value)}"]
    out = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True)
    if out.returncode != 0:
        return None, out.stderr.strip()
    return json.loads(out.stdout), None


def case_phases(iowall, case):
    """case_result's phases of the case's path, as the JSON result has them (None and the error where the
    run failed)."""
    result, error = case_result(iowall, case)
    return (None, error) if result is None else (result["metrics"][case["path"]]["phases"], None)


def measured_disk_busy(records, writer, size):
    """A cold load's disk counters over its read and copy phases (the frameworks record them from vm25 on),
    medians of the rounds: (busy seconds, bytes read from the disk); None where the rounds lack them."""
    busy, nbytes = [], []
    for r in records:
        if r.get("error") or r["writer"] != writer or r["size_bytes"] != size:
            continue
        ps = [r["phases"].get(p) for p in ("load_cold_read", "load_cold_h2d")]
        if not ps[0] or any(p is not None and "disk_busy_ms" not in p for p in ps):
            return None
        busy.append(sum(p["disk_busy_ms"] for p in ps if p) / 1e3)
        nbytes.append(sum(p["disk_bytes"] for p in ps if p))
    return (statistics.median(busy), statistics.median(nbytes)) if busy else None


def model_disk_busy_s(result, path):
    """The seconds the model's disk served requests over a whole run: the virtual disk's device thread where
    the topology has one (vda), else the drive's controller (disk0), busy mean x the run's length."""
    stats, last = result["stats"][path], result["metrics"][path]["last_done_s"]
    for key in ("vda/device_thread/busy", "disk0/controller/busy"):
        if key in stats:
            return stats[key]["mean"] * last, key.rsplit("/", 1)[0]
    return None, None
