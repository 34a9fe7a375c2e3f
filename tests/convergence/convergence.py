#!/usr/bin/env python3
"""convergence.py SQUALL CASE_TOML ORDER END_TIME MESH... : runs the isentropic vortex
at polynomial order ORDER on MESH x MESH x 1 elements for each MESH, fits the L2 error
against the element size (least squares in log-log) and requires an order of at least
ORDER + 0.5 for density and total energy; all variables' orders are printed."""
import json
import math
import os
import subprocess
import sys
import tempfile

squall, case, order, end_time = sys.argv[1], sys.argv[2], int(sys.argv[3]), sys.argv[4]
meshes = [int(m) for m in sys.argv[5:]]
errors = {}
with tempfile.TemporaryDirectory() as tmp:
    for m in meshes:
        out = os.path.join(tmp, f"m{m}")
        subprocess.run([squall, "run", case, "--quiet", "--output", out, "--set", f"dg.order={order}",
                        "--set", f"mesh.elements=[{m},{m},1]", "--set", f"time.end_time={end_time}",
                        "--set", "output.interval=0"], check=True)
        with open(os.path.join(out, "summary.json")) as f:
            errors[m] = json.load(f)["errors"]["l2"]


def fitted_order(var):
    xs = [math.log(1.0 / m) for m in meshes]
    ys = [math.log(errors[m][var]) for m in meshes]
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    return sum((x - mx) * (y - my) for x, y in zip(xs, ys)) / sum((x - mx) ** 2 for x in xs)


required = order + 0.5
failed = False
for var in ["rho", "rhou", "rhov", "rhoe"]:
    p = fitted_order(var)
    checked = var in ("rho", "rhoe")
    ok = p >= required or not checked
    failed |= not ok
    row = "  ".join(f"{errors[m][var]:.3e}" for m in meshes)
    print(f"N={order} {var:5s} L2 errors {row}  fitted order {p:.2f}"
          + (f" (required >= {required})" if checked else " (reported)") + ("" if ok else "  FAIL"))
sys.exit(1 if failed else 0)
