#!/usr/bin/env bash
# Runs the bad-input catalogue (catalogue.tsv beside this script) against an iowall binary,
# without the C++ test, and prints one line per failing case:
#   id | exit code | first 200 characters of stderr | reason(s)
# then the number of cases per class and per reason.
#
#   tests/cli/bad_inputs/run_catalogue.sh build/release/iowall [ID-REGEX]
#
# Each case runs with an empty directory as its working directory and TMPDIR ({dir}),
# under `timeout 20` and a 4 GiB address-space limit. Exit status: 0 when every case
# passed, 1 otherwise. Set KEEP=1 to keep the scratch directory.
set -u
export LC_ALL=C

if [ $# -lt 1 ]; then
  echo "usage: $0 IOWALL_BINARY [ID-REGEX]" >&2
  exit 2
fi
BIN=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
FILTER=${2:-}
HERE=$(cd "$(dirname "$0")" && pwd)
SRC=$(cd "$HERE/../../.." && pwd)
CAT=$HERE/catalogue.tsv
TIMEOUT=${TIMEOUT:-20}
MEM_KB=${MEM_KB:-4194304}
[ -x "$BIN" ] || { echo "$0: $BIN is not an executable" >&2; exit 2; }

WORK=$(mktemp -d "${TMPDIR:-/tmp}/iowall-catalogue.XXXXXX")
if [ "${KEEP:-0}" != 1 ]; then trap 'rm -rf "$WORK"' EXIT; else echo "scratch: $WORK" >&2; fi
mkdir -p "$WORK/gen" "$WORK/case" "$WORK/io"

# Generated files: the @gen lines (see the head of catalogue.tsv).
awk -F'\t' -v gen="$WORK/gen" -v src="$SRC" '
function unesc(s,   out, i, c, n, h) {
  gsub(/\{src\}/, src, s)
  out = ""
  for (i = 1; i <= length(s); i++) {
    c = substr(s, i, 1)
    if (c != "\\" || i == length(s)) { out = out c; continue }
    n = substr(s, ++i, 1)
    if (n == "t") out = out "\t"
    else if (n == "n") out = out "\n"
    else if (n == "x") { h = tolower(substr(s, i + 1, 2)); i += 2
      out = out sprintf("%c", (index("0123456789abcdef", substr(h, 1, 1)) - 1) * 16 + index("0123456789abcdef", substr(h, 2, 1)) - 1) }
    else out = out n
  }
  return out
}
$1 == "@gen" {
  file = gen "/" $2 ".json"
  for (f = 3; f <= NF; f++) {
    s = $f
    if (substr(s, 1, 1) == "\047") { printf "%s", unesc(substr(s, 2)) > file }
    else if (substr(s, 1, 5) == "#seq#") {
      split(s, p, "#"); a = p[3] + 0; b = p[4] + 0; pre = unesc(p[5]); post = unesc(p[6]); sep = unesc(p[7])
      for (i = a; i <= b; i++) printf "%s%d%s%s", pre, i, post, (i < b ? sep : "") > file
    } else if (match(s, /^[0-9]+\*/)) {
      n = substr(s, 1, RLENGTH - 1) + 0; t = unesc(substr(s, RLENGTH + 1))
      chunk = ""; for (k = 0; k < 1000 && k < n; k++) chunk = chunk t
      for (k = 0; k + 1000 <= n; k += 1000) printf "%s", chunk > file
      for (; k < n; k++) printf "%s", t > file
    } else { print "bad segment in @gen " $2 ": " s > "/dev/stderr"; exit 1 }
  }
  close(file)
}' "$CAT" || exit 2

# Whether LINE holds SPEC: substrings joined by " && " (all needed) and " || " (any one).
matches() {
  local line=$1 spec=$2 part alts alt any
  while :; do
    part=${spec%% && *}
    any=0 alts=$part
    while :; do
      alt=${alts%% || *}
      [[ $line == *"$alt"* ]] && any=1
      [ "$alts" = "$alt" ] && break
      alts=${alts#* || }
    done
    [ $any = 1 ] || return 1
    [ "$spec" = "$part" ] && return 0
    spec=${spec#* && }
  done
}

listing() { (ls -A "$HERE"; ls -A "$WORK/gen") | cksum; }
before=$(listing)

total=0; failed=0
declare -A class_count reason_count
while IFS=$'\t' read -r id cls args must rest; do
  case "$id" in ''|'#'*|'@gen') continue ;; esac
  if [ -n "$FILTER" ] && ! [[ $id =~ $FILTER ]]; then continue; fi
  total=$((total + 1))
  class_count[$cls]=$(( ${class_count[$cls]:-0} + 1 ))
  dir=$WORK/case/$id
  mkdir -p "$dir"
  for v in args must; do
    s=${!v}
    s=${s//\{dir\}/$dir}
    s=${s//\{src\}/$SRC}
    while [[ $s =~ \{gen:([A-Za-z0-9_]+)\} ]]; do s=${s//"${BASH_REMATCH[0]}"/$WORK/gen/${BASH_REMATCH[1]}.json}; done
    printf -v "$v" '%s' "$s"
  done
  out=$WORK/io/$id.out err=$WORK/io/$id.err
  # (In a group whose stderr is dropped: bash reports a child killed by a signal there.)
  { ( cd "$dir" && ulimit -v "$MEM_KB" && TMPDIR=$dir exec timeout -k 5 "$TIMEOUT" /bin/sh -c "exec \"$BIN\" $args" ) >"$out" 2>"$err" </dev/null; } 2>/dev/null
  rc=$?
  reasons=()
  if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then reasons+=("timeout")
  elif [ $rc -gt 128 ]; then reasons+=("signal $((rc - 128))")
  elif [ $rc -ne 2 ]; then reasons+=("exit code $rc")
  fi
  nl=$(tr -cd '\n' <"$err" | wc -c)
  bytes=$(wc -c <"$err")
  line=$(head -c 100000 "$err" | head -n 1)
  if [ "$bytes" -eq 0 ]; then reasons+=("no stderr")
  else
    if [ "$nl" -ne 1 ] || [ "$(tail -c 1 "$err" | od -An -c | tr -d ' ')" != '\n' ]; then reasons+=("$nl lines")
    fi
    if [ "${#line}" -gt 300 ]; then reasons+=("line too long (${#line})"); fi
    case "$line" in "iowall: "*) ;; *) reasons+=("no iowall: prefix") ;; esac
    matches "$line" "$must" || reasons+=("missing: $must")
  fi
  if [ -s "$out" ]; then reasons+=("stdout $(wc -c <"$out") bytes"); fi
  if [ -n "$(ls -A "$dir")" ]; then reasons+=("wrote: $(ls -A "$dir" | head -3 | tr '\n' ' ')"); fi
  now=$(listing)
  if [ "$now" != "$before" ]; then reasons+=("wrote beside its inputs"); before=$now; fi
  rm -rf "$dir"
  if [ ${#reasons[@]} -gt 0 ]; then
    failed=$((failed + 1))
    for r in "${reasons[@]}"; do
      k=${r%%:*}; k=${k%% (*}; k=${k%% [0-9]*}
      case "$r" in *lines) k="multiple lines" ;; "stdout "*) k="stdout" ;; "exit code "*) k="exit code" ;; "signal "*) k="signal" ;; esac
      reason_count[$k]=$(( ${reason_count[$k]:-0} + 1 ))
    done
    shown=$(head -c 200 "$err" | tr '\n' ' ')
    printf '%s | %s | %s | %s\n' "$id" "$rc" "$shown" "$(IFS=';'; echo "${reasons[*]}")"
  fi
done <"$CAT"

echo
echo "cases per class:"
for c in "${!class_count[@]}"; do printf '  %-26s %d\n' "$c" "${class_count[$c]}"; done | sort
echo "failures per reason:"
for r in "${!reason_count[@]}"; do printf '  %-26s %d\n' "$r" "${reason_count[$r]}"; done | sort
echo "$failed of $total cases failed"
[ "$failed" -eq 0 ]
