#!/usr/bin/env bash
# Renders the default demo's HTML report (`iowall run scenarios/default.json --report`)
# and a screenshot of it in headless chromium: reports/report-default.png.
# Run from the repository root after `make build`.
set -eu
iowall=${IOWALL:-build/release/iowall}
mkdir -p reports/out
"$iowall" run scenarios/default.json --report reports/out/report-default.html >/dev/null
profile=$(mktemp -d)
trap 'rm -rf "$profile"' EXIT
chromium --headless --no-sandbox --disable-gpu --hide-scrollbars --user-data-dir="$profile" \
  --virtual-time-budget=5000 --window-size=1200,${HEIGHT:-3200} \
  --screenshot=reports/report-default.png "file://$PWD/reports/out/report-default.html" >/dev/null 2>&1
echo "reports/report-default.png from reports/out/report-default.html"
