#!/usr/bin/env python3
"""Strong and weak scaling studies of Squall, from runs to a report.

  scripts/scaling.py strong --case cases/rising_bubble.toml --ranks 1,2,4,8 --out scaling/
  scripts/scaling.py weak   --case cases/rising_bubble.toml --ranks 1,2,4 --elements-per-rank 4,1,4

Every point runs `squall run CASE` with --set overrides for --warmup + --steps time
steps (the warm-up is left out of the timings, time.warmup_steps), --repeat times; the
minimum and the median over repeats are reported. Strong scaling keeps the global mesh
(--elements, default: the case's); weak scaling keeps --elements-per-rank and grows the
mesh with the rank count, giving each prime factor of the rank count to the direction
that has grown least so far (x before y before z); the domain is kept, so elements
shrink, which does not change the cost of a fixed number of steps.

Writes to --out: runs/ (each run's output), scaling.csv (one row per run), scaling.md
(table and a short reading) and PNG plots (time per step with the ideal line, parallel
efficiency, PID, phase times). Plots need matplotlib (Debian: python3-matplotlib, for
/usr/bin/python3); the script re-runs itself under /usr/bin/python3 when the current
interpreter lacks it.
"""
import argparse
import csv
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys

PHASES = ["volume", "interior_faces", "mpi_faces", "boundary_faces", "surface_lift", "sources",
          "halo_start", "halo_wait"]
HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


class UsageError(Exception):
    pass


def parse_int_list(text, name, length=None):
    try:
        values = [int(v) for v in text.split(",")]
    except ValueError:
        raise UsageError(f"{name}: expected comma-separated integers, got {text!r}")
    if any(v < 1 for v in values):
        raise UsageError(f"{name}: values must be >= 1, got {text!r}")
    if length is not None and len(values) != length:
        raise UsageError(f"{name}: expected {length} integers, got {text!r}")
    return values


def prime_factors(n):
    factors, p = [], 2
    while n > 1:
        while n % p == 0:
            factors.append(p)
            n //= p
        p += 1
    return factors


def weak_growth(ranks):
    """Multipliers (gx, gy, gz) with gx*gy*gz = ranks: each prime factor, largest first,
    goes to the direction with the smallest multiplier so far (x, then y, then z)."""
    growth = [1, 1, 1]
    for p in sorted(prime_factors(ranks), reverse=True):
        d = min(range(3), key=lambda i: (growth[i], i))
        growth[d] *= p
    return growth


def launcher_command(args, ranks):
    extra = shlex.split(args.launcher_args or "")
    if args.launcher == "mpirun":
        cmd = [args.mpirun, "-n", str(ranks)]
        version = subprocess.run([args.mpirun, "--version"], capture_output=True, text=True).stdout
        if "Open MPI" in version or "OpenRTE" in version:
            cmd.append("--oversubscribe")
            if os.geteuid() == 0:
                cmd.append("--allow-run-as-root")
        return cmd + extra
    if args.launcher == "srun":
        return ["srun", "-n", str(ranks)] + extra
    return []  # sbatch: the batch script runs srun itself


def run_point(args, mode, ranks, elements, repeat):
    name = f"{mode}_np{ranks}_r{repeat}"
    out = os.path.join(args.out, "runs", name)
    squall = [args.squall, "run", args.case, "--quiet", "--output", out,
              "--set", f"mesh.elements=[{elements[0]},{elements[1]},{elements[2]}]",
              "--set", f"time.max_steps={args.warmup + args.steps}",
              "--set", f"time.warmup_steps={args.warmup}",
              "--set", "time.end_time=1e30", "--set", "output.interval=0"]
    if args.order:
        squall += ["--set", f"dg.order={args.order}"]
    for s in args.set or []:
        squall += ["--set", s]
    if args.launcher == "sbatch":
        with open(args.sbatch_template) as f:
            template = f.read()
        os.makedirs(out, exist_ok=True)
        command = " ".join(shlex.quote(c) for c in ["srun", "-n", str(ranks)] +
                           shlex.split(args.launcher_args or "") + squall)
        script = os.path.join(out, "job.sbatch")
        with open(script, "w") as f:
            f.write(template.format(job_name=f"squall-{name}", ranks=ranks, time_limit=args.time_limit,
                                    log=os.path.join(out, "job.log"), command=command))
        cmd = [args.sbatch, "--parsable", "--wait", script]
    else:
        cmd = launcher_command(args, ranks) + squall
    print(f"[scaling] {name}: {elements[0]}x{elements[1]}x{elements[2]} elements on {ranks} ranks", flush=True)
    result = subprocess.run(cmd, capture_output=True, text=True)
    if result.returncode != 0:
        raise RuntimeError(f"run {name} failed (exit {result.returncode}): {' '.join(cmd)}\n"
                           f"{result.stdout[-2000:]}{result.stderr[-2000:]}")
    with open(os.path.join(out, "summary.json")) as f:
        return name, json.load(f)


def row_from_summary(mode, ranks, repeat, summary):
    wall = summary["wall_seconds"]
    steps = summary["timed_steps"]
    row = {"mode": mode, "ranks": ranks, "repeat": repeat,
           "rank_grid": "x".join(str(v) for v in summary["rank_grid"]),
           "nx": summary["elements"][0], "ny": summary["elements"][1], "nz": summary["elements"][2],
           "order": summary["polynomial_order"], "dof": summary["dof"], "steps": steps,
           "rk_stages": summary["rk_stages"], "wall_seconds": wall, "time_per_step": wall / steps,
           "pid_seconds": summary["pid_seconds"]}
    timers = summary["timers"]
    for phase in PHASES:
        t = timers.get(phase, {"mean": 0.0, "max": 0.0})
        row[f"{phase}_mean"] = t["mean"]
        row[f"{phase}_max"] = t["max"]
    row["halo_wait_fraction"] = row["halo_wait_max"] / wall if wall > 0 else 0.0
    return row


def add_efficiency(rows, mode):
    """Efficiency of each run against the fastest run at the smallest rank count:
    strong: (T_base P_base) / (T P); weak: T_base / T (time per step)."""
    base_ranks = min(r["ranks"] for r in rows)
    base = min(r["time_per_step"] for r in rows if r["ranks"] == base_ranks)
    for r in rows:
        if mode == "strong":
            r["efficiency"] = base * base_ranks / (r["time_per_step"] * r["ranks"])
        else:
            r["efficiency"] = base / r["time_per_step"]


def points(rows):
    """Per rank count: the runs, and min/median of the time per step."""
    out = []
    for ranks in sorted({r["ranks"] for r in rows}):
        runs = [r for r in rows if r["ranks"] == ranks]
        best = min(runs, key=lambda r: r["time_per_step"])
        out.append({"ranks": ranks, "best": best, "min": best["time_per_step"],
                    "median": statistics.median(r["time_per_step"] for r in runs), "runs": runs})
    return out


def write_markdown(path, args, mode, rows):
    pts = points(rows)
    lines = [f"# Squall {mode} scaling: {os.path.basename(args.case)}", "",
             f"{args.steps} timed steps after {args.warmup} warm-up steps, {args.repeat} repeat(s) per point, "
             f"launcher `{args.launcher}`. Time per step: minimum and median over repeats; efficiency "
             f"and phase shares from the fastest repeat.", "",
             "| ranks | rank grid | elements | DOF | time/step min [s] | median [s] | PID [s] | efficiency | halo wait |",
             "|---|---|---|---|---|---|---|---|---|"]
    for p in pts:
        b = p["best"]
        lines.append(f"| {p['ranks']} | {b['rank_grid']} | {b['nx']}x{b['ny']}x{b['nz']} | {b['dof']} | "
                     f"{p['min']:.4g} | {p['median']:.4g} | {b['pid_seconds']:.3g} | {b['efficiency']:.1%} | "
                     f"{b['halo_wait_fraction']:.1%} |")
    last = pts[-1]["best"]
    shares = sorted(((last[f"{ph}_mean"], ph) for ph in PHASES), reverse=True)
    total = sum(s for s, _ in shares) or 1.0
    imbalance = max((last[f"{ph}_max"] / last[f"{ph}_mean"], ph) for ph in PHASES if last[f"{ph}_mean"] > 0)
    lines += ["", "## Reading", "",
              f"- At {last['ranks']} ranks the {mode} efficiency is {last['efficiency']:.1%} "
              f"of the {pts[0]['ranks']}-rank run.",
              "- Where the time goes there (mean over ranks): " +
              ", ".join(f"{ph} {s / total:.0%}" for s, ph in shares[:4]) + ".",
              f"- Waiting for halo data takes {last['halo_wait_fraction']:.1%} of the loop; the most "
              f"imbalanced phase is {imbalance[1]} (max/mean over ranks {imbalance[0]:.2f}).", ""]
    with open(path, "w") as f:
        f.write("\n".join(lines))


def write_plots(out, mode, rows):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    pts = points(rows)
    ranks = [p["ranks"] for p in pts]
    t_min = [p["min"] for p in pts]
    t_median = [p["median"] for p in pts]
    ideal = [t_min[0] * ranks[0] / r for r in ranks] if mode == "strong" else [t_min[0]] * len(ranks)

    fig, ax = plt.subplots(figsize=(6, 4))
    ax.loglog(ranks, t_min, "o-", label="measured (min)")
    ax.loglog(ranks, t_median, "x--", label="measured (median)")
    ax.loglog(ranks, ideal, "k:", label="ideal")
    ax.set(xlabel="MPI ranks", ylabel="wall time per step [s]", title=f"{mode} scaling")
    ax.legend()
    fig.tight_layout()
    fig.savefig(os.path.join(out, "time_per_step.png"), dpi=120)

    fig, ax = plt.subplots(figsize=(6, 4))
    ax.semilogx(ranks, [100 * p["best"]["efficiency"] for p in pts], "o-")
    ax.axhline(100, color="k", linestyle=":")
    ax.set(xlabel="MPI ranks", ylabel="parallel efficiency [%]", title=f"{mode} scaling efficiency", ylim=(0, 120))
    fig.tight_layout()
    fig.savefig(os.path.join(out, "efficiency.png"), dpi=120)

    fig, ax = plt.subplots(figsize=(6, 4))
    ax.semilogx(ranks, [p["best"]["pid_seconds"] for p in pts], "o-")
    ax.set(xlabel="MPI ranks", ylabel="PID [s]", title="performance index (wall x ranks / DOF / stages / steps)")
    fig.tight_layout()
    fig.savefig(os.path.join(out, "pid.png"), dpi=120)

    fig, ax = plt.subplots(figsize=(6, 4))
    bottom = [0.0] * len(pts)
    labels = [str(r) for r in ranks]
    for phase in PHASES:
        per_step = [p["best"][f"{phase}_mean"] / p["best"]["steps"] for p in pts]
        ax.bar(labels, per_step, bottom=bottom, label=phase)
        bottom = [b + v for b, v in zip(bottom, per_step)]
    ax.set(xlabel="MPI ranks", ylabel="time per step [s] (mean over ranks)", title="phase times")
    ax.legend(fontsize=7)
    fig.tight_layout()
    fig.savefig(os.path.join(out, "phases.png"), dpi=120)
    plt.close("all")


def check_inputs(args, files=("case",)):
    """UsageError unless each argument named in `files` (e.g. "case" for --case) is a
    file and --squall is an executable."""
    for name in files:
        if not os.path.isfile(getattr(args, name)):
            raise UsageError(f"--{name}: no such file {getattr(args, name)!r}")
    if not os.access(args.squall, os.X_OK):
        raise UsageError(f"--squall: {args.squall!r} is not an executable (build first: scripts/build.sh)")


def ensure_module(module, need):
    """Re-runs this script under Debian's /usr/bin/python3 when the current interpreter
    cannot import `module` and that one can; returns normally when it can be imported,
    raises UsageError("<need>: apt-get install python3-<module> ...") otherwise."""
    try:
        __import__(module)
        return
    except ImportError:
        pass
    system = "/usr/bin/python3"
    if os.path.exists(system) and os.path.realpath(sys.executable) != os.path.realpath(system):
        if subprocess.run([system, "-c", f"import {module}"], capture_output=True).returncode == 0:
            os.execv(system, [system] + sys.argv)
    raise UsageError(f"{need} {module}: apt-get install python3-{module} (for /usr/bin/python3)")


def ensure_matplotlib():
    """ensure_module for the plots."""
    ensure_module("matplotlib", "the plots need")


def parse_args(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter, epilog=__doc__)
    p.add_argument("mode", choices=["strong", "weak"])
    p.add_argument("--case", required=True, help="case config (TOML)")
    p.add_argument("--ranks", default="1,2,4", help="comma-separated rank counts (default 1,2,4)")
    p.add_argument("--order", type=int, help="polynomial order (default: the case's)")
    p.add_argument("--elements", help="strong: global mesh nx,ny,nz (default: the case's)")
    p.add_argument("--elements-per-rank", default="4,4,4", help="weak: elements per rank nx,ny,nz (default 4,4,4)")
    p.add_argument("--steps", type=int, default=20, help="timed steps per run (default 20)")
    p.add_argument("--warmup", type=int, default=5, help="untimed steps before them (default 5)")
    p.add_argument("--repeat", type=int, default=1, help="runs per point (default 1)")
    p.add_argument("--launcher", default="mpirun", help="mpirun, srun or sbatch (default mpirun)")
    p.add_argument("--launcher-args", help="extra launcher options, one string (e.g. '--bind-to core')")
    p.add_argument("--mpirun", default="mpirun", help="the mpirun command (default mpirun)")
    p.add_argument("--sbatch", default="sbatch", help="the sbatch command (default sbatch)")
    p.add_argument("--sbatch-template", default=os.path.join(HERE, "slurm", "scaling_point.sbatch.in"))
    p.add_argument("--time-limit", default="00:30:00", help="sbatch time limit per point")
    p.add_argument("--squall", default=os.path.join(ROOT, "build", "squall"), help="the squall executable")
    p.add_argument("--set", action="append", help="extra config override for every run (repeatable)")
    p.add_argument("--out", default="scaling", help="output directory (default scaling/)")
    args = p.parse_args(argv)
    if args.launcher not in ("mpirun", "srun", "sbatch"):
        raise UsageError(f"--launcher: unknown launcher {args.launcher!r}; expected mpirun, srun or sbatch")
    launcher_exe = {"mpirun": args.mpirun, "srun": "srun", "sbatch": args.sbatch}[args.launcher]
    if shutil.which(launcher_exe) is None:
        raise UsageError(f"--launcher {args.launcher}: {launcher_exe!r} is not on PATH")
    check_inputs(args)
    args.rank_list = parse_int_list(args.ranks, "--ranks")
    if args.steps < 1 or args.warmup < 0 or args.repeat < 1:
        raise UsageError("--steps and --repeat must be >= 1, --warmup >= 0")
    args.per_rank = parse_int_list(args.elements_per_rank, "--elements-per-rank", 3)
    args.global_elements = parse_int_list(args.elements, "--elements", 3) if args.elements else None
    return args


def case_elements(args):
    out = subprocess.run([args.squall, "check", args.case] + sum((["--set", s] for s in args.set or []), []),
                         capture_output=True, text=True)
    if out.returncode != 0:
        raise UsageError(f"--case: squall check refused it:\n{out.stderr.strip()}")
    # "...: ok (case NAME, NX x NY x NZ elements, ..."
    text = out.stdout.split("(case ", 1)[1].split(" elements", 1)[0].split(", ", 1)[1]
    return [int(v) for v in text.split(" x ")]


def main(argv):
    try:
        args = parse_args(argv)
        ensure_matplotlib()
        os.makedirs(args.out, exist_ok=True)
        rows = []
        base = args.global_elements or case_elements(args)
        for ranks in args.rank_list:
            if args.mode == "strong":
                elements = base
            else:
                growth = weak_growth(ranks)
                elements = [n * g for n, g in zip(args.per_rank, growth)]
            for repeat in range(args.repeat):
                _, summary = run_point(args, args.mode, ranks, elements, repeat)
                rows.append(row_from_summary(args.mode, ranks, repeat, summary))
        add_efficiency(rows, args.mode)
        with open(os.path.join(args.out, "scaling.csv"), "w", newline="") as f:
            writer = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
            writer.writeheader()
            writer.writerows(rows)
        write_markdown(os.path.join(args.out, "scaling.md"), args, args.mode, rows)
        write_plots(args.out, args.mode, rows)
        print(f"[scaling] wrote {args.out}/scaling.csv, scaling.md, time_per_step.png, efficiency.png, "
              f"pid.png, phases.png")
        return 0
    except UsageError as e:
        print(f"scaling.py: error: {e}", file=sys.stderr)
        return 2
    except RuntimeError as e:
        print(f"scaling.py: error: {e}", file=sys.stderr)
        return 1


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
