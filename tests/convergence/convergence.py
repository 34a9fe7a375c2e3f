#!/usr/bin/env python3
"""convergence.py SQUALL CASE_TOML ORDER END_TIME MESH... [--elements PATTERN] [--check VARS] [--heights H,...] [--set K=V]...

Runs CASE at polynomial order ORDER for each MESH (the elements are PATTERN with {m}
replaced by MESH; default "{m},{m},1"), fits the L2 error against the element size
(least squares in log-log) and requires an order of at least ORDER + 0.5 for each
variable in VARS (default rho,rhoe); the other variables' orders are printed. Each
--set K=V is passed on to every run. --heights H,... gives the element layers along z
relative heights repeated up the column (MESH a multiple of their count, scaled to the
case's z span), so every mesh of the series has the same shape of layers and their
sizes halve from one mesh to the next."""
import argparse
import json
import math
import os
import subprocess
import sys
import tempfile

p = argparse.ArgumentParser(description=__doc__)
p.add_argument("squall")
p.add_argument("case")
p.add_argument("order", type=int)
p.add_argument("end_time")
p.add_argument("meshes", type=int, nargs="+")
p.add_argument("--elements", default="{m},{m},1")
p.add_argument("--check", default="rho,rhoe")
p.add_argument("--set", action="append", default=[], metavar="K=V")
p.add_argument("--heights", default="")
args = p.parse_args()


def layer_heights(m):
    """mesh.element_heights for MESH m: the --heights pattern repeated, filling the z span."""
    import tomllib
    with open(args.case, "rb") as f:
        z0, z1 = tomllib.load(f)["mesh"]["domain"][2]
    pattern = [float(h) for h in args.heights.split(",")]
    if m % len(pattern):
        sys.exit(f"mesh {m} is not a multiple of the {len(pattern)} heights of --heights")
    heights = pattern * (m // len(pattern))
    return "[" + ",".join(repr(h * (z1 - z0) / sum(heights)) for h in heights) + "]"


errors = {}
with tempfile.TemporaryDirectory() as tmp:
    for m in args.meshes:
        out = os.path.join(tmp, f"m{m}")
        elements = args.elements.format(m=m)
        subprocess.run([args.squall, "run", args.case, "--quiet", "--output", out, "--set", f"dg.order={args.order}",
                        "--set", f"mesh.elements=[{elements}]", "--set", f"time.end_time={args.end_time}",
                        "--set", "output.interval=0"] + [a for kv in args.set for a in ("--set", kv)]
                       + (["--set", f"mesh.element_heights={layer_heights(m)}"] if args.heights else []), check=True)
        with open(os.path.join(out, "summary.json")) as f:
            errors[m] = json.load(f)["errors"]["l2"]


def fitted_order(var):
    xs = [math.log(1.0 / m) for m in args.meshes]
    ys = [math.log(errors[m][var]) for m in args.meshes]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


required = args.order + 0.5
checked = args.check.split(",")
failed = False
for var in ["rho", "rhou", "rhov", "rhoe"]:
    if min(errors[m][var] for m in args.meshes) <= 0:
        continue
    order = fitted_order(var)
    ok = order >= required or var not in checked
    failed |= not ok
    row = "  ".join(f"{errors[m][var]:.3e}" for m in args.meshes)
    print(f"N={args.order} {var:5s} L2 errors {row}  fitted order {order:.2f}"
          + (f" (required >= {required})" if var in checked else " (reported)") + ("" if ok else "  FAIL"))
sys.exit(1 if failed else 0)
