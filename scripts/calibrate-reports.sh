#!/usr/bin/env bash
# Rebuilds the profiles, calibrated topologies and validation reports of both machines
# from the committed sweeps (reports/calibration/<machine>/sweep/*.json), and the GPU
# machine's checkpoint session (reads and writes).
#   scripts/calibrate-reports.sh [cpu-machine|gpu-machine|checkpoint-h200|second-h200-vm]
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
# The checkpoint session on the GPU machine (scripts/calibrate-gpu-machine.sh's disk and writes
# phases, one VM, one call): its reads and its writes calibrated together into one profile, the
# calibrated topology kept beside it (base: topologies/gpu-machine.json, as for the read sweeps), and
# both validated on the same two declared splits as the read sweeps. Writes are O_DIRECT and buffered,
# made durable by fsync at the end, every 64 writes, or O_DSYNC.
reads_and_writes() {  # folder under reports/calibration/gpu-machine, profile name, machine description
  local r=reports/calibration/gpu-machine/$1
  local files=("$r"/disk/sweep/*.json "$r"/writes/*.json)
  "$iowall" calibrate "${files[@]}" -o "$r/profile.json" --name "$2" --machine "$3" \
    --topology topologies/gpu-machine.json --emit-topology "$r/calibrated-topology.json" > "$r/profile.txt"
  "$iowall" validate "$r/profile.json" "${files[@]}" --fit-subset threads=1 --report "$r/validation-threads1" \
    --title "$2 reads and writes: fit on one thread, predict two" > "$r/validation-threads1.txt"
  "$iowall" validate "$r/profile.json" "${files[@]}" --fit-subset 'io_size<=128KiB' --report "$r/validation-small-io" \
    --title "$2 reads and writes: fit on I/Os up to 128 KiB, predict larger" > "$r/validation-small-io.txt"
}
checkpoint_h200() {
  reads_and_writes checkpoint-h200 gpu-machine-h200 \
    "GPU machine, checkpoint session: 16-vCPU VM, one H200 on PCIe Gen5 x16, ext4 on a virtio disk"
}
# A second VM of the same kind, its disk and writes phases in one call (second-h200-vm):
# calibrated and validated alike, on the same two declared splits; and the first session's
# profile carried to its points unchanged (--fit-subset none: nothing refitted).
second_h200() {
  reads_and_writes second-h200-vm gpu-machine-h200-second \
    "GPU machine, a second VM: 16 vCPUs, one H200 on PCIe Gen5 x16, ext4 on a virtio disk"
  local r=reports/calibration/gpu-machine/second-h200-vm
  "$iowall" validate reports/calibration/gpu-machine/checkpoint-h200/profile.json \
    "$r"/disk/sweep/*.json "$r"/writes/*.json --fit-subset none --report "$r/validation-first-profile" \
    --title "the first session's profile, unchanged, on the second VM's reads and writes" \
    > "$r/validation-first-profile.txt"
}
if [ "${1:-}" = checkpoint-h200 ]; then checkpoint_h200; exit; fi
if [ "${1:-}" = second-h200-vm ]; then second_h200; exit; fi
[ "${1:-}" = gpu-machine ] || fit cpu-machine "CPU build machine: 2-vCPU VM, ext4 on a virtio disk"
# The GPU machine is lent as a fresh VM each time: the newest sweep (with gpu_direct in cuFile's
# compatibility mode) is the one the calibrated topology comes from; the previous VM's is validated too.
if [ "${1:-}" != cpu-machine ]; then
  fit gpu-machine "GPU machine: 16-vCPU Firecracker VM, one H100 on PCIe Gen5 x16, ext4 on a virtio disk"
  fit gpu-machine "GPU machine, previous VM: 16 vCPUs, one H200 on PCIe Gen5 x16, ext4 on a virtio disk" \
    sweep-h200-vm -h200-vm
  checkpoint_h200
  second_h200
fi
