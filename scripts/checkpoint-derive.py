#!/usr/bin/env python3
"""Turns one GPU-machine session (calibration and framework checkpoints taken in one run there)
into a node model and a corpus source for `iowall check`, with nothing fitted to the checkpoints.

A session folder holds what scripts/calibrate-gpu-machine.sh packed, unpacked: disk/sweep/*.json
(reads), writes/*.json (O_DIRECT and buffered writes made durable), copies/*.json (host<->GPU copies,
CPU passes) and frameworks/checkpoints.json (scripts/checkpoint-frameworks.py, with --crc-probe). A
phase may stay as the run packed it (PHASE.tar.gz beside the folder it would make: fewer files to keep):
the script unpacks it in place, under the same names, when its folder is missing.
This script
  1. runs `iowall calibrate` on the reads and writes (profile.json and calibrated-topology.json in
     the session folder): the drive (read and write service, latencies, ceilings, mdts, flush), the
     virtual disk's copy cache where the reads show one (vda copy_cache, cold_copy_bandwidth) and
     the page cache's writeback (flusher rate, request size);
  2. derives the host's copy and fault costs from copies/ (medians of the rounds):
       staged_d2h/h2d_bandwidth   d2h/h2d through reused pageable memory, 256 MiB calls
       copy_call_cost             a 4 KiB copy into pinned memory (median latency)
       page_fault_cost, page_zero_bandwidth
                                  d2h into fresh pageable memory with 4 KiB pages and with huge
                                  pages, less the staged copy: per fault, f + page / z for both page
                                  sizes (the fault counts are the runs' own minor faults)
       memcpy_per_core            one thread's memcpy pass
     torch.save's CRC-32 cost from the frameworks' /dev/shm probe (with against without), and,
     where the session ran scripts/probe-page-cache.py (pagecache/), the page cache's cost per
     page (cpu_cached write_page_cost: a write from a cold source less a memcpy of the same bytes);
  3. writes topologies/gpu-machine-GPU-NAME.json (the checkpoint topology, topologies/gpu-machine-
     h200.json's shape with the session's GPU preset, every changed value with its source line; GPU is
     h200 or h100 by the session's GPU), the four checkpoint scenarios
     validation/scenarios/ckpt-GPU-NAME-*.json (the mechanisms of validation/scenarios/ckpt-h200-*.json,
     this session's parameters) and the corpus source validation/checkpoint-GPU-NAME.json (each
     writer's save until durable and cold load, the measured median of the rounds with their range,
     in the host memory the rounds found: new, or already mapped, by their page faults). Where the
     frameworks run recorded the checkpoints' disk (machine.block_queue), its readahead window and
     largest request set the loads' read_ahead and max_sectors, and a disk that is not a virtio one
     (not vdX: bare-metal NVMe, say) drops the virtual disk, the scenarios using the drive itself.
With --check it then runs iowall check on the new source and prints each case phase by phase (the rounds'
median against the model's phase, the model's limit, and the phase that holds most of the miss), and where
the session ran a drift phase, how far its disk moved between the calibration and the checkpoints
(scripts/sweep-drift.py).
A session's own notes of what the run could not record go in SESSION_DIR/derive-assume.txt (one
condition a line), stated in the corpus source before any --assume.
usage: scripts/checkpoint-derive.py SESSION_DIR NAME [--crc-bandwidth 3.98GB/s] [--assume TEXT]... [--check]
Environment: IOWALL (default build/release/iowall).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from session_measurements import (ROOT, calibrate, case_result, check_name, die, drift_lines, iowall_binary,  # noqa: E402
                                  drift_ratios, frameworks, gbs, host_costs, measured_disk_busy,
                                  model_disk_busy_s, node_topology, rel, session_probe_costs, sweep_drift,
                                  unpack_phases)
BASE_SCENARIOS = {"torch-save": "ckpt-h200-torch-save.json", "torch-load": "ckpt-h200-torch-load.json",
                  "safetensors-save": "ckpt-h200-safetensors-save.json",
                  "safetensors-load": "ckpt-h200-safetensors-load.json"}


def kib(kb):
    """A queue setting in KiB as the scenarios write sizes: "8 MiB", "128 KiB"."""
    return f"{kb >> 10} MiB" if kb % 1024 == 0 else f"{kb} KiB"


def session_assumptions(session):
    """The conditions a session's own notes state (SESSION/derive-assume.txt, one a line: what the run itself
    cannot record, e.g. a phase that ran on another VM), so that the derivation needs no argument to
    reproduce its corpus source."""
    path = os.path.join(session, "derive-assume.txt")
    if not os.path.exists(path):
        return []
    with open(path) as f:
        return [line.strip() for line in f if line.strip()]


def drift_condition(session):
    """Where the session ran a drift phase: how far its disk moved between the calibration and the
    checkpoints, stated among the source's conditions (the model is derived from the calibration alone)."""
    rows = sweep_drift(session)
    if not rows:
        return []
    ratios = drift_ratios(rows)
    return [f"the disk sweep's O_DIRECT points measured again after the checkpoints (drift phase) ran at "
            f"{statistics.median(ratios):.3f} of the sweep's, median over {len(rows)} points ({ratios[0]:.3f}-"
            f"{ratios[-1]:.3f}; scripts/sweep-drift.py): the model, fitted on the sweep, is expected off by about that"]


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("session")
    ap.add_argument("name", help="short name: topologies/gpu-machine-GPU-NAME.json, validation/checkpoint-GPU-NAME.json")
    ap.add_argument("--crc-bandwidth", help="torch.save's CRC-32 rate when the session has no --crc-probe")
    ap.add_argument("--check", action="store_true",
                    help="then run iowall check --source checkpoint-NAME and set each case's phases beside the model's")
    ap.add_argument("--assume", action="append", default=[], metavar="TEXT",
                    help="a condition of the session the corpus source must state (repeatable)")
    args = ap.parse_args()
    check_name(args.name)
    iowall = iowall_binary()
    session = os.path.abspath(args.session)
    if not os.path.isdir(session):
        die(f"{args.session}: not a folder")
    unpack_phases(session)
    profile, calibrated = calibrate(session, iowall)
    host, host_src = host_costs(session)
    fw, fw_path = frameworks(session)
    crc = fw.get("crc_probe") or {}
    if args.crc_bandwidth:
        crc_bw, crc_src = args.crc_bandwidth, "given on the command line (--crc-bandwidth)"
    elif crc.get("crc_bandwidth_bytes"):
        crc_bw = gbs(crc["crc_bandwidth_bytes"])
        crc_src = (f"torch.save of 1 GiB to /dev/shm, median with CRC {statistics.median(crc['with_crc_s']):.3f} s "
                   f"against without {statistics.median(crc['without_crc_s']):.3f} s ({fw_path} crc_probe)")
    else:
        die(f"{fw_path}: no crc_probe; give --crc-bandwidth")
    wb = profile["fits"]["writeback"]
    sess = rel(session)
    # The page cache's own cost per page, where the session probed it (scripts/probe-page-cache.py).
    page_cost, page_src = None, None
    pc_path = os.path.join(session, "pagecache", "page-cache.json")
    if os.path.exists(pc_path):
        pc = json.load(open(pc_path))["summary"]
        page_cost = f"{pc['page_cost_cold_write_us']:.4g} us"
        page_src = (f"cpu_cached write_page_cost {page_cost}: write() of {json.load(open(pc_path))['bytes'] >> 30} GiB from a cold "
                    f"source ({pc['write_cold_s']['median_s']:.3f} s) less a memcpy of the same bytes "
                    f"({pc['memcpy_cold_s']['median_s']:.3f} s), per 4 KiB page, medians ({rel(pc_path)})")

    probe_costs = session_probe_costs(session)
    m = fw.get("machine") or {}
    facts = {"gpu": ((m.get("gpu") or {}).get("name") or "", f"{fw_path} machine.gpu"),
             "queue": (m.get("block_queue") or {}, f"{fw_path} machine.block_queue"),
             "mem_total": ((m.get("meminfo_before") or {}).get("MemTotal"), fw_path)}
    # The machine's own values beyond its devices' fits: its CPU's CRC-32 rate, and its page cache and block
    # queue as every buffered path on it finds them (the flusher's writeback from the write sweep, the
    # session's page-cache probes, the checkpoints' disk's readahead and request size).
    queue_rec = facts["queue"][0]
    settings = [("cpu0", "crc32_per_core", crc_bw, crc_src),
                ("cpu_cached", "flusher_bandwidth", wb["flusher_bandwidth"],
                 f"iowall calibrate on {sess}/writes ({sess}/profile.json fits.writeback)"),
                ("cpu_cached", "writeback_request", wb["writeback_request"],
                 f"iowall calibrate on {sess}/writes ({sess}/profile.json fits.writeback)")]
    if "read_ahead_kb" in queue_rec and "max_sectors_kb" in queue_rec:
        where = f"/sys/block/{queue_rec.get('name')}/queue ({fw_path} machine.block_queue)"
        settings += [("cpu_cached", "read_ahead", kib(queue_rec["read_ahead_kb"]), f"read_ahead_kb, {where}"),
                     ("cpu_cached", "max_sectors", kib(queue_rec["max_sectors_kb"]), f"max_sectors_kb, {where}")]
    else:
        base_load = json.load(open(os.path.join(ROOT, "validation/scenarios", BASE_SCENARIOS["torch-load"])))
        settings += [("cpu_cached", k, base_load["paths"][0][k],
                      f"not recorded by this session: the GPU VMs' virtio disk, as "
                      f"validation/scenarios/{BASE_SCENARIOS['torch-load']} has it") for k in ("read_ahead", "max_sectors")]
    own = lambda src: src.split(": ", 1)[1] if src.startswith("cpu_cached ") else src  # noqa: E731
    if page_cost:
        settings.append(("cpu_cached", "write_page_cost", page_cost, own(page_src)))
    for param, (value, src, _) in probe_costs.items():
        settings.append(("cpu_cached", param, value, own(src)))
    topo_path, tag, _, virtual = node_topology(session, args.name, profile, calibrated, facts, host, host_src,
                                                   "scripts/checkpoint-derive.py", "its framework checkpoints", settings)

    scen_paths = {}
    for key, base in BASE_SCENARIOS.items():
        s = json.load(open(os.path.join(ROOT, "validation/scenarios", base)))
        s["name"] = f"ckpt-{tag}-{args.name}-{key}"
        s["description"] += f"; parameters of session {sess} (scripts/checkpoint-derive.py)"
        s["topology"] = topo_path
        # The state's tensors as the run built them: four a layer (bf16 weight, fp32 master weight and
        # two Adam moments; scripts/training_state.py), the base scenarios' 512 being 128 layers.
        layers = (fw.get("options") or {}).get("tensors", 128)
        if s["workload"].get("tensors") == 512 and layers != 128:
            s["workload"]["tensors"] = 4 * layers
            s["description"] = s["description"].replace("512 tensors (128 layers", f"{4 * layers} tensors ({layers} layers")
        # The page cache's and block queue's settings are the machine's: the topology holds them.
        s["paths"] = [{"name": "cpu_cached"}]
        if not virtual:
            s["workload"]["storage"] = "disk0"
        path = f"validation/scenarios/ckpt-{tag}-{args.name}-{key}.json"
        with open(os.path.join(ROOT, path), "w") as f:
            json.dump(s, f, indent=1)
            f.write("\n")
        scen_paths[key] = path

    # Which host memory each round copied into is a condition the run recorded (its minor faults),
    # not a parameter: glibc's malloc keeps freed heap memory mapped (allocations below its
    # mmap threshold, which rises to the size of a freed mmapped block, at most 32 MiB on 64-bit),
    # so a process's later checkpoints may copy into memory it already has. Most rounds decide.
    def memory_kind(writer, size, phase):
        rounds = [r for r in fw["records"] if r["writer"] == writer and r["size_bytes"] == size and not r.get("error")]
        faults = [r["phases"].get(phase, {}).get("minor_faults") for r in rounds]
        if not faults or any(f is None for f in faults):
            return "pageable_fresh", "no fault counts recorded: new memory assumed"
        fresh = sum(f > size / 4096 / 2 for f in faults)
        kind = "pageable_fresh" if 2 * fresh > len(faults) else "pageable"
        return kind, f"{phase} minor faults per round {', '.join(str(f) for f in faults)}: {kind}"

    cases = []
    measured = []  # by case: the (writer, size) of its rows, for the phase table
    rows = {(r["writer"], r["size_bytes"], r["phase"]): r for r in fw["summary"]}
    sizes = sorted({r["size_bytes"] for r in fw["summary"]})
    for writer, stem in (("torch_save", "torch"), ("safetensors", "safetensors")):
        for size in sizes:
            gb = f"{size / 1e9:g} GB"
            for phase, what, key in (("save_durable", "save", "save"), ("load_cold_total", "cold-load", "load")):
                r = rows.get((writer, size, phase))
                if not r:
                    continue
                measured.append((writer, size))
                cases.append({
                    "id": f"{writer}-{size / 1e9:g}gb-{what}",
                    "figure": (f"{writer} {gb} {'d2h + serialize_write + fsync until durable' if key == 'save' else 'page cache cold: read, then to the GPU (load_cold_total)'}"
                               f", median of {r['rounds']} rounds ({r['min_s']:.3f}-{r['max_s']:.3f} s)"),
                    "published": f"{r['median_s']:.4f} s", "metric": "done",
                    "scenario": scen_paths[f"{stem}-{key}"], "set": {"/workload/size": gb}, "path": "cpu_cached"})
                if writer == "safetensors" and key == "load":
                    # The file mapped: its data stays in the page cache (the scenario's reader).
                    cases[-1]["note"] = "the file mapped (reader mapped): no host memory of its own"
                    continue
                kind, why = memory_kind(writer, size, "d2h" if key == "save" else "load_cold_read")
                cases[-1]["set"]["/workload/host_memory"] = kind
                cases[-1]["note"] = "host memory as the rounds found it: " + why
    m = fw.get("machine", {})
    corpus = {
        "source": {"title": f"Framework checkpoints on the GPU machine, session {args.name}: calibration and checkpoints "
                            f"taken in one run there, the model derived from the calibration alone",
                   "publisher": "iowall measurement", "year": 2026, "url": sess + "/",
                   "where": f"{fw_path}: summary medians; per-round records (phases, page faults) in the same file"},
        "conditions": {"hardware": f"{m.get('cpus')}-vCPU VM, {(m.get('gpu') or {}).get('name')}, "
                                   f"{(m.get('file_system') or {}).get('type')} on {(m.get('file_system') or {}).get('device')}",
                       "software": f"torch {m.get('torch')}, safetensors {m.get('safetensors')}, kernel {m.get('kernel')}; "
                                   f"THP {m.get('transparent_hugepage')}",
                       "assumed": [f"{topo_path} and the scenarios come from {sess}'s disk, write and copy "
                                   "measurements by scripts/checkpoint-derive.py, never from these checkpoints",
                                   "the mechanisms (readahead, one blocking reader, sequential save, 4 KiB pages) are "
                                   "those of the first session's scenarios, unchanged",
                                   "each torch.save case copies into the host memory its rounds found, by their page "
                                   "faults: new (pageable_fresh) or already mapped (pageable), a condition the runs "
                                   "recorded; a safetensors load maps its file (reader mapped: each tensor's view brings "
                                   "its range in, cpu_cached's view_page_cost per page allocated first, "
                                   + (f"this session's own probe ({probe_costs['view_page_cost'][1]})"
                                      if "view_page_cost" in probe_costs else
                                      "the default from scripts/probe-mapped-load.py touch_heads on fourteenth-h200-vm")
                                   + "; the copy to the GPU "
                                   "faults the mapping in, cpu0's mapped_fault_cost per fault_around, the default from the "
                                   "same probe on twelfth-h200-vm)",
                                   (f"a buffered write's cost per page: this session's probe ({page_cost})" if page_cost
                                    else "a buffered write's cost per page: cpu_cached's default write_page_cost (0.6 "
                                         "us, probes of other machines), this session having no page-cache probe")]
                                  + ([f"a new file's writeback cost per page: this session's own probe "
                                      f"({probe_costs['new_block_cost'][1]})"] if "new_block_cost" in probe_costs else [])
                                  + drift_condition(session) + session_assumptions(session) + args.assume},
        "cases": cases}
    corpus_path = f"validation/checkpoint-{tag}-{args.name}.json"
    with open(os.path.join(ROOT, corpus_path), "w") as f:
        json.dump(corpus, f, indent=1)
        f.write("\n")
    print(f"wrote {topo_path}, {', '.join(scen_paths.values())}, {corpus_path} ({len(cases)} cases)")
    if args.check:
        subprocess.run([iowall, "check", "--source", f"checkpoint-{tag}-{args.name}", "-q"], cwd=ROOT, check=False)
        phase_table(iowall, cases, measured, rows, fw["records"])
        if lines := drift_lines(session):
            print("\n" + "\n".join(lines))


# A save's phases are named alike in the measurement and the model; a cold load's are
# load_cold_read and load_cold_h2d against the model's read and h2d.
MEASURED_PHASE = {"read": "load_cold_read", "h2d": "load_cold_h2d"}


def phase_table(iowall, cases, measured, rows, records):
    """Each checked case phase by phase: the rounds' median against the model's phase, with what
    bounds the model's phase, and the phase that holds most of the case's miss. `measured` holds
    each case's (writer, size), the keys of its rows. For a cold load whose rounds recorded the disk's
    counters (`records`), also the disk's busy seconds, measured and modelled, and the bytes it read per
    busy second: a miss in the disk's rate shows in both, one in the time the disk sat idle (the reader's
    own work, or waits) in the busy seconds' share of the load alone."""
    print("\nphases, measured median / model seconds (the model's limit); most of the miss")
    for c, (writer, size) in zip(cases, measured):
        result, error = case_result(iowall, c)
        if error is not None:
            print(f"  {c['id']}: iowall run failed: {error}")
            continue
        phases = result["metrics"][c["path"]]["phases"]
        cells, worst = [], None
        for ph in phases:
            r = rows.get((writer, size, MEASURED_PHASE.get(ph["name"], ph["name"])))
            if not r:
                continue
            diff = ph["seconds"] - r["median_s"]
            limit = (ph.get("limited_by") or {}).get("resource", "-")
            cells.append(f"{ph['name']} {r['median_s']:.3f}/{ph['seconds']:.3f} ({limit})")
            if worst is None or abs(diff) > abs(worst[1]):
                worst = (ph["name"], diff)
        tail = f"; most of the miss: {worst[0]} {worst[1]:+.3f} s" if worst else ""
        print(f"  {c['id']:28s} " + ", ".join(cells) + tail)
        disk = measured_disk_busy(records, writer, size) if c["id"].endswith("cold-load") else None
        if not disk:
            continue
        model_busy, device = model_disk_busy_s(result, c["path"])
        total = rows.get((writer, size, "load_cold_total"))
        if model_busy and total:
            busy, nbytes = disk
            last = result["metrics"][c["path"]]["last_done_s"]
            print(f"  {'':28s} disk busy {busy:.3f}/{model_busy:.3f} s ({device}), {busy / total['median_s']:.0%}/"
                  f"{model_busy / last:.0%} of the load, {nbytes / busy / 1e9:.2f}/{size / model_busy / 1e9:.2f} GB "
                  f"a busy second")


if __name__ == "__main__":
    main()
