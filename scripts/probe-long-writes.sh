#!/usr/bin/env bash
# Long sequential writes on the GPU machine's disk, to tell where a long buffered
# writeback loses rate (the checkpoint fsync that ran at 2.8 GB/s for 8 GB while a 1 MiB
# O_DIRECT sweep of 1 GiB reached 4.3 GB/s): O_DIRECT writes of 1, 4 and 8 GiB, and
# buffered writes of the same sizes timed until durable (dd conv=fdatasync), each size in
# interleaved rounds, from incompressible bytes on tmpfs. Everything goes to two private
# folders (one on the disk, one on tmpfs), removed at exit.
#   scripts/probe-long-writes.sh OUT_DIR [ROUNDS]
set -uo pipefail
out=${1:?usage: probe-long-writes.sh OUT_DIR [ROUNDS]}
rounds=${2:-3}
mkdir -p "$out"
work=$(mktemp -d /var/tmp/iowall-long-writes.XXXXXX)
shm=$(mktemp -d /dev/shm/iowall-long-writes.XXXXXX)
trap 'rm -rf "$work" "$shm"' EXIT
f=$work/data.bin
# Incompressible bytes (a virtual disk's backend may treat zeros specially), from tmpfs.
head -c 8G /dev/urandom > "$shm/src.bin"
{
  echo "# mode size_gib round seconds"
  for r in $(seq 1 "$rounds"); do
    for g in 1 4 8; do
      for mode in direct buffered; do
        rm -f "$f"; sync
        flags=(oflag=direct); [ $mode = buffered ] && flags=(conv=fdatasync)
        s=$(date +%s.%N)
        dd if="$shm/src.bin" of="$f" bs=1M count=$((g * 1024)) "${flags[@]}" status=none
        e=$(date +%s.%N)
        echo "$mode $g $r $(awk -v a="$s" -v b="$e" 'BEGIN { printf "%.3f", b - a }')"
      done
    done
  done
  rm -f "$f"
  grep -E "^(Dirty|Writeback):" /proc/meminfo
  sysctl vm.dirty_ratio vm.dirty_background_ratio vm.dirty_expire_centisecs 2>/dev/null
} > "$out/long-writes.txt" 2>&1
cat "$out/long-writes.txt"
