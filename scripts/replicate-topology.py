#!/usr/bin/env python3
"""Replicates a scenario's topology N times (ids get the copy's number) for memory and
time measurements of large topologies.
   scripts/replicate-topology.py SCENARIO COPIES OUT_SCENARIO [OUT_TOPOLOGY]
The workload and paths stay those of the first copy (ids ending in 0)."""
import json
import re
import sys


def renumber(ident, i):
    m = re.match(r"^(.*?)(\d+)$", ident)
    return f"{m.group(1)}{i}" if m else f"{ident}_{i}"


def main():
    if len(sys.argv) not in (4, 5):
        sys.exit(__doc__)
    src, copies, out = sys.argv[1], int(sys.argv[2]), sys.argv[3]
    doc = json.load(open(src))
    doc.pop("sweep", None)
    topo = doc["topology"]
    devices, links = [], []
    for i in range(copies):
        for d in topo["devices"]:
            devices.append(dict(d, id=renumber(d["id"], i)))
        for link in topo["links"]:
            x = dict(link)
            for end in ("a", "b"):
                dev, port = link[end].split(".", 1)
                x[end] = renumber(dev, i) + "." + port
            links.append(x)
    topo = {k: v for k, v in topo.items() if k not in ("claims",)}
    topo.update(devices=devices, links=links, name=f"{topo.get('name', 'topology')}-x{copies}")
    doc["topology"] = topo
    json.dump(doc, open(out, "w"))
    if len(sys.argv) == 5:
        json.dump(topo, open(sys.argv[4], "w"))
    print(f"{len(devices)} devices, {len(links)} links")


if __name__ == "__main__":
    main()
