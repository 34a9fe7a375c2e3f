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
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from scaling import UsageError, ensure_matplotlib  # noqa: E402
from validation_runs import add_run_arguments, run_case, total_wall_seconds, write_table  # noqa: E402

REFERENCE_FRONT_M = 15540.0   # Straka et al. (1993): converged front position at 900 s
REFERENCE_THETA_MIN = -9.77   # and minimum theta' [K]
DOMAIN_X, DOMAIN_Z = 25600.0, 6400.0


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    add_run_arguments(p, "200,100,50", 4, 900.0, "validation/density_current", 30.0)
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
        status, s = run_case(args, "validate_density_current.py", f"{res:g} m", "density_current", nx, nz, out)
        if status != 0:
            return status
        d = s["case_diagnostics"]
        front = d["front_position"] if d["front_position"] is not None else float("nan")  # null: no front yet
        rows.append({"resolution_m": res, "elements": f"{nx}x1x{nz}", "order": args.order,
                     "front_position_m": front, "min_theta_prime_K": d["min_theta_prime"],
                     "front_error_m": front - REFERENCE_FRONT_M,
                     "theta_min_error_K": d["min_theta_prime"] - REFERENCE_THETA_MIN,
                     "wall_seconds": total_wall_seconds(out, s), "ranks": s["ranks"]})
        plot_theta(out, res, args.out)
    lines = ["# Density current (Straka et al. 1993) at t = %g s" % args.end_time, "",
             f"Reference: front {REFERENCE_FRONT_M / 1000:.2f} km, min theta' {REFERENCE_THETA_MIN} K.", "",
             "| resolution | elements | front [km] | error [m] | min theta' [K] | error [K] | wall [s] |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['resolution_m']:g} m | {r['elements']} | {r['front_position_m'] / 1000:.3f} | "
                     f"{r['front_error_m']:+.0f} | {r['min_theta_prime_K']:.2f} | {r['theta_min_error_K']:+.2f} | "
                     f"{r['wall_seconds']:.0f} |")
    write_table(args.out, rows, lines)
    return 0


def plot_theta(run_dir, res, out):
    import glob
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import xarray as xr
    last = sorted(glob.glob(os.path.join(run_dir, "fields_*.nc")))[-1]
    ds = xr.open_dataset(last, decode_times=False)
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
