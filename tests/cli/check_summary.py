#!/usr/bin/env python3
"""check_summary.py SUMMARY.json RANKS ORDER NX NY NZ: the keys of DESIGN.md section 8
that exist so far are there and consistent."""
import json
import sys

path, ranks, order, *elements = sys.argv[1:]
ranks, order, elements = int(ranks), int(order), [int(e) for e in elements]
with open(path) as f:
    s = json.load(f)

errors = []
for key in ("case", "version", "backend", "ranks", "polynomial_order", "elements", "dof",
            "steps", "rk_stages", "final_time", "wall_seconds", "pid_seconds", "timers"):
    if key not in s:
        errors.append(f"missing key {key}")
if not errors:
    if s["ranks"] != ranks:
        errors.append(f"ranks {s['ranks']} != {ranks}")
    if s["polynomial_order"] != order:
        errors.append(f"polynomial_order {s['polynomial_order']} != {order}")
    if s["elements"] != elements:
        errors.append(f"elements {s['elements']} != {elements}")
    want_dof = elements[0] * elements[1] * elements[2] * (order + 1) ** 3
    if s["dof"] != want_dof:
        errors.append(f"dof {s['dof']} != {want_dof}")
    grid = s["rank_grid"]
    if grid[0] * grid[1] * grid[2] != ranks:
        errors.append(f"rank_grid {grid} does not multiply to {ranks}")
    if s["rk_stages"] not in (3, 5):
        errors.append(f"rk_stages {s['rk_stages']}")
    for name, t in s["timers"].items():
        if not t["min"] <= t["mean"] <= t["max"]:
            errors.append(f"timer {name}: min/mean/max out of order")
if errors:
    print(f"{path}: " + "; ".join(errors))
    sys.exit(1)
print(f"{path}: ok")
