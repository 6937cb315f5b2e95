"""The framework checkpoints' summary: each writer x size x phase over its rounds (median, min, max,
spread, rate, page faults per round), as rows and as the table scripts/checkpoint-frameworks.py prints."""
import statistics
import sys


def summarize(records):
    rows, groups = [], {}
    for r in records:
        if r.get("error"):
            continue
        for name, p in r["phases"].items():
            groups.setdefault((r["writer"], r["size_bytes"], name), []).append(p)
        groups.setdefault((r["writer"], r["size_bytes"], "save_durable"), []).append(
            {"seconds": r["save_durable_s"], "bytes": r["state_bytes"]})
    for (writer, size, name), ps in groups.items():
        secs = [p["seconds"] for p in ps]
        med = statistics.median(secs)
        nbytes = ps[0]["bytes"]
        rows.append({"writer": writer, "size_bytes": size, "phase": name, "rounds": len(secs), "median_s": med,
                     "min_s": min(secs), "max_s": max(secs),
                     "spread": (max(secs) - min(secs)) / med if med > 0 else None,
                     "median_bw_bytes": nbytes / med if med > 0 and nbytes else None,
                     "minor_faults": [p.get("minor_faults") for p in ps]})
    return rows


def print_summary(rows, out=sys.stdout):
    print(f"{'writer':<15}{'size GB':>8}  {'phase':<18}{'n':>2}{'median s':>10}{'min s':>9}{'max s':>9}"
          f"{'spread':>8}{'GB/s':>8}  minor faults per round", file=out)
    for r in rows:
        bw = f"{r['median_bw_bytes'] / 1e9:8.2f}" if r["median_bw_bytes"] else f"{'-':>8}"
        spread = f"{100 * r['spread']:7.1f}%" if r["spread"] is not None else f"{'-':>8}"
        print(f"{r['writer']:<15}{r['size_bytes'] / 1e9:8.2f}  {r['phase']:<18}{r['rounds']:>2}{r['median_s']:10.4f}"
              f"{r['min_s']:9.4f}{r['max_s']:9.4f}{spread}{bw}  "
              f"{','.join('-' if f is None else str(f) for f in r['minor_faults'])}", file=out)
