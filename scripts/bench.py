#!/usr/bin/env python3
"""Benchmark squall: PID, DOF/s, per-phase times, halo wait and memory.

  scripts/bench.py --case cases/taylor_green.toml --orders 2,3,4,5,6 --elements 16,16,16 --ranks 1,2 --out bench/
  scripts/bench.py --orders 2,3,4,5,6 --dof 1e7 --steps 20 --warmup 3 --out bench-gpu/   # a GPU

With --dof, each order runs on the smallest cube of elements (n, n, n) with at least that
many DOF, n^3 (N+1)^3 (a GPU needs about 1e7 DOF to fill it).

Runs `squall run` once per (order, ranks) point for --warmup + --steps time steps (the
warm-up steps are left out of the timings) and prints, per point: PID (time-loop wall
time x ranks / (DOF x RK stages x steps)), DOF·stages per second (all ranks), the
seconds per step of each phase (volume, surface, lifting, viscous, halo wait, sources,
other), the halo wait as a share of the loop (largest rank) and the peak resident
memory per DOF. Writes bench.csv and bench.md to --out. The machine should be
otherwise idle: compare numbers measured in one run, as ratios.
"""
import argparse
import csv
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from scaling import UsageError, check_inputs, launcher_command, parse_int_list  # noqa: E402

# Phase groups: summary.json timer names per column.
PHASES = {
    "volume": ["volume"],
    "surface": ["interior_faces", "mpi_faces", "boundary_faces", "surface_lift"],
    "lifting": ["gradients"],
    "viscous": ["viscous"],
    "halo_wait": ["halo_wait"],
    "halo_start": ["halo_start"],
    "sources": ["sources"],
}
COLUMNS = (["case", "order", "elements", "ranks", "dof", "steps", "rk_stages", "wall_seconds", "pid_seconds",
            "dof_stages_per_second"] + [f"{p}_s_per_step" for p in PHASES]
           + ["other_s_per_step", "halo_wait_fraction", "rss_bytes_per_dof", "state_checksum"])


def elements_for(args, order):
    """The mesh of one order: --elements, or with --dof the smallest cube holding that many DOF."""
    if not args.dof:
        return args.elements
    n = max(1, int(round((args.dof / (order + 1) ** 3) ** (1 / 3))))
    while n > 1 and (n - 1) ** 3 * (order + 1) ** 3 >= args.dof:
        n -= 1
    while n ** 3 * (order + 1) ** 3 < args.dof:
        n += 1
    return f"{n},{n},{n}"


def run_point(args, order, ranks):
    out = os.path.join(args.out, "runs", f"N{order}_np{ranks}")
    cmd = launcher_command(args, ranks) + [
        args.squall, "run", args.case, "--quiet", "--output", out,
        "--set", f"dg.order={order}", "--set", f"mesh.elements=[{elements_for(args, order)}]",
        "--set", f"time.max_steps={args.warmup + args.steps}", "--set", f"time.warmup_steps={args.warmup}",
        "--set", "time.end_time=1e30", "--set", "output.interval=0"]
    for s in args.set or []:
        cmd += ["--set", s]
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"{' '.join(cmd)} failed ({result.returncode}):\n{result.stdout}{result.stderr}")
    with open(os.path.join(out, "summary.json")) as f:
        return json.load(f)


def row_from_summary(s):
    steps = s["timed_steps"]
    if steps <= 0:
        raise RuntimeError("no timed steps: raise --steps")
    wall = s["wall_seconds"]
    timers = s["timers"]
    row = {"case": s["case"], "order": s["polynomial_order"], "elements": "x".join(map(str, s["elements"])),
           "ranks": s["ranks"], "dof": s["dof"], "steps": steps, "rk_stages": s["rk_stages"],
           "wall_seconds": wall, "pid_seconds": s["pid_seconds"],
           "dof_stages_per_second": s["dof"] * s["rk_stages"] * steps / wall if wall > 0 else None}
    accounted = 0.0
    for phase, names in PHASES.items():
        seconds = sum(timers[n]["mean"] for n in names if n in timers)
        accounted += seconds
        row[f"{phase}_s_per_step"] = seconds / steps
    row["other_s_per_step"] = max(wall - accounted, 0.0) / steps
    row["halo_wait_fraction"] = timers.get("halo_wait", {}).get("max", 0.0) / wall if wall > 0 else None
    row["rss_bytes_per_dof"] = s.get("memory", {}).get("peak_rss_bytes_per_dof")
    row["state_checksum"] = s["state_checksum"]
    return row


def fmt(value, spec):
    return "-" if value is None else format(value, spec)


def write_outputs(args, rows):
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "bench.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=COLUMNS)
        w.writeheader()
        w.writerows(rows)
    mesh = f"at least {args.dof:g} DOF per order" if args.dof else f"elements {args.elements}"
    lines = [f"# squall benchmark: {os.path.basename(args.case)}, {mesh}, "
             f"{args.steps} timed steps after {args.warmup} warm-up", "",
             "| N | ranks | DOF | PID [s] | DOF·stages/s | volume | surface | lifting | viscous | halo wait | "
             "other | halo wait share | RSS/DOF [B] |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(
            f"| {r['order']} | {r['ranks']} | {r['dof']} | {fmt(r['pid_seconds'], '.3e')} | "
            f"{fmt(r['dof_stages_per_second'], '.3e')} | {r['volume_s_per_step']:.4f} | {r['surface_s_per_step']:.4f} | "
            f"{r['lifting_s_per_step']:.4f} | {r['viscous_s_per_step']:.4f} | {r['halo_wait_s_per_step']:.4f} | "
            f"{r['other_s_per_step']:.4f} | {fmt(100 * r['halo_wait_fraction'], '.2f')} % | "
            f"{fmt(r['rss_bytes_per_dof'], '.0f')} |")
    lines += ["", "Phase columns: seconds per time step (mean over ranks). Command: `" + " ".join(sys.argv) + "`"]
    with open(os.path.join(args.out, "bench.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    return "\n".join(lines)


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--case", default=os.path.join(ROOT, "cases", "taylor_green.toml"))
    p.add_argument("--orders", default="4", help="polynomial orders, e.g. 2,3,4,5,6 (default 4)")
    p.add_argument("--elements", default="16,16,16", help="elements nx,ny,nz (default 16,16,16)")
    p.add_argument("--dof", type=float, help="instead of --elements: per order, the smallest cube of elements "
                   "with at least this many DOF (e.g. 1e7 to fill a GPU)")
    p.add_argument("--ranks", default="1", help="rank counts, e.g. 1,2 (default 1)")
    p.add_argument("--steps", type=int, default=3, help="timed steps (default 3)")
    p.add_argument("--warmup", type=int, default=1, help="untimed steps first (default 1)")
    p.add_argument("--launcher", choices=["mpirun", "srun"], default="mpirun")
    p.add_argument("--launcher-args", help="extra launcher arguments, one string")
    p.add_argument("--mpirun", default="mpirun")
    p.add_argument("--squall", default=os.path.join(ROOT, "build", "squall"))
    p.add_argument("--set", action="append", metavar="KEY=VALUE", help="extra config override (repeatable)")
    p.add_argument("--out", default="bench")
    args = p.parse_args(argv)
    args.order_list = parse_int_list(args.orders, "--orders")
    args.rank_list = parse_int_list(args.ranks, "--ranks")
    args.elements = ",".join(map(str, parse_int_list(args.elements, "--elements", 3)))
    if any(n < 1 or n > 8 for n in args.order_list):
        raise UsageError("--orders: each order must be in 1..8")
    if args.dof is not None and not (1 <= args.dof <= 1e12):
        raise UsageError(f"--dof {args.dof:g}: expected a number of DOF in 1..1e12")
    if args.steps < 1 or args.warmup < 0:
        raise UsageError("--steps must be >= 1 and --warmup >= 0")
    check_inputs(args)
    return args


def main(argv):
    try:
        args = parse_args(argv)
    except UsageError as e:
        print(f"bench.py: {e}", file=sys.stderr)
        return 2
    rows = []
    for order in args.order_list:
        for ranks in args.rank_list:
            print(f"bench.py: N = {order}, {ranks} rank(s) ...", file=sys.stderr, flush=True)
            try:
                rows.append(row_from_summary(run_point(args, order, ranks)))
            except RuntimeError as e:
                print(f"bench.py: {e}", file=sys.stderr)
                if rows:
                    write_outputs(args, rows)  # keep the points that ran
                return 1
            write_outputs(args, rows)  # after every point: a long series keeps what it measured
    print(write_outputs(args, rows))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
