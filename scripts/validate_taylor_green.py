#!/usr/bin/env python3
"""Validate the Taylor-Green vortex (Re = 1600, Ma = 0.1) against the reference DNS.

  scripts/validate_taylor_green.py --elements 16 --order 3 --ranks 2 --out validation/taylor_green

Runs cases/taylor_green.toml on elements^3 elements at order N (effective resolution
(elements (N+1))^3 nodes; 16 and N = 3 give 64^3), reads the kinetic energy and its
dissipation rate from diagnostics.csv, and writes results.md, dissipation.csv and
dissipation.png (the non-dimensional dissipation rate -dE_k/dt L / V0^3 against
t V0 / L). Reference (spectral DNS; Brachet et al. 1983, J. Fluid Mech. 130; as
tabulated by DeBonis 2013, AIAA 2013-0382): the dissipation rate peaks at about
0.0127 near t* = 9. Plots need python3-matplotlib (Debian, /usr/bin/python3).
"""
import argparse
import csv
import math
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from scaling import UsageError, ensure_matplotlib, launcher_command  # noqa: E402

REFERENCE_PEAK = 0.0127
REFERENCE_PEAK_TIME = 9.0
L = 1.0
V0 = 0.1 * math.sqrt(1004.0 / 717.0 * 287.0 * 300.0)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--elements", type=int, default=16)
    p.add_argument("--order", type=int, default=3)
    p.add_argument("--ranks", type=int, default=1)
    p.add_argument("--launcher", default="mpirun")
    p.add_argument("--launcher-args")
    p.add_argument("--mpirun", default="mpirun")
    p.add_argument("--end-time", type=float, default=20.0, help="in convective times L / V0 (default 20)")
    p.add_argument("--outputs-per-time", type=int, default=2, help="outputs per convective time (default 2)")
    p.add_argument("--squall", default=os.path.join(ROOT, "build", "squall"))
    p.add_argument("--out", default="validation/taylor_green")
    args = p.parse_args(argv)
    try:
        ensure_matplotlib()
    except UsageError as e:
        print(f"validate_taylor_green.py: error: {e}", file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    tc = L / V0
    run = os.path.join(args.out, f"run_{args.elements}e_N{args.order}")
    cmd = launcher_command(args, args.ranks) if args.ranks > 1 else []
    n = args.elements
    cmd += [args.squall, "run", os.path.join(ROOT, "cases", "taylor_green.toml"), "--output", run,
            "--set", f"mesh.elements=[{n},{n},{n}]", "--set", f"dg.order={args.order}",
            "--set", f"time.end_time={args.end_time * tc}", "--set", f"output.interval={tc / args.outputs_per_time}"]
    subprocess.run(cmd, check=True)
    with open(os.path.join(run, "diagnostics.csv")) as f:
        rows = list(csv.DictReader(f))
    series = []
    for r in rows:
        rate = float(r["dissipation_rate"])
        if not math.isnan(rate):  # midpoint of the two outputs it was measured between
            series.append((float(r["time"]) / tc, rate * L / V0 ** 3, float(r["kinetic_energy"]) / V0 ** 2))
    # the rate between outputs belongs to the middle of the interval
    half = 0.5 / args.outputs_per_time
    series = [(t - half, eps, ek) for t, eps, ek in series]
    with open(os.path.join(args.out, "dissipation.csv"), "w") as f:
        f.write("t_star,dissipation,kinetic_energy\n")
        for t, eps, ek in series:
            f.write(f"{t},{eps},{ek}\n")
    peak_t, peak = max(((t, eps) for t, eps, _ in series), key=lambda x: x[1])
    dofs = (n * (args.order + 1)) ** 3
    text = [f"# Taylor-Green vortex, Re = 1600: {n}^3 elements, N = {args.order} ({n * (args.order + 1)}^3 nodes)", "",
            f"Peak dissipation {peak:.5f} at t* = {peak_t:.2f} (reference {REFERENCE_PEAK} near t* = "
            f"{REFERENCE_PEAK_TIME}): {100 * (peak / REFERENCE_PEAK - 1):+.1f} %.", "",
            f"{dofs} DOF per variable."]
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write("\n".join(text) + "\n")
    print("\n".join(text))

    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot([t for t, _, _ in series], [e for _, e, _ in series], "o-", ms=3,
            label=f"Squall {n}^3 el., N={args.order}")
    ax.plot([REFERENCE_PEAK_TIME], [REFERENCE_PEAK], "k*", ms=12, label="reference peak (DNS)")
    ax.set(xlabel="t V0 / L", ylabel="-dE_k/dt L / V0^3", title="Taylor-Green vortex, Re = 1600")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(args.out, "dissipation.png"), dpi=120)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
