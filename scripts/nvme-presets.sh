#!/bin/sh
# Regenerates the table of reports/nvme-presets.md: each nvme_ssd preset in
# scenarios/nvme-preset-qd.json (cpu_only, 4 KiB random reads, psync) at QD1, QD16 and
# QD512 (enough I/Os in flight to reach the drive's IOPS ceiling). psync keeps one I/O in
# flight per thread, so depth N is N threads, as fio's numjobs.
set -eu
IOWALL=${IOWALL:-build/release/iowall}
echo "| preset | load | IOPS | mean us | p99 us | p99.9 us | limited by |"
echo "|---|---|---|---|---|---|---|"
for p in optane_p4800x optane_p5800x pm1743 micron_9550 cm7r micron_9650 samsung_980pro; do
  for load in "1 1" "16 1" "512 1"; do
    set -- $load
    gen=5; [ "$p" = micron_9650 ] && gen=6  # a Gen6 drive in a Gen6 slot
    $IOWALL run scenarios/nvme-preset-qd.json -q --output-format json --set '/sweep={}' \
      --set "/topology/devices/3/preset=\"$p\"" --set "/workload/threads=$1" --set "/workload/qd=$2" \
      --set "/topology/links/2/pcie/gen=$gen" |
      python3 -c "
import json, sys
m = json.load(sys.stdin)['metrics']['cpu_only']
l = m['limited_by']
print(f\"| $p | $1 x QD$2 | {m['iops']/1e3:.1f}k | {m['latency_mean_us']:.1f} | {m['latency_p99_us']:.1f} | {m['latency_p999_us']:.1f} | {l['resource']} {l['utilization']:.2f} |\")"
  done
done
