#!/usr/bin/env bash
# O_DIRECT|O_DSYNC writes on ext4, into a new file (every write allocates its blocks, so
# each fdatasync must commit a jbd2 transaction) and over the same file once written (no
# allocation: the data sync is a cache flush), at 128 KiB and 1 MiB, ROUNDS times,
# alternating. The overwrite runs measure the device flush the model needs; the
# allocating runs are what the ext4 layer (models/storage/ext4_fs.hpp) must predict from
# it. Writes only files it creates, in a directory it creates under DIR.
#   scripts/probe-ext4-journal.sh OUT_DIR [DIR]     (DIR: default /var/tmp)
set -euo pipefail
out=${1:?usage: probe-ext4-journal.sh OUT_DIR [DIR]}
mkdir -p "$out"
work=$(mktemp -d "${2:-/var/tmp}/iowall-ext4-probe.XXXXXX")
trap 'rm -rf "$work"' EXIT
size_mib=${SIZE_MIB:-256}
{
  echo "kernel: $(uname -r)"
  echo "mount: $(findmnt -n -o SOURCE,FSTYPE,OPTIONS -T "$work")"
  for f in /proc/fs/ext4/*/options; do [ -r "$f" ] && echo "$f: $(tr '\n' ' ' < "$f")"; done
  for q in /sys/block/*/queue/write_cache; do echo "$q: $(cat "$q")"; done
} > "$out/machine.txt" 2>&1
# The journal's own statistics (transactions, blocks per transaction, commit time) and,
# when the file system has them, its fast commits.
snap() {
  for i in /proc/fs/jbd2/*/info /proc/fs/ext4/*/fc_info; do [ -r "$i" ] && { echo "== $i"; cat "$i"; }; done > "$1" 2>&1 || true
}
# dd prints "N bytes ... copied, T s, R" on its last line: keep the seconds.
seconds() { tail -n 1 | sed -E 's/.*copied, ([0-9.e+-]+) s.*/\1/'; }
echo "io_size mode round bytes seconds" > "$out/dsync.txt"
for r in $(seq 1 "${ROUNDS:-3}"); do
  for bs in 128K 1M; do
    count=$(( size_mib * 1024 * 1024 / $(numfmt --from=iec "$bs") ))
    f="$work/file-$bs"
    rm -f "$f"
    snap "$out/jbd2-$bs-r$r-before.txt"
    t=$(dd if=/dev/zero of="$f" bs="$bs" count="$count" oflag=direct,dsync 2>&1 | seconds)
    snap "$out/jbd2-$bs-r$r-after.txt"
    echo "$bs allocating $r $((size_mib * 1024 * 1024)) $t" >> "$out/dsync.txt"
    t=$(dd if=/dev/zero of="$f" bs="$bs" count="$count" oflag=direct,dsync conv=notrunc 2>&1 | seconds)
    echo "$bs overwrite $r $((size_mib * 1024 * 1024)) $t" >> "$out/dsync.txt"
    rm -f "$f"
  done
done
cat "$out/dsync.txt"
