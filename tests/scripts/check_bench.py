#!/usr/bin/env python3
"""check_bench.py OUT ORDERS RANKS [MESHES]: bench.csv in OUT has one row per (order, ranks), each
self-consistent: PID = wall x ranks / (DOF x stages x steps), DOF·stages/s from the same
numbers, phase times that do not exceed the step time, a halo-wait share in [0, 1],
memory per DOF > 0, and the same state checksum for every rank count of an order. MESHES,
one per order (e.g. 3x3x3,2x2x2), are the elements each order must have run on."""
import csv
import math
import os
import sys

out, orders, ranks = sys.argv[1], [int(v) for v in sys.argv[2].split(",")], [int(v) for v in sys.argv[3].split(",")]
rows = list(csv.DictReader(open(os.path.join(out, "bench.csv"))))
failures = []
if sorted((int(r["order"]), int(r["ranks"])) for r in rows) != sorted((o, n) for o in orders for n in ranks):
    failures.append(f"points {[(r['order'], r['ranks']) for r in rows]}")
for r in rows:
    dof, stages, steps, wall = int(r["dof"]), int(r["rk_stages"]), int(r["steps"]), float(r["wall_seconds"])
    n = int(r["order"])
    pid = wall * int(r["ranks"]) / (dof * stages * steps)
    if not math.isclose(float(r["pid_seconds"]), pid, rel_tol=1e-9):
        failures.append(f"N={n}: pid {r['pid_seconds']} != {pid}")
    if not math.isclose(float(r["dof_stages_per_second"]), dof * stages * steps / wall, rel_tol=1e-9):
        failures.append(f"N={n}: DOF·stages/s inconsistent")
    phases = sum(float(r[k]) for k in r if k.endswith("_s_per_step") and k != "other_s_per_step")
    if phases > wall / steps * 1.01 or min(float(r[k]) for k in r if k.endswith("_s_per_step")) < 0:
        failures.append(f"N={n}: phase times {phases} vs step {wall / steps}")
    if not 0 <= float(r["halo_wait_fraction"]) <= 1:
        failures.append(f"N={n}: halo wait share {r['halo_wait_fraction']}")
    if not float(r["rss_bytes_per_dof"]) > 0:
        failures.append(f"N={n}: RSS per DOF {r['rss_bytes_per_dof']}")
if len(sys.argv) > 4:
    for o, mesh in zip(orders, sys.argv[4].split(",")):
        got = {r["elements"] for r in rows if int(r["order"]) == o}
        if got != {mesh}:
            failures.append(f"N={o}: elements {got}, expected {mesh}")
for o in orders:
    sums = {r["state_checksum"] for r in rows if int(r["order"]) == o}
    if len(sums) != 1:
        failures.append(f"N={o}: checksums differ between rank counts: {sums}")
if not os.path.getsize(os.path.join(out, "bench.md")):
    failures.append("bench.md empty")
print("\n".join(failures) or f"bench.csv: {len(rows)} consistent rows")
sys.exit(1 if failures else 0)
