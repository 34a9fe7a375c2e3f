"""What the validation scripts share: their common arguments, and one resumable run of a
case at one resolution (checkpoints every --checkpoint-interval, --resume continues from
the newest one, the wall time summed over the pieces of a run in segments.json).

Exit statuses of a run: 0 reached --end-time, 1 failed, 2 bad arguments (an earlier
run's checkpoints without --resume), 3 stopped by a signal (continue with --resume).
"""
import csv
import glob
import json
import math
import os
import shlex
import subprocess
import sys

from scaling import UsageError, ensure_matplotlib, launcher_command

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)


def add_run_arguments(p, resolutions, order, end_time, out, checkpoint_interval):
    """The arguments every validation script takes, with its own defaults."""
    p.add_argument("--resolutions", default=resolutions, help=f"effective resolutions in m (default {resolutions})")
    p.add_argument("--order", type=int, default=order)
    p.add_argument("--ranks", type=int, default=1)
    p.add_argument("--launcher", default="mpirun")
    p.add_argument("--launcher-args")
    p.add_argument("--mpirun", default="mpirun")
    p.add_argument("--end-time", type=float, default=end_time)
    p.add_argument("--squall", default=os.path.join(ROOT, "build", "squall"))
    p.add_argument("--out", default=out)
    p.add_argument("--checkpoint-interval", type=float, default=checkpoint_interval,
                   help=f"simulated seconds between checkpoints (default {checkpoint_interval:g})")
    p.add_argument("--resume", action="store_true",
                   help="continue each run from the newest checkpoint in its run directory")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="further config settings passed on to every run (repeatable; e.g. time.max_steps=1000)")


def run_case(args, prog, label, case, nx, nz, out):
    """Runs cases/<case>.toml on nx x 1 x nz elements into out (or continues it with
    --resume) to --end-time; returns (status, summary), status as in the module's text
    and summary the run's summary.json (None unless status is 0)."""
    cmd = launcher_command(args, args.ranks) if args.ranks > 1 else []
    cmd += [args.squall, "run", os.path.join(ROOT, "cases", f"{case}.toml"), "--output", out,
            "--set", f"mesh.elements=[{nx},1,{nz}]", "--set", f"dg.order={args.order}",
            "--set", f"time.end_time={args.end_time}", "--set", f"output.interval={args.end_time}",
            "--set", f"output.checkpoint_interval={args.checkpoint_interval}"]
    for setting in args.set:
        cmd += ["--set", setting]
    state = resume_state(out, args.end_time)
    if not args.resume and state != "new":
        print(f"{prog}: error: {out} holds checkpoints of an earlier run: "
              "continue it with --resume, or remove that directory", file=sys.stderr)
        return 2, None
    print(f"[validate] {label}: {nx} x {nz} elements, N = {args.order} ({state})", flush=True)
    if state == "continued":
        cmd += ["--restart", "latest"]
    if state != "done":
        status = subprocess.run(cmd).returncode
        record_segment(out)
        if status != 0:
            print(f"{prog}: error: the {label} run failed (status {status}); "
                  f"a run that was stopped continues from the newest checkpoint in {out} with --resume", file=sys.stderr)
            return 1, None
    with open(os.path.join(out, "summary.json")) as f:
        s = json.load(f)
    if s["final_time"] < args.end_time:  # stopped by a signal, after writing a checkpoint
        print(f"{prog}: the {label} run stopped at t = {s['final_time']:g} s; "
              f"continue it with the same command and --resume", file=sys.stderr)
        return 3, None
    return 0, s


def record_segment(run_dir):
    """Adds the piece of the run that just ended (summary.json: its last step, time and
    wall time) to run_dir/segments.json, so that a run continued with --resume reports the
    wall time of all its pieces."""
    try:
        with open(os.path.join(run_dir, "summary.json")) as f:
            s = json.load(f)
    except (OSError, ValueError):
        return  # the run failed before writing a summary
    segments = load_segments(run_dir)
    segment = {"final_step": s["steps"], "final_time": s["final_time"], "wall_seconds": s["wall_seconds"],
               "ranks": s["ranks"], "restarted_from": s.get("restarted_from")}
    segments = [g for g in segments if g["final_step"] != segment["final_step"]] + [segment]
    with open(os.path.join(run_dir, "segments.json"), "w") as f:
        json.dump(segments, f, indent=1)


def load_segments(run_dir):
    try:
        with open(os.path.join(run_dir, "segments.json")) as f:
            return json.load(f)
    except (OSError, ValueError):
        return []


def total_wall_seconds(run_dir, summary):
    """Time-loop wall time of the whole run: the sum over its recorded pieces (a run from
    before segments.json was kept counts its last piece only)."""
    segments = load_segments(run_dir)
    return sum(g["wall_seconds"] for g in segments) if segments else summary["wall_seconds"]


def resume_state(run_dir, end_time):
    """'done' if the run in run_dir reached end_time, 'continued' if it has a checkpoint
    to continue from, else 'new'."""
    if not glob.glob(os.path.join(run_dir, "checkpoint_*.h5")):
        return "new"
    try:
        with open(os.path.join(run_dir, "summary.json")) as f:
            if json.load(f)["final_time"] >= end_time:
                return "done"
    except (OSError, ValueError, KeyError):
        pass
    return "continued"


def parse_les_arguments(argv, doc, config, out, end_time, window, checkpoint_interval):
    """The arguments of the LES-case validations (validate_bomex.py, validate_dycoms.py),
    with the script's text `doc` and its defaults; --window as (start, end). Raises
    UsageError."""
    import argparse

    p = argparse.ArgumentParser(description=doc.split("\n\n")[0], epilog=doc,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--config", default=os.path.join(ROOT, "cases", config))
    p.add_argument("--out", default=out)
    p.add_argument("--analyse", metavar="RUN_DIR", help="analyse this run directory; run nothing")
    p.add_argument("--ranks", type=int, default=1)
    p.add_argument("--launcher", default="mpirun", help="mpirun, srun or sbatch (default mpirun)")
    p.add_argument("--launcher-args")
    p.add_argument("--mpirun", default="mpirun")
    p.add_argument("--sbatch", default="sbatch")
    p.add_argument("--sbatch-template", default=os.path.join(HERE, "slurm", "scaling_point.sbatch.in"))
    p.add_argument("--time-limit", default="12:00:00", help="sbatch time limit")
    p.add_argument("--squall", default=os.path.join(ROOT, "build", "squall"))
    p.add_argument("--end-time", type=float, default=end_time)
    p.add_argument("--window", default=window, help=f"time window of the means [s] (default {window})")
    p.add_argument("--checkpoint-interval", type=float, default=checkpoint_interval)
    p.add_argument("--resume", action="store_true", help="continue the run from its newest checkpoint")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="further config settings")
    args = p.parse_args(argv)
    if args.launcher not in ("mpirun", "srun", "sbatch"):
        raise UsageError(f"--launcher {args.launcher}: expected mpirun, srun or sbatch")
    try:
        lo, hi = (float(v) for v in args.window.split(","))
    except ValueError:
        raise UsageError(f"--window {args.window}: expected two times in s, e.g. 10800,21600")
    if not lo < hi:
        raise UsageError(f"--window {args.window}: the start must be before the end")
    args.window = (lo, hi)
    return args


def run_config(args, run_dir, prog, label):
    """Runs (or continues) args.config into run_dir with mpirun, srun or a batch job that
    is submitted and waited for; returns the status of the module's text."""
    state = resume_state(run_dir, args.end_time)
    if state != "new" and not args.resume:
        print(f"{prog}: error: {run_dir} holds checkpoints of an earlier run: continue it with "
              "--resume, or remove that directory", file=sys.stderr)
        return 2
    if state == "done":
        return 0
    squall = [args.squall, "run", args.config, "--output", run_dir, "--set", f"time.end_time={args.end_time}",
              "--set", f"output.checkpoint_interval={args.checkpoint_interval}"]
    for s in args.set:
        squall += ["--set", s]
    if state == "continued":
        squall += ["--restart", "latest"]
    os.makedirs(run_dir, exist_ok=True)
    if args.launcher == "sbatch":
        with open(args.sbatch_template) as f:
            template = f.read()
        command = " ".join(shlex.quote(c) for c in ["srun", "-n", str(args.ranks)] +
                           shlex.split(args.launcher_args or "") + squall)
        script = os.path.join(run_dir, "job.sbatch")
        with open(script, "w") as f:
            f.write(template.format(job_name=f"squall-{label}", ranks=args.ranks, time_limit=args.time_limit,
                                    log=os.path.join(run_dir, "job.log"), command=command))
        cmd = [args.sbatch, "--parsable", "--wait", script]
    else:
        cmd = (launcher_command(args, args.ranks) if args.ranks > 1 or args.launcher == "srun" else []) + squall
    print(f"[validate] {label}: {' '.join(shlex.quote(c) for c in cmd)} ({state})", flush=True)
    status = subprocess.run(cmd).returncode
    record_segment(run_dir)
    if status != 0:
        print(f"{prog}: error: the run failed (status {status}); a stopped run continues from its "
              f"newest checkpoint with --resume", file=sys.stderr)
        return 1
    if resume_state(run_dir, args.end_time) != "done":
        print(f"{prog}: the run stopped before --end-time; continue it with --resume", file=sys.stderr)
        return 3
    return 0


def read_series(run_dir):
    """diagnostics.csv of run_dir as {column: [values]}."""
    with open(os.path.join(run_dir, "diagnostics.csv")) as f:
        rows = list(csv.DictReader(f))
    return {k: [float(r[k]) for r in rows] for k in rows[0]}


def window_mean(times, values, window):
    """The mean of the finite values with times inside window (NaN if none)."""
    picked = [v for t, v in zip(times, values) if window[0] <= t <= window[1] and math.isfinite(v)]
    return sum(picked) / len(picked) if picked else float("nan")


def save_figure(plt, fig, axes, title, path):
    """The legend of the first panel, the title, and the picture to path."""
    axes[0, 0].legend(fontsize=8)
    fig.suptitle(title)
    fig.tight_layout()
    fig.savefig(path, dpi=110)
    plt.close(fig)


def run_wall_line(run_dir, t_end):
    """'Run to t = ... on R rank(s) in W s of wall time (...).' from run_dir's summary, or ''."""
    try:
        with open(os.path.join(run_dir, "summary.json")) as f:
            summary = json.load(f)
    except (OSError, ValueError):
        return ""
    wall = total_wall_seconds(run_dir, summary)
    if not wall:
        return ""
    return (f"Run to t = {t_end:g} s on {summary['ranks']} rank(s) in {wall:.0f} s of wall time "
            f"({t_end / wall:.2f} simulated s per wall s).\n\n")


def window_profiles(args, run_dir):
    """(diagnostics.csv as read_series gives it, profiles.nc, its mean over args.window,
    its first record, the heights) of run_dir; UsageError when the window holds no record."""
    import xarray as xr

    series = read_series(run_dir)
    ds = xr.open_dataset(os.path.join(run_dir, "profiles.nc"), decode_times=False)
    t = ds["time"].values
    lo, hi = args.window
    inside = (t >= lo) & (t <= hi)
    if not inside.any():
        raise UsageError(f"no profiles in the window {lo:g}-{hi:g} s (the run reached t = {t[-1]:g} s)")
    return series, ds, ds.isel(time=inside).mean("time"), ds.isel(time=0), ds["z"].values


def les_main(argv, prog, label, parse, analyse):
    """The main program of an LES-case validation: parse(argv), the run (unless
    --analyse), then analyse(args, run_dir, out) -> whether every check passed, which
    writes out/results.md, printed here. Returns the exit status of the scripts' texts."""
    try:
        args = parse(argv)
        ensure_matplotlib()
    except UsageError as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    run_dir = args.analyse or os.path.join(args.out, "run")
    if not args.analyse:
        status = run_config(args, run_dir, prog, label)
        if status != 0:
            return status
    try:
        ok = analyse(args, run_dir, args.out)
        with open(os.path.join(args.out, "results.md")) as f:
            print(f.read())
    except (UsageError, OSError, KeyError) as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    return 0 if ok else 4


def write_table(out, rows, lines):
    """out/results.csv (one row per run: the dicts `rows`, their keys the columns) and
    out/results.md (the markdown `lines`), which are also printed."""
    with open(os.path.join(out, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))


def write_results(out, heading, values, reference, units, rows, checks, tables=""):
    """out/results.csv and out/results.md: the quantities compared with a reference range
    (values[key] against reference[key] = (low, high, source), units[key]), further
    rows (name, value, where), any further markdown tables, and the checks (name, ok,
    detail)."""
    os.makedirs(out, exist_ok=True)
    with open(os.path.join(out, "results.csv"), "w", newline="") as f:
        w = csv.writer(f)
        w.writerow(["quantity", "squall", "reference_low", "reference_high", "source"])
        for key, v in values.items():
            low, high, source = reference[key]
            w.writerow([key, v, low, high, source])
        for name, v, where in rows:
            w.writerow([name, v, "", "", where])
    with open(os.path.join(out, "results.md"), "w") as f:
        f.write(heading)
        f.write("| quantity | Squall | reference | source |\n|---|---|---|---|\n")
        for key, v in values.items():
            low, high, source = reference[key]
            f.write(f"| {key} | {v:.3g}{units[key]} | {low:g}-{high:g}{units[key]} | {source} |\n")
        for name, v, where in rows:
            f.write(f"| {name} | {v:.4g}{f' ({where})' if where else ''} | | |\n")
        f.write(tables)
        f.write("\n| check | result | value |\n|---|---|---|\n")
        for name, ok, detail in checks:
            f.write(f"| {name} | {'pass' if ok else 'FAIL'} | {detail} |\n")
