#!/usr/bin/env python3
"""How far a GPU-machine session's virtual disk moved between its calibration and its checkpoints: the disk
sweep's O_DIRECT points (phase disk of scripts/calibrate-gpu-machine.sh) beside the same points measured
again after the framework checkpoints (phase drift, run last in the call that holds them), each the median of
its rounds, and their ratio. A ratio far from 1 says the calibration describes another disk than the one the
checkpoints ran on; the model derived from it (scripts/checkpoint-derive.py) is then expected to miss by about
that much. Reads the session's folders or its PHASE.tar.gz archives; writes nothing.
usage: scripts/sweep-drift.py SESSION_DIR
"""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from session_measurements import die, drift_lines, rel  # noqa: E402


def main():
    if len(sys.argv) != 2:
        die(__doc__.strip().splitlines()[-1])
    session = os.path.abspath(sys.argv[1])
    if not os.path.isdir(session):
        die(f"{sys.argv[1]}: not a folder")
    lines = drift_lines(session)
    if not lines:
        die(f"{rel(session)}: no drift phase beside a disk phase (scripts/calibrate-gpu-machine.sh ... drift)")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
