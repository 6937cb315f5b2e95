#!/usr/bin/env bash
# Why do two threads at QD1 get less from a VM's virtio disk than one thread at QD8? Runs
# sequential and random reads of one file at 4 KiB and 128 KiB for (qd, threads) = (1,1),
# (1,2), (2,1), (8,1), interleaved rounds of 1 s each, recording the block layer's request
# counts (in each measurement file) and the guest's virtio interrupts around every run.
# If random reads at one thread cost what sequential reads cost with two threads, the
# second stream defeats a sequential read-ahead below the guest (the hypervisor reads the
# disk image through one file descriptor); if interrupts per I/O differ, completion
# batching does.
#   scripts/probe-two-threads.sh OUT_DIR     (environment: IOWALL, ROUNDS (default 3))
set -euo pipefail
out=${1:?usage: probe-two-threads.sh OUT_DIR}
iowall=${IOWALL:-build/release/iowall}
rounds=${ROUNDS:-3}
mkdir -p "$out"
work=$(mktemp -d /var/tmp/iowall-two-threads.XXXXXX)
trap 'rm -rf "$work"' EXIT
file=$work/probe.bin
"$iowall" measure -f "$file" -s 1G -i 1M --keep --quiet
irqs() { awk '/virtio/ {s = 0; for (i = 2; i <= NF; ++i) if ($i ~ /^[0-9]+$/) s += $i; t += s} END {print t + 0}' /proc/interrupts; }
for r in $(seq 1 "$rounds"); do
  for io in 4K 128K; do
    for mode in read randread; do
      for qt in 1:1 1:2 2:1 8:1; do
        qd=${qt%:*} t=${qt#*:}
        name=$mode-$io-qd$qd-t$t-r$r
        i0=$(irqs)
        "$iowall" measure -f "$file" -i "$io" -w "$t" -x cpu_only --engine io_uring --qd "$qd" -I "$mode" \
          --runtime "1 s" --output-format json --output "$out/$name.json" --quiet
        i1=$(irqs)
        echo "$name virtio_interrupts $((i1 - i0))" >> "$out/interrupts.txt"
      done
    done
  done
done
