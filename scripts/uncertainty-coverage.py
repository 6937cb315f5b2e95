#!/usr/bin/env python3
"""Coverage of iowall's 90% prediction intervals on the validation corpus.

For every corpus case reproduced by a scenario run (validation/*.json), runs the case's
scenario with its overrides under `iowall run --uncertainty N` and asks whether the 90%
interval of the case's metric contains the published figure. Two intervals per point:
  raw:    the spread of the uncertain inputs alone (presets' and topologies' ranges);
  widened: the same, widened by the corpus's own error for the kind of figure (--widen-by),
          leave-one-source-out: the error bands come from `iowall check` over every other
          source, so no point widens its own interval;
  abs90:  the raw interval widened by the 90th percentile of |simulated/published - 1| over
          the other sources' points of the same kind (symmetric: the published value lies
          within [low / (1 + q), high / (1 - q)]; done time, the inverse of throughput, within
          [low (1 - q), high (1 + q)]), computed here from the same runs.
Planner and study cases are listed as not covered (--uncertainty is a run option).
Writes markdown to stdout.

Usage (from the repository root):
  scripts/uncertainty-coverage.py [--iowall build/release/iowall] [--samples 100] [--jobs 2]
"""
import argparse
import glob
import json
import os
import subprocess
import sys
import tempfile

METRIC = {  # corpus metric -> (headline key, SI -> reported unit)
    "throughput": ("throughput_GBps", 1e-9),
    "iops": ("iops", 1.0),
    "latency_mean": ("latency_mean_us", 1e6),
    "latency_p50": ("latency_p50_us", 1e6),
    "latency_p99": ("latency_p99_us", 1e6),
    "cpu_cores": ("cpu_cores_busy", 1.0),
    "done": ("last_done_s", 1.0),
}


def kind_of(case):
    """The kind of figure a check point is, as `--widen-by` reads it (uncertainty_option.cpp)."""
    if case["metric"].startswith("latency"):
        return "latency"
    return {"bandwidth": "throughput", "rate": "iops"}.get(case["published"]["dimension"], "")


def quantile(v, p):
    v = sorted(v)
    h = (len(v) - 1) * p
    lo = int(h)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (h - lo) * (v[hi] - v[lo])


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        sys.exit(f"failed ({r.returncode}): {' '.join(cmd)}\n{r.stderr}")
    return r.stdout


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--iowall", default="build/release/iowall")
    ap.add_argument("--samples", type=int, default=100)
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--seed", type=int, default=1)
    a = ap.parse_args()

    tmp = tempfile.mkdtemp(prefix="iowall-coverage-")
    check = json.loads(run([a.iowall, "check", "-q", "--jobs", str(a.jobs), "--output-format", "json"]))
    published = {(p["source"], p["id"]): p for p in check["cases"]}

    rows, skipped = [], []
    for f in sorted(glob.glob("validation/*.json")):
        src = os.path.splitext(os.path.basename(f))[0]
        corpus = json.load(open(f))
        # The corpus's error bands without this source.
        others = dict(check)
        others["cases"] = [p for p in check["cases"] if p["source"] != src]
        others["per_source"] = [s for s in check["per_source"] if s["id"] != src]
        others["points"] = len(others["cases"])
        loso = os.path.join(tmp, f"without-{src}.json")
        json.dump(others, open(loso, "w"))
        cache = {}
        for c in corpus["cases"]:
            if "scenario" not in c:
                skipped.append((src, c["id"], "plan" if "plan" in c else "study"))
                continue
            key, scale = METRIC[c["metric"]]
            base = [a.iowall, "run", c["scenario"], "-q", "--output-format", "json", "--jobs", str(a.jobs),
                    "--uncertainty", str(a.samples), "--uncertainty-seed", str(a.seed)]
            for ptr, v in c.get("set", {}).items():
                base += ["--set", f"{ptr}={json.dumps(v)}"]
            got = {}
            for mode, extra in (("raw", []), ("widened", ["--widen-by", loso])):
                cmd = base + extra
                k = json.dumps(cmd)
                if k not in cache:
                    cache[k] = json.loads(run(cmd))
                got[mode] = cache[k]["metrics"][c["path"]]["intervals"][key]
            res = cache[json.dumps(base)]
            # abs90: the other sources' 90th percentile of |error| for this kind of figure.
            kind = "throughput" if key == "last_done_s" else kind_of(published[(src, c["id"])])
            errs = [abs(p["error"]) for p in others["cases"] if p.get("error") is not None and kind_of(p) == kind]
            raw = got["raw"]
            if kind and errs:
                q = quantile(errs, 0.9)
                if key == "last_done_s":
                    got["abs90"] = {"low": raw["low"] * (1 - min(q, 1)), "high": raw["high"] * (1 + q)}
                else:
                    got["abs90"] = {"low": raw["low"] / (1 + q),
                                    "high": raw["high"] / (1 - q) if q < 1 else float("inf")}
            else:
                got["abs90"] = raw
            pub = published[(src, c["id"])]["published"]["value"] * scale
            nominal = res["metrics"][c["path"]][key]
            rows.append({"source": src, "id": c["id"], "metric": key, "published": pub, "nominal": nominal,
                         "raw": got["raw"], "widened": got["widened"], "abs90": got["abs90"],
                         "inputs": len(res["uncertainty"]["inputs"])})

    def inside(iv, v):
        return iv["low"] <= v <= iv["high"]

    n = len(rows)
    raw_in = sum(inside(r["raw"], r["published"]) for r in rows)
    wid_in = sum(inside(r["widened"], r["published"]) for r in rows)
    abs_in = sum(inside(r["abs90"], r["published"]) for r in rows)
    with_inputs = sum(r["inputs"] > 0 for r in rows)
    print(f"- points reproduced by a scenario run: {n} (of {n + len(skipped)}; "
          f"{len(skipped)} planner/study points have no --uncertainty)")
    print(f"- points whose scenario has at least one uncertain input: {with_inputs}")
    print(f"- raw 90% interval contains the published figure: {raw_in}/{n} ({100 * raw_in / n:.0f}%)")
    print(f"- widened (leave-one-source-out corpus error): {wid_in}/{n} ({100 * wid_in / n:.0f}%)")
    print(f"- abs90 (leave-one-source-out 90th percentile of |error|): {abs_in}/{n} ({100 * abs_in / n:.0f}%)")
    print()
    by = {}
    for r in rows:
        s = by.setdefault(r["source"], [0, 0, 0, 0])
        s[0] += 1
        s[1] += inside(r["raw"], r["published"])
        s[2] += inside(r["widened"], r["published"])
        s[3] += inside(r["abs90"], r["published"])
    print("| source | points | raw covers | widened covers | abs90 covers |")
    print("|---|---:|---:|---:|---:|")
    for s, (k, x, y, z) in by.items():
        print(f"| {s} | {k} | {x} | {y} | {z} |")
    print()
    print("| source | case | metric | published | nominal | raw 90% | widened 90% | abs90 90% | inputs |")
    print("|---|---|---|---:|---:|---|---|---|---:|")
    g = lambda v: f"{v:.4g}"
    for r in rows:
        fmt = lambda iv, ok: f"{g(iv['low'])} .. {g(iv['high'])}{'' if ok else ' **miss**'}"
        print(f"| {r['source']} | {r['id']} | {r['metric']} | {g(r['published'])} | {g(r['nominal'])} | "
              f"{fmt(r['raw'], inside(r['raw'], r['published']))} | "
              f"{fmt(r['widened'], inside(r['widened'], r['published']))} | "
              f"{fmt(r['abs90'], inside(r['abs90'], r['published']))} | {r['inputs']} |")


if __name__ == "__main__":
    main()
