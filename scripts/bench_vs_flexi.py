#!/usr/bin/env python3
"""Squall against FLEXI, side by side: the Taylor-Green vortex (Re = 1600, Ma = 0.1) on
the same periodic mesh at the same order, the two codes alternating, round after round.

  scripts/bench_vs_flexi.py --mesh CART_HEX_PERIODIC_016_mesh.h5 --elements 16 --orders 3,4,5 \\
      --flexi default=/opt/flexi/build/bin/flexi \\
      --flexi "split=/opt/flexi/build-lgl-split/bin/flexi:SplitDG=KG" \\
      --flexi "perf=/opt/flexi/build-perf-N4/bin/flexi:N=4" --rounds 5 --out bench-flexi/

FLEXI (https://github.com/flexi-framework/flexi) is not part of Squall: build it yourself
from its repository (Release, navierstokes, parabolic with BR1 lifting and constant
viscosity, the taylorgreenvortex testcase, MPI) and point this script at the binary and
at one of FLEXI's fully periodic cube meshes of [-1, 1]^3 (tutorials/convtest/
CART_HEX_PERIODIC_<E>_mesh.h5), which FLEXI scales to [-pi, pi]^3 (meshScale). Each
--flexi is LABEL=BINARY[:KEY=VALUE...]: the KEY=VALUE items are added to FLEXI's
parameter file (SplitDG=KG for a split-form build); N=K marks a build with the order
fixed at compile time (FLEXI's performance mode), which then runs at order K only.

Both codes run --steps time steps of a 5-stage, 4th-order low-storage Runge-Kutta
scheme (FLEXI's CarpenterRK4-5, Squall's lsrk54) on 1 rank without output; Squall's
first --warmup steps are left out of its timing (FLEXI times its whole loop). PID is
each code's own figure: time-loop wall time x ranks / (DOF x stages x steps). Per round
the order of the codes alternates. Prints per round the PIDs and the ratio
Squall / FLEXI, and per order and FLEXI build the median ratio and its range; writes
bench_vs_flexi.csv and bench_vs_flexi.md to --out. The machine should be otherwise idle.
"""
import argparse
import csv
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from scaling import UsageError, check_inputs, parse_int_list  # noqa: E402

FLEXI_PID = re.compile(r"CALCULATION TIME PER STAGE/DOF:\s*\[\s*([0-9.Ee+-]+)\s*sec")


class Variant:
    """A FLEXI build: LABEL=BINARY[:KEY=VALUE...]."""

    def __init__(self, spec):
        label, sep, rest = spec.partition("=")
        if not sep or not label or not rest:
            raise UsageError(f"--flexi {spec}: expected LABEL=BINARY[:KEY=VALUE...]")
        parts = rest.split(":")
        self.label, self.binary, self.parameters, self.fixed_order = label, parts[0], [], None
        for item in parts[1:]:
            key, sep, value = item.partition("=")
            if not sep or not key.strip() or not value.strip():
                raise UsageError(f"--flexi {spec}: '{item}' is not KEY=VALUE")
            if key.strip() == "N":
                try:
                    self.fixed_order = int(value)
                except ValueError:
                    raise UsageError(f"--flexi {spec}: N={value} is not an integer") from None
            else:
                self.parameters.append(f"{key.strip()} = {value.strip()}")
        if not os.access(self.binary, os.X_OK):
            raise UsageError(f"--flexi {spec}: {self.binary} is not an executable")


def flexi_parameters(order, steps, variant):
    """FLEXI's parameter file for the vortex: Re = 1600 with U0 = rho0 = 1 and L = 1
    (mu = 1/1600), Ma = 0.1, Pr = 0.71, Lax-Friedrichs (Rusanov) fluxes, no output."""
    lines = [
        "ProjectName = TGV_side_by_side", "Logging = F", "outputFormat = 0", "doPrintStatusLine = F",
        "WriteStateFiles = F", f"N = {order}", f"NAnalyze = {order + 1}", "OverintegrationType = 0",
        "Riemann = LF", "MeshFile = mesh.h5", "useCurveds = F", "meshScale = 3.141592653589793",
        "IniExactFunc = 0", "IniRefState = 1", "RefState = (/1.,1.,0.,0.,71.4285714285714/)",
        "MachNumber = 0.1", "Mu0 = 6.25E-04", "R = 71.42857", "Pr = 0.71", "TimeDiscMethod = CarpenterRK4-5",
        "tend = 1000.", f"maxIter = {steps}", "CFLscale = 0.9", "DFLscale = 0.9", "Analyze_dt = 1000.",
        "nWriteData = 1", "CalcErrorNorms = F", "nAnalyzeTestCase = 100000000", "nWriteStats = 1",
    ]
    return "\n".join(lines + variant.parameters) + "\n"


def run_flexi(args, variant, order):
    with tempfile.TemporaryDirectory(prefix="flexi_run_", dir=args.out) as run:
        shutil.copyfile(args.mesh, os.path.join(run, "mesh.h5"))
        with open(os.path.join(run, "parameter.ini"), "w") as f:
            f.write(flexi_parameters(order, args.steps, variant))
        env = dict(os.environ, OMP_NUM_THREADS="1")
        r = subprocess.run([variant.binary, "parameter.ini"], cwd=run, env=env, capture_output=True, text=True)
        m = FLEXI_PID.search(r.stdout)
        if r.returncode != 0 or not m:
            tail = "\n".join((r.stdout + r.stderr).splitlines()[-15:])
            raise RuntimeError(f"FLEXI {variant.label} at N = {order} failed ({r.returncode}) or printed no "
                               f"'CALCULATION TIME PER STAGE/DOF':\n{tail}")
        return float(m.group(1))


def run_squall(args, order):
    out = os.path.join(args.out, "squall_run")
    e = args.elements
    cmd = [args.squall, "run", os.path.join(ROOT, "cases", "taylor_green.toml"), "--quiet", "--output", out,
           "--set", f"dg.order={order}", "--set", f"mesh.elements=[{e},{e},{e}]",
           "--set", "time.integrator=lsrk54", "--set", f"time.max_steps={args.warmup + args.steps}",
           "--set", f"time.warmup_steps={args.warmup}", "--set", "time.end_time=1e30",
           "--set", "output.interval=0"]
    r = subprocess.run(cmd, capture_output=True, text=True)
    if r.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({r.returncode}):\n{r.stdout}{r.stderr}")
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f)["pid_seconds"]


def write_outputs(args, rows, variants):
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "bench_vs_flexi.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=["round", "order", "flexi", "squall_pid_s", "flexi_pid_s", "ratio"])
        w.writeheader()
        w.writerows(rows)
    lines = [f"# Squall against FLEXI: Taylor-Green vortex, {args.elements}^3 elements, 1 rank, {args.steps} steps",
             "", "| N | FLEXI build | rounds | Squall PID [s] (median) | FLEXI PID [s] (median) | "
             "Squall / FLEXI, median | range |", "|---|---|---|---|---|---|---|"]
    for order in args.order_list:
        for v in variants:
            sel = [r for r in rows if r["order"] == order and r["flexi"] == v.label]
            if not sel:
                continue
            ratios = [r["ratio"] for r in sel]
            lines.append(f"| {order} | {v.label} | {len(sel)} | {statistics.median(r['squall_pid_s'] for r in sel):.3e} | "
                         f"{statistics.median(r['flexi_pid_s'] for r in sel):.3e} | {statistics.median(ratios):.2f} | "
                         f"{min(ratios):.2f}-{max(ratios):.2f} |")
    lines += ["", "Ratio below 1: Squall is faster. Command: `" + " ".join(sys.argv) + "`"]
    with open(os.path.join(args.out, "bench_vs_flexi.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return "\n".join(lines)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--flexi", action="append", required=True, metavar="LABEL=BINARY[:KEY=VALUE...]",
                   help="a FLEXI build (repeatable)")
    p.add_argument("--mesh", required=True, help="FLEXI's periodic cube mesh of [-1,1]^3 with --elements^3 elements")
    p.add_argument("--elements", type=int, default=16, help="elements per direction of --mesh (default 16)")
    p.add_argument("--orders", default="4", help="polynomial orders, e.g. 3,4,5 (default 4)")
    p.add_argument("--rounds", type=int, default=5, help="rounds of alternating runs (default 5)")
    p.add_argument("--steps", type=int, default=10, help="time steps per run (default 10)")
    p.add_argument("--warmup", type=int, default=1, help="Squall's untimed steps first (default 1)")
    p.add_argument("--squall", default=os.path.join(ROOT, "build", "squall"))
    p.add_argument("--out", default="bench-flexi")
    args = p.parse_args(argv)
    args.order_list = parse_int_list(args.orders, "--orders")
    if any(n < 1 or n > 8 for n in args.order_list):
        raise UsageError("--orders: each order must be in 1..8")
    if args.rounds < 1 or args.steps < 1 or args.warmup < 0 or args.elements < 1:
        raise UsageError("--rounds, --steps and --elements must be >= 1, --warmup >= 0")
    check_inputs(args, files=("mesh",))
    args.variants = [Variant(s) for s in args.flexi]
    return args


def main(argv):
    try:
        args = parse_args(argv)
    except UsageError as e:
        print(f"bench_vs_flexi.py: {e}", file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for rnd in range(1, args.rounds + 1):
        for order in args.order_list:
            variants = [v for v in args.variants if v.fixed_order in (None, order)]
            if not variants:
                continue
            try:
                # Alternate which code goes first, round by round.
                flexi_pids = {}
                if rnd % 2 == 0:
                    for v in variants:
                        flexi_pids[v.label] = run_flexi(args, v, order)
                squall = run_squall(args, order)
                if rnd % 2 == 1:
                    for v in variants:
                        flexi_pids[v.label] = run_flexi(args, v, order)
            except RuntimeError as e:
                print(f"bench_vs_flexi.py: {e}", file=sys.stderr)
                if rows:
                    write_outputs(args, rows, args.variants)
                return 1
            for v in variants:
                rows.append({"round": rnd, "order": order, "flexi": v.label, "squall_pid_s": squall,
                             "flexi_pid_s": flexi_pids[v.label], "ratio": squall / flexi_pids[v.label]})
                print(f"round {rnd}, N = {order}: Squall {squall:.3e} s, FLEXI {v.label} {flexi_pids[v.label]:.3e} s, "
                      f"ratio {squall / flexi_pids[v.label]:.2f}", flush=True)
            write_outputs(args, rows, args.variants)  # after every round: nothing measured is lost
    print(write_outputs(args, rows, args.variants))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
