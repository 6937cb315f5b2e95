#!/usr/bin/env bash
# Engine speed on the hold model, three runs per size; prints a markdown table.
# Usage: scripts/bench-engine.sh [path/to/iowall] >> reports/benchmarks.md
set -euo pipefail
bin=${1:-build/release/iowall}
echo "| pending | events | run | M events/s | peak RSS MiB | B per pending event |"
echo "|---:|---:|---:|---:|---:|---:|"
for pending in 100000 1000000; do
  for run in 1 2 3; do
    "$bin" bench engine --pending "$pending" --events 20000000 --output-format json |
      python3 -c 'import json,sys; d=json.load(sys.stdin); print("| %d | %d | %s | %.2f | %.1f | %.1f |" % (d["pending"], d["events"], sys.argv[1], d["events_per_s"]/1e6, d["peak_rss_bytes"]/1048576, d["bytes_per_pending_event"]))' "$run"
  done
done
