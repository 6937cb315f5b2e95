#!/usr/bin/env python3
"""How far a VM's own checkpoints move between two runs on the same machine: the framework checkpoints of a
GPU-machine session (phase frameworks of scripts/calibrate-gpu-machine.sh) beside the same checkpoints run
again minutes later on the same VM (SESSION/repeat/: its frameworks.tar.gz and drift.tar.gz, from a later call
`... frameworks drift` on the same warm machine, the GPU's UUID alike).

A model derived from one calibration can match a checkpoint no better than the checkpoint matches itself on
the same VM a few minutes later. This prints:
  each writer, size and phase: the median of the rounds in the first run and in the repeat, and their ratio;
  the disk sweep's O_DIRECT points measured again after each run (the drift phases), as after/sweep ratios;
  with --source NAME (a corpus source, validation/NAME.json, written by scripts/checkpoint-derive.py from
  this session): each case's model time (`iowall check --source NAME`) against the first run's median (the
  corpus's figure) and against the repeat's.
Unpacks the session's and repeat's PHASE.tar.gz archives in place where their folders are missing (as
scripts/checkpoint-derive.py does); writes nothing else. Environment: IOWALL (default build/release/iowall).
usage: scripts/checkpoint-repeat.py SESSION_DIR [--source NAME]
"""
import json
import os
import statistics
import subprocess
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from session_measurements import (ROOT, die, drift_ratios, frameworks, iowall_binary, rel,  # noqa: E402
                                  summary_medians, sweep_drift, unpack_phases)

# A validation case's id ends with the phase its figure is the median of.
CASE_PHASE = {"save": "save_durable", "cold-load": "load_cold_total"}


def case_key(case_id):
    """'torch_save-2gb-cold-load' -> ('torch_save', 2000000000, 'load_cold_total'); None for another form."""
    for suffix, phase in CASE_PHASE.items():
        if case_id.endswith("-" + suffix):
            writer, _, size = case_id[:-len(suffix) - 1].rpartition("-")
            if writer and size.endswith("gb") and size[:-2].isdigit():
                return writer, int(size[:-2]) * 1000 ** 3, phase
    return None


def pct(x):
    return f"{100 * x:+.1f}%"


def main():
    args = sys.argv[1:]
    source = None
    if "--source" in args:
        i = args.index("--source")
        if i + 1 >= len(args):
            die("--source: needs a corpus source's name (validation/NAME.json)")
        source = args[i + 1]
        del args[i:i + 2]
    if len(args) != 1:
        die(__doc__.strip().splitlines()[-1])
    session = os.path.abspath(args[0])
    repeat = os.path.join(session, "repeat")
    if not os.path.isdir(session):
        die(f"{args[0]}: not a folder")
    if not os.path.isdir(repeat):
        die(f"{rel(repeat)}: missing (a later call's `frameworks drift` archives, on the same machine)")
    unpack_phases(session)
    unpack_phases(repeat)
    first, first_src = frameworks(session)
    again, again_src = frameworks(repeat)
    a, b = summary_medians(first), summary_medians(again)
    keys = [k for k in a if k in b]
    if not keys:
        die(f"{again_src}: no writer, size and phase in common with {first_src}")

    print(f"checkpoints run twice on one VM: {first_src} then {again_src} (median of the rounds, seconds)")
    print(f"  {'writer':13} {'size GB':>7}  {'phase':17} {'first':>8} {'repeat':>8} {'repeat/first':>13}")
    for writer, size, phase in keys:
        x, y = a[(writer, size, phase)], b[(writer, size, phase)]
        print(f"  {writer:13} {size / 1e9:7.2f}  {phase:17} {x:8.4f} {y:8.4f} {y / x:13.3f}")
    ratios = [b[k] / a[k] for k in keys if a[k] > 0]
    print(f"  repeat/first over {len(ratios)} phases: median {statistics.median(ratios):.3f}, "
          f"{min(ratios):.3f}-{max(ratios):.3f}")
    totals = [b[k] / a[k] for k in keys if k[2] in CASE_PHASE.values() and a[k] > 0]
    if totals:
        moves = sorted(abs(r - 1) for r in totals)
        print(f"  saves until durable and cold loads ({len(totals)}): |repeat/first - 1| median "
              f"{100 * statistics.median(moves):.1f}%, largest {100 * moves[-1]:.1f}%")

    rows_first, rows_again = sweep_drift(session), sweep_drift(session, os.path.join("repeat", "drift"))
    if rows_first or rows_again:
        print("the disk sweep's O_DIRECT points measured again after each run, after/sweep (median over the points)")
        for label, rows in (("after the first run", rows_first), ("after the repeat", rows_again)):
            if rows:
                r = drift_ratios(rows)
                print(f"  {label:20} {statistics.median(r):.3f} ({r[0]:.3f}-{r[-1]:.3f}, {len(r)} points)")

    if source:
        iowall = iowall_binary()
        out = subprocess.run([iowall, "check", "--source", source, "-q", "--output-format", "json"], cwd=ROOT,
                             capture_output=True, text=True)
        if out.returncode != 0:
            die(f"--source {source}: " + (out.stderr.strip().splitlines() or ["iowall check failed"])[-1])
        cases = json.loads(out.stdout)["cases"]
        print(f"the model (iowall check --source {source}) against each run's median")
        print(f"  {'case':28} {'model s':>8} {'first':>8} {'error':>8} {'repeat':>8} {'error':>8}")
        errs_first, errs_again = [], []
        for case in cases:
            key = case_key(case["id"])
            if key is None or key not in a or key not in b:
                continue
            model = case["simulated"]["value"]
            e1, e2 = model / a[key] - 1, model / b[key] - 1
            errs_first.append(abs(e1))
            errs_again.append(abs(e2))
            print(f"  {case['id']:28} {model:8.3f} {a[key]:8.3f} {pct(e1):>8} {b[key]:8.3f} {pct(e2):>8}")
        if errs_first:
            within = lambda es: sum(e <= 0.15 for e in es)  # noqa: E731
            print(f"  median |error| {100 * statistics.median(errs_first):.1f}% against the first run "
                  f"({within(errs_first)} of {len(errs_first)} within 15%), "
                  f"{100 * statistics.median(errs_again):.1f}% against the repeat "
                  f"({within(errs_again)} of {len(errs_again)} within 15%)")


if __name__ == "__main__":
    main()
