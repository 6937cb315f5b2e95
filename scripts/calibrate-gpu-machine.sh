#!/usr/bin/env bash
# One call on the GPU machine: what the machine is, then two calibration sweeps.
#   memory: a file on tmpfs (no disk in the way). Storage is the page cache, so the
#           paths differ only by their host and GPU work: memcpy, pinned-memory copies,
#           cuFile's compatibility-mode bounce buffers. cuFile registers files on tmpfs
#           without the udev lookup that fails on a virtio disk in a VM (error 5027).
#   disk:   the local virtio disk, interleaved rounds (the storage fit).
#   scripts/calibrate-gpu-machine.sh OUT_DIR
# Environment: IOWALL (binary), ROUNDS (default 3), MEMORY_TYPES, MEMORY_IO_SIZES, DISK_TYPES,
# DISK_IO_SIZES.
set -uo pipefail
out=${1:?usage: calibrate-gpu-machine.sh OUT_DIR}
iowall=${IOWALL:-build/release/iowall}
here=$(cd "$(dirname "$0")" && pwd)
mkdir -p "$out/memory" "$out/disk"

{
  nvidia-smi -L 2>&1
  nproc
  free -g
  uname -r
  df -hT /dev/shm /var/tmp | tail -n 2
} > "$out/machine.txt" 2>&1

# cuFile writes its log into the working directory: keep it with the results.
cd "$out" || exit 1
shm=/dev/shm/iowall-calibration.bin
IOWALL=$iowall CALIB_FILE=$shm FILE_SIZE=1G RUNTIME="1 s" REPEAT=1 ROUNDS=${ROUNDS:-3} \
  IO_SIZES="${MEMORY_IO_SIZES:-4K 64K 1M 16M}" QDS="1 8" THREADS="1 2" \
  "$here/calibrate-sweep.sh" memory ${MEMORY_TYPES:-cpu_only cpu_cached cpu_gpu gpu_direct} 2> memory.log
[ -f cufile.log ] && mv cufile.log memory/cufile.log

IOWALL=$iowall CALIB_FILE=/var/tmp/iowall-calibration.bin FILE_SIZE=1G RUNTIME="1 s" REPEAT=1 ROUNDS=${ROUNDS:-3} \
  IO_SIZES="${DISK_IO_SIZES:-4K 128K 1M}" QDS="1 8" THREADS="1 2" \
  "$here/calibrate-sweep.sh" disk ${DISK_TYPES:-cpu_only cpu_gpu} 2> disk.log
[ -f cufile.log ] && mv cufile.log disk/cufile.log
exit 0
