#!/usr/bin/env python3
"""Validate the density current (Straka et al. 1993) against the paper's reference.

  scripts/validate_density_current.py --resolutions 200,100,50 --ranks 2 --out validation/density_current

Runs cases/density_current.toml at each effective resolution (element size / N, in m),
collects the minimum of theta' and the front position at 900 s from summary.json, and
writes results.csv, results.md and theta_<res>m.png (theta' at the final time) to
--out. Reference (Straka et al. 1993, Table 3, converged solutions): front position
about 15.5 km, minimum theta' about -9.8 K. Plots need python3-matplotlib and
python3-xarray (Debian, /usr/bin/python3; the script re-runs itself there).

Each run writes a checkpoint every --checkpoint-interval simulated seconds into its run
directory. A run that was stopped (SIGTERM, a batch time limit, a lost node) continues
from its newest checkpoint with --resume, bit for bit; a run that already reached
--end-time is not run again with --resume. Exit status: 0 when every run reached
--end-time, 3 when one was stopped by a signal (continue with --resume), 1 when one
failed, 2 on bad arguments. The wall time in the table is that of the time loop summed
over the pieces of a run (run_<res>m/segments.json).
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
from scaling import UsageError, ensure_matplotlib, launcher_command  # noqa: E402

REFERENCE_FRONT_M = 15540.0   # Straka et al. (1993): converged front position at 900 s
REFERENCE_THETA_MIN = -9.77   # and minimum theta' [K]
DOMAIN_X, DOMAIN_Z = 25600.0, 6400.0


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--resolutions", default="200,100,50", help="effective resolutions in m (default 200,100,50)")
    p.add_argument("--order", type=int, default=4)
    p.add_argument("--ranks", type=int, default=1)
    p.add_argument("--launcher", default="mpirun")
    p.add_argument("--launcher-args")
    p.add_argument("--mpirun", default="mpirun")
    p.add_argument("--end-time", type=float, default=900.0)
    p.add_argument("--squall", default=os.path.join(ROOT, "build", "squall"))
    p.add_argument("--out", default="validation/density_current")
    p.add_argument("--checkpoint-interval", type=float, default=30.0,
                   help="simulated seconds between checkpoints (default 30)")
    p.add_argument("--resume", action="store_true",
                   help="continue each run from the newest checkpoint in its run directory")
    p.add_argument("--set", action="append", default=[], metavar="KEY=VALUE",
                   help="further config settings passed on to every run (repeatable; e.g. time.max_steps=1000)")
    args = p.parse_args(argv)
    try:
        ensure_matplotlib()
        resolutions = [float(r) for r in args.resolutions.split(",")]
    except (UsageError, ValueError) as e:
        print(f"validate_density_current.py: error: {e}", file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for res in resolutions:
        size = res * args.order
        nx, nz = round(DOMAIN_X / size), round(DOMAIN_Z / size)
        out = os.path.join(args.out, f"run_{res:g}m")
        cmd = launcher_command(args, args.ranks) if args.ranks > 1 else []
        cmd += [args.squall, "run", os.path.join(ROOT, "cases", "density_current.toml"), "--output", out,
                "--set", f"mesh.elements=[{nx},1,{nz}]", "--set", f"dg.order={args.order}",
                "--set", f"time.end_time={args.end_time}", "--set", f"output.interval={args.end_time}",
                "--set", f"output.checkpoint_interval={args.checkpoint_interval}"]
        for setting in args.set:
            cmd += ["--set", setting]
        state = resume_state(out, args.end_time)
        if not args.resume and state != "new":
            print(f"validate_density_current.py: error: {out} holds checkpoints of an earlier run: "
                  "continue it with --resume, or remove that directory", file=sys.stderr)
            return 2
        print(f"[validate] {res:g} m: {nx} x {nz} elements, N = {args.order} ({state})", flush=True)
        if state == "continued":
            cmd += ["--restart", "latest"]
        if state != "done":
            status = subprocess.run(cmd).returncode
            record_segment(out)
            if status != 0:
                print(f"validate_density_current.py: error: the {res:g} m run failed (status {status}); "
                      f"a run that was stopped continues from the newest checkpoint in {out} with --resume",
                      file=sys.stderr)
                return 1
        with open(os.path.join(out, "summary.json")) as f:
            s = json.load(f)
        if s["final_time"] < args.end_time:  # stopped by a signal, after writing a checkpoint
            print(f"validate_density_current.py: the {res:g} m run stopped at t = {s['final_time']:g} s; "
                  f"continue it with the same command and --resume", file=sys.stderr)
            return 3
        d = s["case_diagnostics"]
        front = d["front_position"] if d["front_position"] is not None else float("nan")  # null: no front yet
        rows.append({"resolution_m": res, "elements": f"{nx}x1x{nz}", "order": args.order,
                     "front_position_m": front, "min_theta_prime_K": d["min_theta_prime"],
                     "front_error_m": front - REFERENCE_FRONT_M,
                     "theta_min_error_K": d["min_theta_prime"] - REFERENCE_THETA_MIN,
                     "wall_seconds": total_wall_seconds(out, s), "ranks": s["ranks"]})
        plot_theta(out, res, args.out)
    with open(os.path.join(args.out, "results.csv"), "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0].keys()))
        w.writeheader()
        w.writerows(rows)
    lines = ["# Density current (Straka et al. 1993) at t = %g s" % args.end_time, "",
             f"Reference: front {REFERENCE_FRONT_M / 1000:.2f} km, min theta' {REFERENCE_THETA_MIN} K.", "",
             "| resolution | elements | front [km] | error [m] | min theta' [K] | error [K] | wall [s] |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['resolution_m']:g} m | {r['elements']} | {r['front_position_m'] / 1000:.3f} | "
                     f"{r['front_error_m']:+.0f} | {r['min_theta_prime_K']:.2f} | {r['theta_min_error_K']:+.2f} | "
                     f"{r['wall_seconds']:.0f} |")
    with open(os.path.join(args.out, "results.md"), "w") as f:
        f.write("\n".join(lines) + "\n")
    print("\n".join(lines))
    return 0


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
    import glob
    if not glob.glob(os.path.join(run_dir, "checkpoint_*.h5")):
        return "new"
    try:
        with open(os.path.join(run_dir, "summary.json")) as f:
            if json.load(f)["final_time"] >= end_time:
                return "done"
    except (OSError, ValueError, KeyError):
        pass
    return "continued"


def plot_theta(run_dir, res, out):
    import glob
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import xarray as xr
    last = sorted(glob.glob(os.path.join(run_dir, "fields_*.nc")))[-1]
    ds = xr.open_dataset(last)
    theta = ds.theta.isel(time=0, y=0) - 300.0
    fig, ax = plt.subplots(figsize=(10, 3))
    levels = [-16.5 + i for i in range(17)]
    c = ax.contourf(ds.x / 1000, ds.z / 1000, theta, levels=levels, cmap="Blues_r", extend="both")
    ax.contour(ds.x / 1000, ds.z / 1000, theta, levels=[-1.0], colors="k", linewidths=0.8)
    fig.colorbar(c, ax=ax, label="theta' [K]")
    ax.set(xlabel="x [km]", ylabel="z [km]", title=f"density current, {res:g} m, t = {float(ds.time[0]):g} s",
           xlim=(0, 19.2), ylim=(0, 4.8))
    fig.tight_layout()
    fig.savefig(os.path.join(out, f"theta_{res:g}m.png"), dpi=120)
    plt.close(fig)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
