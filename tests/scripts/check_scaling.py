#!/usr/bin/env python3
"""check_scaling.py OUT MODE: the outputs of scripts/scaling.py in OUT are complete and
consistent: DOF = elements x (N+1)^3, time per step = wall / steps, PID = wall x ranks /
(DOF x stages x steps), efficiency recomputed from the times, scaling.md lists every
rank count, and the PNGs are real, non-empty images."""
import csv
import os
import sys

out, mode = sys.argv[1], sys.argv[2]
errors = []
with open(os.path.join(out, "scaling.csv")) as f:
    rows = list(csv.DictReader(f))
if not rows:
    errors.append("scaling.csv has no rows")


def close(a, b):
    return abs(a - b) <= 1e-9 * max(abs(a), abs(b))


base_ranks = min(int(r["ranks"]) for r in rows)
base = min(float(r["time_per_step"]) for r in rows if int(r["ranks"]) == base_ranks)
for r in rows:
    ranks, order = int(r["ranks"]), int(r["order"])
    elements = int(r["nx"]) * int(r["ny"]) * int(r["nz"])
    dof, steps, wall = int(r["dof"]), int(r["steps"]), float(r["wall_seconds"])
    if r["mode"] != mode:
        errors.append(f"mode {r['mode']}")
    if dof != elements * (order + 1) ** 3:
        errors.append(f"ranks {ranks}: dof {dof} != {elements} x {(order + 1) ** 3}")
    if not close(float(r["time_per_step"]), wall / steps):
        errors.append(f"ranks {ranks}: time_per_step is not wall / steps")
    if not close(float(r["pid_seconds"]), wall * ranks / (dof * int(r["rk_stages"]) * steps)):
        errors.append(f"ranks {ranks}: pid_seconds inconsistent")
    t = float(r["time_per_step"])
    expected = base * base_ranks / (t * ranks) if mode == "strong" else base / t
    if not close(float(r["efficiency"]), expected):
        errors.append(f"ranks {ranks}: efficiency {r['efficiency']} != {expected}")
    grid = [int(v) for v in r["rank_grid"].split("x")]
    if grid[0] * grid[1] * grid[2] != ranks:
        errors.append(f"ranks {ranks}: rank grid {r['rank_grid']}")
if mode == "weak":  # elements grow with the ranks, per rank they stay
    per_rank = {int(r["nx"]) * int(r["ny"]) * int(r["nz"]) // int(r["ranks"]) for r in rows}
    if len(per_rank) != 1:
        errors.append(f"weak scaling changed the elements per rank: {per_rank}")
else:
    meshes = {(r["nx"], r["ny"], r["nz"]) for r in rows}
    if len(meshes) != 1:
        errors.append(f"strong scaling changed the mesh: {meshes}")
with open(os.path.join(out, "scaling.md")) as f:
    md = f.read()
for ranks in {r["ranks"] for r in rows}:
    if f"\n| {ranks} |" not in md:
        errors.append(f"scaling.md has no row for {ranks} ranks")
for png in ("time_per_step.png", "efficiency.png", "pid.png", "phases.png"):
    path = os.path.join(out, png)
    with open(path, "rb") as f:
        head = f.read(8)
    if head != b"\x89PNG\r\n\x1a\n" or os.path.getsize(path) < 5000:
        errors.append(f"{png} is not a non-empty PNG")
for e in errors:
    print("FAIL:", e)
print(f"{out}: {len(rows)} runs checked" + (", FAILED" if errors else ", ok"))
sys.exit(1 if errors else 0)
