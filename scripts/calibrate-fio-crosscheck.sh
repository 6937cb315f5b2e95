#!/usr/bin/env bash
# Cross-checks `iowall measure` against fio on the same file and settings, interleaved
# (fio, fio+THP, iowall, fio, fio+THP, iowall, ...) so that drifting shared storage hits all
# alike, and prints the median of the per-pair ratios iowall/fio for each setting.
#   scripts/calibrate-fio-crosscheck.sh [OUT.md]
# Environment: IOWALL, CALIB_FILE, FILE_SIZE, PAIRS (default 5), RUNTIME (seconds, default 2),
# SETTINGS ("xfer:io_size:qd:threads[:engine] ..." with xfer cpu_only or cpu_cached and
# engine io_uring (default) or psync), FIO_THP (default 1: also run fio with huge-page
# buffers, see below; 0 to skip).
#
# Three things are held equal that were not before:
# - Scheduling: fio's job process calls setsid(), so with autogroup scheduling
#   (/proc/sys/kernel/sched_autogroup_enabled) it gets a CPU share of its own, while a
#   command started from a shell shares its session's (here, with compilers). iowall is run
#   under `setsid -w` as well; this only matters for CPU-bound (cached) settings.
# - Page cache: fio drops the file from the page cache before a buffered job unless
#   --invalidate=0; the cached settings pass it and warm the file before every run. One
#   run with fio's default is reported beside them.
# - Buffers: a 1 MiB O_DIRECT request built from scattered 4 KiB pages needs up to 256
#   descriptors on a virtio disk without indirect descriptors (one per segment), so the
#   ring holds about one such request and the next is requeued; above 254 segments the
#   request is split (1016 KiB + 8 KiB). iowall's buffers are huge pages (one segment per
#   I/O); fio's are malloc'ed 4 KiB pages, so "fio+THP" runs fio with an LD_PRELOAD shim
#   that 2 MiB-aligns allocations of 64 KiB and more (as iowall does) and advises
#   MADV_HUGEPAGE.
# Each run's block-layer requests (reads and sectors from /sys/dev/block/MAJ:MIN/stat of
# the file's device, shared with everything else on it) give the average request size.
set -euo pipefail
out=${1:-}
iowall=${IOWALL:-build/release/iowall}
file=${CALIB_FILE:-/var/tmp/iowall-fio-crosscheck.bin}
file_size=${FILE_SIZE:-1G}
pairs=${PAIRS:-5}
runtime=${RUNTIME:-2}
fio_thp=${FIO_THP:-1}
settings=(${SETTINGS:-cpu_only:4K:1:1 cpu_only:128K:8:1 cpu_only:1M:4:1 cpu_only:1M:8:2 cpu_cached:128K:1:1:psync cpu_cached:128K:8:1 cpu_cached:1M:4:1})
command -v fio >/dev/null || { echo "fio is not installed" >&2; exit 3; }
command -v jq >/dev/null || { echo "jq is not installed" >&2; exit 3; }

created=0
if [ ! -e "$file" ]; then
  "$iowall" measure -f "$file" -s "$file_size" -i 1M --keep --quiet
  created=1
fi
tmp=$(mktemp -d)
cleanup() { rm -rf "$tmp"; [ "$created" = 1 ] && rm -f "$file"; }
trap cleanup EXIT

if [ "$fio_thp" = 1 ]; then
  cat > "$tmp/thp_malloc.c" <<'EOF'
#define _GNU_SOURCE
#include <stddef.h>
#include <sys/mman.h>
extern void* __libc_malloc(size_t);
extern void* __libc_memalign(size_t, size_t);
void* malloc(size_t n) {
  const size_t huge = (size_t)2 << 20;
  if (n < ((size_t)64 << 10)) return __libc_malloc(n);
  const size_t r = (n + huge - 1) & ~(huge - 1);
  void* p = __libc_memalign(huge, r);
  if (p) madvise(p, r, MADV_HUGEPAGE);
  return p;
}
EOF
  cc -O2 -shared -fPIC -o "$tmp/thp_malloc.so" "$tmp/thp_malloc.c" || { echo "no C compiler: FIO_THP=0" >&2; fio_thp=0; }
fi

bytes=$(stat -c %s "$file")
devstat=/sys/dev/block/$(stat -c '%Hd:%Ld' "$file")/stat
[ -r "$devstat" ] || devstat=""
median() { awk 'NF' | sort -g | awk '{a[NR]=$1} END {if (NR == 0) print "nan"; else print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }
blk() { if [ -n "$devstat" ]; then awk '{print $1, $3}' "$devstat"; else echo "0 0"; fi; }
# avg request KiB between two "reads sectors" snapshots
avg_kib() { awk -v a="$1" -v b="$2" 'BEGIN {split(a, x, " "); split(b, y, " "); n = y[1] - x[1]; print (n > 0 ? (y[2] - x[2]) * 512 / n / 1024 : "nan")}'; }

report="| setting | pairs | fio MB/s | fio+THP MB/s | iowall MB/s | iowall/fio (median of pair ratios) | iowall/fio+THP | avg request KiB fio / fio+THP / iowall | fio default --invalidate=1 MB/s (file resident after) |\n|---|---|---|---|---|---|---|---|---|\n"
for s in "${settings[@]}"; do
  IFS=: read -r xfer io qd threads engine <<< "$s"
  engine=${engine:-io_uring}
  [ "$engine" = psync ] && qd=1
  direct=1 invalidate=1
  [ "$xfer" = cpu_cached ] && direct=0 invalidate=0
  tools=(fio iowall)
  [ "$fio_thp" = 1 ] && tools=(fio fio_thp iowall)
  declare -A bw=() req=()
  r_fio=() r_thp=()
  for ((p = 0; p < pairs; ++p)); do
    for t in "${tools[@]}"; do
      [ "$xfer" = cpu_cached ] && cat "$file" > /dev/null  # every run reads a warm page cache
      b0=$(blk)
      if [ "$t" = iowall ]; then
        setsid -w "$iowall" measure -f "$file" -i "$io" -w "$threads" -x "$xfer" --engine "$engine" --qd "$qd" -I read \
            --runtime "$runtime s" --output-format json --output "$tmp/iowall.json" --quiet
        v=$(jq '.iowall.repeats[0].read.bw_bytes' "$tmp/iowall.json")
      else
        pre=()
        [ "$t" = fio_thp ] && pre=(env LD_PRELOAD="$tmp/thp_malloc.so")
        # fio as iowall runs it: each job owns one contiguous 1/threads of the file (offset_increment).
        "${pre[@]}" fio --name=x --filename="$file" --rw=read --bs="$io" --direct=$direct --invalidate=$invalidate \
            --ioengine="$engine" --iodepth="$qd" --numjobs="$threads" --size=$((bytes / threads)) \
            --offset_increment=$((bytes / threads)) --time_based --runtime="$runtime" --group_reporting \
            --output-format=json > "$tmp/fio.json"
        v=$(jq '.jobs[0].read.bw_bytes' "$tmp/fio.json")
      fi
      b1=$(blk)
      bw[$t]+="$v " req[$t]+="$(avg_kib "$b0" "$b1") "
      eval "last_$t=$v"
      echo "$s pair $((p + 1)): $t $v B/s, avg request $(avg_kib "$b0" "$b1") KiB" >&2
    done
    r_fio+=("$(awk -v a="$last_iowall" -v b="$last_fio" 'BEGIN {print a / b}')")
    [ "$fio_thp" = 1 ] && r_thp+=("$(awk -v a="$last_iowall" -v b="$last_fio_thp" 'BEGIN {print a / b}')")
  done
  med() { printf '%s\n' $1 | median; }
  f=$(med "${bw[fio]}") i=$(med "${bw[iowall]}") ft=$(med "${bw[fio_thp]:-}")
  rf=$(printf '%s\n' "${r_fio[@]}" | median) rt=$(printf '%s\n' "${r_thp[@]:-}" | median)
  rq="$(med "${req[fio]}") / $(med "${req[fio_thp]:-}") / $(med "${req[iowall]}")"
  [ "$direct" = 0 ] && rq="- (page cache)"
  inv="-"
  if [ "$xfer" = cpu_cached ]; then
    cat "$file" > /dev/null
    fio --name=x --filename="$file" --rw=read --bs="$io" --direct=0 --ioengine="$engine" --iodepth="$qd" \
        --size="$bytes" --time_based --runtime="$runtime" --output-format=json > "$tmp/fio.json"
    resident=$(fincore -n -b -o RES "$file" 2>/dev/null || echo "?")
    inv=$(awk -v b="$(jq '.jobs[0].read.bw_bytes' "$tmp/fio.json")" -v r="$resident" -v n="$bytes" \
      'BEGIN {printf "%.1f (%.0f%%)", b / 1e6, r == "?" ? -1 : 100 * r / n}')
  fi
  line=$(awk -v s="$s" -v n="$pairs" -v f="$f" -v ft="$ft" -v i="$i" -v rf="$rf" -v rt="$rt" -v rq="$rq" -v inv="$inv" \
    'function mb(x) {return x == "nan" ? "-" : sprintf("%.1f", x / 1e6)} function r3(x) {return x == "nan" ? "-" : sprintf("%.3f", x)}
     BEGIN {gsub(/nan/, "-", rq); printf "| %s | %d | %s | %s | %s | %s | %s | %s | %s |", s, n, mb(f), mb(ft), mb(i), r3(rf), r3(rt), rq, inv}')
  echo "$line"
  report+="$line\n"
  unset bw req
done
if [ -n "$out" ]; then
  {
    echo "# iowall measure vs fio, interleaved"
    echo
    echo "Regenerate: \`scripts/calibrate-fio-crosscheck.sh $out\` ($pairs rounds of ${runtime} s runs per setting, each round fio, fio+THP, iowall; setting = xfer:io_size:qd:threads[:engine], engine io_uring unless named; sequential reads of a ${file_size} file on the local disk, warmed before every buffered run; $(fio --version); $(uname -r))."
    echo
    printf "%b" "$report"
  } > "$out"
fi
