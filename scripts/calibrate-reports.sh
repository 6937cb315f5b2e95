#!/usr/bin/env bash
# Rebuilds the profiles, calibrated topologies and validation reports of both machines
# from the committed sweeps (reports/calibration/<machine>/sweep/*.json).
set -euo pipefail
iowall=${IOWALL:-build/release/iowall}
fit() {  # machine, description[, sweep folder, suffix of the outputs]
  local m=$1 r=reports/calibration/$1 sweep=${3:-sweep} sfx=${4:-}
  local topo=(--topology "topologies/$m.json")
  # The first sweep of a machine writes the calibrated topology; others only validate.
  [ -z "$sfx" ] && topo+=(--emit-topology "topologies/$m-calibrated.json")
  "$iowall" calibrate "$r/$sweep"/*.json -o "$r/profile$sfx.json" --name "$m" --machine "$2" "${topo[@]}" \
    > "$r/profile$sfx.txt"
  # Two declared splits, fixed before looking at the results: fit on one thread and predict
  # two; fit on I/Os up to 128 KiB and predict the larger ones.
  "$iowall" validate "$r/profile$sfx.json" "$r/$sweep"/*.json --fit-subset threads=1 \
    --report "$r/validation$sfx-threads1" --title "$m$sfx: fit on one thread, predict two" > "$r/validation$sfx-threads1.txt"
  "$iowall" validate "$r/profile$sfx.json" "$r/$sweep"/*.json --fit-subset 'io_size<=128KiB' \
    --report "$r/validation$sfx-small-io" --title "$m$sfx: fit on I/Os up to 128 KiB, predict larger" \
    > "$r/validation$sfx-small-io.txt"
}
[ "${1:-}" = gpu-machine ] || fit cpu-machine "CPU build machine: 2-vCPU VM, ext4 on a virtio disk"
# The GPU machine is lent as a fresh VM each time: the newest sweep (with gpu_direct in cuFile's
# compatibility mode) is the one the calibrated topology comes from; the previous VM's is validated too.
if [ "${1:-}" != cpu-machine ]; then
  fit gpu-machine "GPU machine: 16-vCPU Firecracker VM, one H100 on PCIe Gen5 x16, ext4 on a virtio disk"
  fit gpu-machine "GPU machine, previous VM: 16 vCPUs, one H200 on PCIe Gen5 x16, ext4 on a virtio disk" \
    sweep-h200-vm -h200-vm
fi
