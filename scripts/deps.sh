#!/usr/bin/env bash
# Installs the Debian packages iowall needs, only those missing.
# As root it runs apt-get; otherwise it prints the command to run.
set -eu
required=(g++ cmake make ninja-build pkg-config libboost-graph-dev libeigen3-dev
  nlohmann-json3-dev libcli11-dev catch2 libvalijson-dev libfmt-dev libspdlog-dev
  liburing-dev)
# chromium: the report's browser test (headless) renders the HTML report; clang-14 and
# libclang-rt-14-dev: the libFuzzer targets (make fuzz-smoke); python3: the measurement scripts,
# and the test that derives the GPU-machine corpus sources again from their sessions.
optional=(gnuplot-nox fio ccache libopenmpi-dev openmpi-bin chromium clang-14 libclang-rt-14-dev python3)
want=("${required[@]}")
[ "${1:-}" = "--with-optional" ] && want+=("${optional[@]}")
missing=()
for p in "${want[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
cmd="apt-get install -y --no-install-recommends ${missing[*]}"
if [ "$(id -u)" -ne 0 ]; then
  echo "iowall: missing Debian packages; as root run: apt-get update && $cmd" >&2
  exit 1
fi
echo "iowall: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
$cmd -qq
