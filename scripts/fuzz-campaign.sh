#!/usr/bin/env bash
# Builds the libFuzzer targets (CMake preset `fuzz`) and runs each for SECONDS, one
# after the other, starting from the committed corpus in fuzz/corpus/TARGET plus the
# seeds in the repository (scenarios/, topologies/, calibration measurements).
#
#   scripts/fuzz-campaign.sh [--merge] SECONDS [TARGET...]
#   scripts/fuzz-campaign.sh --merge-only [TARGET...]
#
# --merge: afterwards minimize everything found back into fuzz/corpus/TARGET, keeping
# only inputs up to a size cap per target so the committed corpus stays small (the
# large seeds in the repository are read by every run anyway).
# --merge-only: the minimization alone, on what earlier runs left in build/fuzz/corpus.
# Logs go to build/fuzz/logs/TARGET.log, crashing inputs to build/fuzz/artifacts/TARGET/.
# Inputs up to 64 KiB. Exits 1 when any target finds a crash, a hang (> 10 s per input), an out-of-memory
# (> 2 GiB) or a sanitizer report.
set -euo pipefail
cd "$(dirname "$0")/.."
merge=0
seconds=0
case "${1:-}" in
  --merge) merge=1; shift ;;
  --merge-only) merge=1; seconds=none; shift ;;
esac
if [ "$seconds" != none ]; then
  seconds=${1:?usage: scripts/fuzz-campaign.sh [--merge] SECONDS [TARGET...] | --merge-only [TARGET...]}
  shift
fi
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(units scenario topology measurement)

cmake --preset fuzz >/dev/null
cmake --build --preset fuzz -j "${JOBS:-2}"

# Read-only seed folders for each target (the committed corpus comes first).
seeds() {
  case "$1" in
    scenario) echo scenarios ;;
    topology) echo topologies ;;
    measurement) echo reports/calibration/cpu-machine/sweep reports/calibration/gpu-machine/sweep ;;
  esac
}

# The JSON targets get a dictionary of JSON tokens and iowall's keys.
dict() { [ "$1" = units ] || echo "-dict=fuzz/json.dict"; }

# Largest input kept in the committed corpus: a measurement needs its full structure.
cap() { case "$1" in measurement) echo 4096 ;; *) echo 1536 ;; esac; }

out=build/fuzz
failed=0
for t in "${targets[@]}"; do
  mkdir -p "$out/corpus/$t" "$out/artifacts/$t" "$out/logs" "fuzz/corpus/$t"
  log="$out/logs/$t.log"
  if [ "$seconds" != none ]; then
    echo "fuzz: $t for ${seconds} s (log: $log)" >&2
    # shellcheck disable=SC2046  # seeds() lists several folders
    if ! "$out/${t}_fuzz" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 -print_final_stats=1 $(dict "$t") \
        -artifact_prefix="$out/artifacts/$t/" "$out/corpus/$t" "fuzz/corpus/$t" $(seeds "$t") >"$log" 2>&1; then
      echo "fuzz: $t FAILED; the input is in $out/artifacts/$t/, the report in $log:" >&2
      grep -E "ERROR|SUMMARY|runtime error|Test unit written" "$log" | head -n 20 >&2 || true
      failed=1
      continue
    fi
    # The final status line (executions, cov:, ft:, corpus) and the execution count.
    grep -E "^#[0-9]+[[:space:]]+DONE" "$log" | tail -n 1 >&2 || true
    grep -E "stat::number_of_executed_units" "$log" >&2 || true
  fi
  if [ "$merge" = 1 ]; then
    staged="$out/merge/$t"
    rm -rf "$staged" "fuzz/corpus/$t.new"
    mkdir -p "$staged" "fuzz/corpus/$t.new"
    find "$out/corpus/$t" "fuzz/corpus/$t" -type f -size -"$(($(cap "$t") + 1))"c -exec cp {} "$staged/" \;
    "$out/${t}_fuzz" -merge=1 -timeout=10 -rss_limit_mb=2048 "fuzz/corpus/$t.new" "$staged" \
      >"$out/logs/$t.merge.log" 2>&1
    grep -E "MERGE-OUTER: [0-9]+ new files" "$out/logs/$t.merge.log" >&2 || true
    rm -rf "fuzz/corpus/$t"
    mv "fuzz/corpus/$t.new" "fuzz/corpus/$t"
    echo "fuzz: $t corpus minimized to $(ls "fuzz/corpus/$t" | wc -l) files, $(cat "fuzz/corpus/$t"/* | wc -c) bytes" >&2
  fi
done
exit "$failed"
