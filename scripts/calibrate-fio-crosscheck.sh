#!/usr/bin/env bash
# Cross-checks `iowall measure` against fio on the same file and settings, interleaved
# (fio, iowall, fio, iowall, ...) so that drifting shared storage hits both alike, and
# prints the median of the per-pair ratios iowall/fio for each setting.
#   scripts/calibrate-fio-crosscheck.sh [OUT.md]
# Environment: IOWALL, CALIB_FILE, FILE_SIZE, PAIRS (default 5), RUNTIME (seconds, default 2),
# SETTINGS ("xfer:io_size:qd:threads ..." with xfer cpu_only or cpu_cached).
set -euo pipefail
out=${1:-}
iowall=${IOWALL:-build/release/iowall}
file=${CALIB_FILE:-/var/tmp/iowall-fio-crosscheck.bin}
file_size=${FILE_SIZE:-1G}
pairs=${PAIRS:-5}
runtime=${RUNTIME:-2}
settings=(${SETTINGS:-cpu_only:4K:1:1 cpu_only:128K:8:1 cpu_only:1M:8:2 cpu_cached:128K:1:1})
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

bytes=$(stat -c %s "$file")
median() { sort -g | awk '{a[NR]=$1} END {print (NR%2 ? a[(NR+1)/2] : (a[NR/2]+a[NR/2+1])/2)}'; }

report="| setting | pairs | fio MB/s (median) | iowall MB/s (median) | median of pair ratios iowall/fio | within 5% |\n|---|---|---|---|---|---|\n"
for s in "${settings[@]}"; do
  IFS=: read -r xfer io qd threads <<< "$s"
  direct=1
  # fio drops the file from the page cache before a buffered job unless told not to.
  invalidate=1
  [ "$xfer" = cpu_cached ] && direct=0 invalidate=0
  if [ "$xfer" = cpu_cached ]; then cat "$file" > /dev/null; fi  # both read a warm page cache
  ratios=() fios=() iows=()
  for ((p = 0; p < pairs; ++p)); do
    # fio as iowall runs it: each job owns one contiguous 1/threads of the file (offset_increment).
    fio --name=x --filename="$file" --rw=read --bs="$io" --direct=$direct --invalidate=$invalidate --ioengine=io_uring --iodepth="$qd" \
        --numjobs="$threads" --size=$((bytes / threads)) --offset_increment=$((bytes / threads)) \
        --time_based --runtime="$runtime" --group_reporting --output-format=json > "$tmp/fio.json"
    fio_bw=$(jq '.jobs[0].read.bw_bytes' "$tmp/fio.json")
    "$iowall" measure -f "$file" -i "$io" -w "$threads" -x "$xfer" --engine io_uring --qd "$qd" -I read \
        --runtime "$runtime s" --output-format json --output "$tmp/iowall.json" --quiet
    iow_bw=$(jq '.iowall.repeats[0].read.bw_bytes' "$tmp/iowall.json")
    fios+=("$fio_bw") iows+=("$iow_bw")
    ratios+=("$(awk -v a="$iow_bw" -v b="$fio_bw" 'BEGIN {print a / b}')")
    echo "$s pair $((p + 1)): fio $fio_bw B/s, iowall $iow_bw B/s" >&2
  done
  r=$(printf '%s\n' "${ratios[@]}" | median)
  f=$(printf '%s\n' "${fios[@]}" | median)
  i=$(printf '%s\n' "${iows[@]}" | median)
  ok=$(awk -v r="$r" 'BEGIN {print (r > 0.95 && r < 1.05) ? "yes" : "no"}')
  line=$(awk -v s="$s" -v n="$pairs" -v f="$f" -v i="$i" -v r="$r" -v ok="$ok" \
    'BEGIN {printf "| %s | %d | %.1f | %.1f | %.3f | %s |", s, n, f / 1e6, i / 1e6, r, ok}')
  echo "$line"
  report+="$line\n"
done
if [ -n "$out" ]; then
  {
    echo "# iowall measure vs fio, interleaved"
    echo
    echo "Regenerate: \`scripts/calibrate-fio-crosscheck.sh $out\` ($pairs pairs of ${runtime} s runs per setting; setting = xfer:io_size:qd:threads; io_uring, sequential reads of a ${file_size} file on the local disk; $(fio --version))."
    echo
    printf "%b" "$report"
  } > "$out"
fi
