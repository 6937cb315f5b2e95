#!/usr/bin/env bash
# Rebuilds the profiles, calibrated topologies and validation reports of both machines
# from the committed sweeps (reports/calibration/<machine>/sweep/*.json).
set -euo pipefail
iowall=${IOWALL:-build/release/iowall}
fit() {  # machine, description
  local m=$1 r=reports/calibration/$1
  "$iowall" calibrate "$r"/sweep/*.json -o "$r/profile.json" --name "$m" --machine "$2" \
    --topology "topologies/$m.json" --emit-topology "topologies/$m-calibrated.json" > "$r/profile.txt"
  # Two declared splits, fixed before looking at the results: fit on one thread and predict
  # two; fit on I/Os up to 128 KiB and predict the larger ones.
  "$iowall" validate "$r/profile.json" "$r"/sweep/*.json --fit-subset threads=1 \
    --report "$r/validation-threads1" --title "$m: fit on one thread, predict two" > "$r/validation-threads1.txt"
  "$iowall" validate "$r/profile.json" "$r"/sweep/*.json --fit-subset 'io_size<=128KiB' \
    --report "$r/validation-small-io" --title "$m: fit on I/Os up to 128 KiB, predict larger" > "$r/validation-small-io.txt"
}
fit cpu-machine "CPU build machine: 2-vCPU VM, ext4 on a virtio disk"
fit gpu-machine "GPU machine: 16-vCPU Firecracker VM, one H200 on PCIe Gen5 x16, ext4 on a virtio disk"
