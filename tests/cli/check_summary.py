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
            "steps", "rk_stages", "final_time", "wall_seconds", "pid_seconds", "timers",
            "conservation", "state_checksum", "case_diagnostics"):
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
    if s["steps"] != 5 or not s["final_time"] > 0 or not s["pid_seconds"] > 0:
        errors.append(f"steps {s['steps']}, final_time {s['final_time']}, pid {s['pid_seconds']}")
    if len(s["state_checksum"]) != 16:
        errors.append(f"state_checksum {s['state_checksum']!r}")
    for key in ("mass_relative_change", "total_energy_relative_change"):
        if abs(s["conservation"][key]) > 1e-12:
            errors.append(f"conservation.{key} = {s['conservation'][key]}")
    for name, t in s["timers"].items():
        if not t["min"] <= t["mean"] <= t["max"]:
            errors.append(f"timer {name}: min/mean/max out of order")
if errors:
    print(f"{path}: " + "; ".join(errors))
    sys.exit(1)
print(f"{path}: ok")
