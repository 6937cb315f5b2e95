#!/usr/bin/env bash
# Builds the libFuzzer targets (CMake preset `fuzz`) and runs each for SECONDS, one
# after the other, starting from the committed corpus in fuzz/corpus/TARGET plus the
# seeds in the repository (scenarios/, topologies/, calibration measurements).
#
#   scripts/fuzz-campaign.sh [--merge] SECONDS [TARGET...]
#
# --merge: afterwards minimize everything found back into fuzz/corpus/TARGET.
# Logs go to build/fuzz/logs/TARGET.log, crashing inputs to build/fuzz/artifacts/TARGET/.
# Exits 1 when any target finds a crash, a hang (> 10 s per input), an out-of-memory
# (> 2 GiB) or a sanitizer report.
set -euo pipefail
cd "$(dirname "$0")/.."
merge=0
if [ "${1:-}" = "--merge" ]; then merge=1; shift; fi
seconds=${1:?usage: scripts/fuzz-campaign.sh [--merge] SECONDS [TARGET...]}
shift
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

out=build/fuzz
failed=0
for t in "${targets[@]}"; do
  mkdir -p "$out/corpus/$t" "$out/artifacts/$t" "$out/logs" "fuzz/corpus/$t"
  log="$out/logs/$t.log"
  echo "fuzz: $t for ${seconds} s (log: $log)" >&2
  # shellcheck disable=SC2046  # seeds() lists several folders
  if ! "$out/${t}_fuzz" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 $(dict "$t") \
      -artifact_prefix="$out/artifacts/$t/" "$out/corpus/$t" "fuzz/corpus/$t" $(seeds "$t") >"$log" 2>&1; then
    echo "fuzz: $t FAILED; the input is in $out/artifacts/$t/, the report in $log:" >&2
    grep -E "ERROR|SUMMARY|runtime error|Test unit written" "$log" | head -n 20 >&2 || true
    failed=1
    continue
  fi
  grep -E "^#[0-9]+ +DONE" "$log" | tail -n 1 >&2 || true
  grep -E "stat::number_of_executed_units" "$log" >&2 || true
  if [ "$merge" = 1 ]; then
    rm -rf "fuzz/corpus/$t.new"
    mkdir -p "fuzz/corpus/$t.new"
    # shellcheck disable=SC2046
    "$out/${t}_fuzz" -merge=1 -timeout=10 -rss_limit_mb=2048 "fuzz/corpus/$t.new" "$out/corpus/$t" "fuzz/corpus/$t" \
      $(seeds "$t") >>"$log" 2>&1
    rm -rf "fuzz/corpus/$t"
    mv "fuzz/corpus/$t.new" "fuzz/corpus/$t"
    echo "fuzz: $t corpus minimized to $(ls "fuzz/corpus/$t" | wc -l) files, $(du -sk "fuzz/corpus/$t" | cut -f1) KiB" >&2
  fi
done
exit "$failed"
