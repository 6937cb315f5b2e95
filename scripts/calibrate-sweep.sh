#!/usr/bin/env bash
# Measures the calibration sweep of one machine with `iowall measure`: sequential reads of
# one file, I/O size x queue depth x threads, for each transfer type named, each point
# repeated so that validation can show the run-to-run spread. With ROUNDS above 1 the
# repeats are interleaved: every point once per round, so that a slow minute of a shared
# disk spreads over all points instead of landing on one (files NAME-rN.json; calibrate
# and validate group them back by configuration).
#   scripts/calibrate-sweep.sh OUT_DIR [XFER_TYPES...]    (default types: cpu_only cpu_cached)
# Environment: IOWALL (binary), CALIB_FILE (the file read; created, kept during the sweep,
# removed at the end), FILE_SIZE, RUNTIME (per repeat), REPEAT (back-to-back repeats per
# point), ROUNDS, IO_SIZES, QDS, THREADS.
set -euo pipefail
out=${1:?usage: calibrate-sweep.sh OUT_DIR [XFER_TYPES...]}
shift
types=("$@")
[ ${#types[@]} -eq 0 ] && types=(cpu_only cpu_cached)
iowall=${IOWALL:-build/release/iowall}
file=${CALIB_FILE:-/var/tmp/iowall-calibration.bin}
file_size=${FILE_SIZE:-1G}
runtime=${RUNTIME:-1 s}
repeat=${REPEAT:-3}
rounds=${ROUNDS:-1}
io_sizes=(${IO_SIZES:-4K 16K 128K 1M})
qds=(${QDS:-1 8})
threads=(${THREADS:-1 2})

mkdir -p "$out"
created=0
if [ ! -e "$file" ]; then
  # iowall fills it with random data and fsyncs it; --keep leaves it for the sweep.
  "$iowall" measure -f "$file" -s "$file_size" -i 1M --keep --quiet
  created=1
fi
cleanup() { [ "$created" = 1 ] && rm -f "$file"; }
trap cleanup EXIT

measure_round() {  # suffix of the file names ("" or "-rN")
  local suffix=$1
  for x in "${types[@]}"; do
    if [ "$x" = cpu_cached ]; then
      # Warm the page cache once, so that every cpu_cached repeat measures cached reads.
      "$iowall" measure -f "$file" -i 1M -x cpu_cached --quiet
    fi
    for io in "${io_sizes[@]}"; do
      for qd in "${qds[@]}"; do
        # cuFile's synchronous reads take one I/O at a time per thread.
        if [ "$x" = gpu_direct ] && [ "$qd" != 1 ]; then continue; fi
        engine=io_uring
        [ "$x" = gpu_direct ] && engine=psync
        for t in "${threads[@]}"; do
          name="$x-$io-qd$qd-t$t$suffix.json"
          echo "measuring $name" >&2
          if ! "$iowall" measure -f "$file" -i "$io" -w "$t" -x "$x" --engine "$engine" --qd "$qd" -I read \
                 --runtime "$runtime" --repeat "$repeat" --output-format json --output "$out/$name" --quiet \
                 2> "$out/${name%.json}.err"; then
            echo "failed: $name: $(tail -n 1 "$out/${name%.json}.err")" >&2
          else
            rm -f "$out/${name%.json}.err"
          fi
        done
      done
    done
  done
}

if [ "$rounds" -le 1 ]; then
  measure_round ""
else
  for r in $(seq 1 "$rounds"); do measure_round "-r$r"; done
fi
