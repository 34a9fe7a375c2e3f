#!/usr/bin/env python3
"""Compare the moist bubble of Bryan & Fritsch (2002) with its dry counterpart.

  scripts/validate_moist_bubble.py --resolutions 200,100 --ranks 2 --out validation/moist_bubble

Runs cases/dry_bubble.toml and cases/moist_bubble.toml at each effective resolution
(element size / N, in m) to --end-time (1000 s), and compares at the final time:
  - the dry theta' = theta - 300 K with the moist theta_rho' = theta_rho - theta_rho_bar(z)
    (theta_rho_bar: the undisturbed column at x = 0 of the initial fields), field against
    field on the output grid: the largest and the root-mean-square difference, and the
    RMS relative to the dry maximum;
  - the maxima of theta' / theta_rho', their heights, the bubble's top (highest node with
    theta' >= 0.2 K) and the extremes of w (summary.json);
  - each field between successive resolutions (the coarser grid, the finer run
    interpolated onto it), as the convergence measure.
Writes results.csv, results.md and theta_<res>m.png (the two fields side by side) to --out.

Bryan & Fritsch (2002), Mon. Wea. Rev. 130, 2917-2928, show that a moist model with
consistent thermodynamics, which conserves mass and energy, gives a moist bubble that
"exhibits many of the properties found in its dry counterpart" (abstract; their Figs. 1
and 3 at 100 m). The comparison here states it as numbers. Runs take a checkpoint every
--checkpoint-interval simulated seconds and continue with --resume after a stop (the
conventions of scripts/validation_runs.py). Plots need python3-matplotlib and
python3-xarray (Debian, /usr/bin/python3; the script re-runs itself there). Exit status:
0 when every run reached --end-time, 3 when one was stopped by a signal, 1 when one
failed, 2 on bad arguments.
"""
import argparse
import glob
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from scaling import UsageError, ensure_matplotlib  # noqa: E402
from validation_runs import add_run_arguments, run_case, total_wall_seconds, write_table  # noqa: E402

DOMAIN_X, DOMAIN_Z = 20000.0, 10000.0
CASES = ("dry_bubble", "moist_bubble")


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    add_run_arguments(p, "200,100", 5, 1000.0, "validation/moist_bubble", 100.0)
    args = p.parse_args(argv)
    try:
        ensure_matplotlib()
        resolutions = [float(r) for r in args.resolutions.split(",")]
    except (UsageError, ValueError) as e:
        print(f"validate_moist_bubble.py: error: {e}", file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    rows, fields = [], {}
    for res in resolutions:
        size = res * args.order
        nx, nz = round(DOMAIN_X / size), round(DOMAIN_Z / size)
        summaries = {}
        for case in CASES:
            out = os.path.join(args.out, f"{case}_{res:g}m")
            status, summaries[case] = run_case(args, "validate_moist_bubble.py", f"{case}, {res:g} m", case, nx, nz,
                                               out)
            if status != 0:
                return status
            fields[(case, res)] = perturbation_field(out, case)
        dry, moist = fields[("dry_bubble", res)], fields[("moist_bubble", res)]
        diff = moist[2] - dry[2]
        rms = float((diff ** 2).mean() ** 0.5)
        d, m = summaries["dry_bubble"]["case_diagnostics"], summaries["moist_bubble"]["case_diagnostics"]
        row = {"resolution_m": res, "elements": f"{nx}x1x{nz}", "order": args.order,
               "dry_max_theta_prime_K": d["max_theta_rho_prime"], "moist_max_theta_rho_prime_K": m["max_theta_rho_prime"],
               "dry_height_of_max_m": d["height_of_max_theta_rho_prime"],
               "moist_height_of_max_m": m["height_of_max_theta_rho_prime"],
               "dry_top_m": d["bubble_top_height"], "moist_top_m": m["bubble_top_height"],
               "dry_max_w": d["max_w"], "moist_max_w": m["max_w"], "moist_max_ql": m["max_ql"],
               "max_abs_difference_K": float(abs(diff).max()), "rms_difference_K": rms,
               "rms_relative_to_dry_max": rms / d["max_theta_rho_prime"],
               "dry_wall_s": total_wall_seconds(os.path.join(args.out, f"dry_bubble_{res:g}m"), summaries["dry_bubble"]),
               "moist_wall_s": total_wall_seconds(os.path.join(args.out, f"moist_bubble_{res:g}m"),
                                                  summaries["moist_bubble"])}
        rows.append(row)
        plot(dry, moist, res, args.out, args.end_time)
    # Convergence: each field against the next finer resolution, on the coarser grid.
    convergence = []
    for coarse, fine in zip(resolutions, resolutions[1:]):
        for case in CASES:
            c, f = fields[(case, coarse)], fields[(case, fine)]
            on_coarse = interpolate(f, c[0], c[1])
            delta = on_coarse - c[2]
            convergence.append({"case": case, "coarse_m": coarse, "fine_m": fine,
                                "max_abs_difference_K": float(abs(delta).max()),
                                "rms_difference_K": float((delta ** 2).mean() ** 0.5)})
    lines = [f"# Moist bubble against the dry bubble (Bryan & Fritsch 2002), t = {args.end_time:g} s", "",
             "| resolution | max theta' dry / theta_rho' moist [K] | height of max [m] | top [m] | max w [m/s] "
             "| moist - dry: max / RMS [K] | RMS / dry max | wall dry / moist [s] |",
             "|---|---|---|---|---|---|---|---|"]
    for r in rows:
        lines.append(f"| {r['resolution_m']:g} m | {r['dry_max_theta_prime_K']:.3f} / {r['moist_max_theta_rho_prime_K']:.3f} "
                     f"| {r['dry_height_of_max_m']:.0f} / {r['moist_height_of_max_m']:.0f} "
                     f"| {r['dry_top_m']:.0f} / {r['moist_top_m']:.0f} | {r['dry_max_w']:.2f} / {r['moist_max_w']:.2f} "
                     f"| {r['max_abs_difference_K']:.3f} / {r['rms_difference_K']:.4f} "
                     f"| {r['rms_relative_to_dry_max']:.4f} | {r['dry_wall_s']:.0f} / {r['moist_wall_s']:.0f} |")
    if convergence:
        lines += ["", "Between resolutions (the finer run interpolated onto the coarser grid):", "",
                  "| case | resolutions | max / RMS difference [K] |", "|---|---|---|"]
        for c in convergence:
            lines.append(f"| {c['case']} | {c['coarse_m']:g} m vs {c['fine_m']:g} m "
                         f"| {c['max_abs_difference_K']:.3f} / {c['rms_difference_K']:.4f} |")
    write_table(args.out, rows, lines)
    return 0


def perturbation_field(run_dir, case):
    """(x, z, theta') at the final time on the output grid: theta - 300 K for dry air,
    theta_rho - theta_rho_bar(z) for moist air (theta_v is the density potential
    temperature; the background is the initial column at the lowest x)."""
    import xarray as xr
    files = sorted(glob.glob(os.path.join(run_dir, "fields_*.nc")))
    last = xr.open_dataset(files[-1], decode_times=False).isel(time=0, y=0)
    if case == "dry_bubble":
        prime = last.theta - 300.0
    else:
        first = xr.open_dataset(files[0], decode_times=False).isel(time=0, y=0)
        prime = last.theta_v - first.theta_v.isel(x=0)
    return last.x.values, last.z.values, prime.transpose("z", "x").values


def interpolate(field, x, z):
    """field = (x, z, values[z, x]) bilinearly onto the grid x, z."""
    import numpy as np
    fx, fz, v = field
    along_x = np.array([np.interp(x, fx, row) for row in v])
    return np.array([np.interp(z, fz, col) for col in along_x.T]).T


def plot(dry, moist, res, out, t):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.2), sharey=True)
    levels = [-1.0 + 0.2 * i for i in range(17)]
    for ax, (name, f) in zip(axes, (("dry: theta'", dry), ("moist: theta_rho'", moist))):
        c = ax.contourf(f[0] / 1000, f[1] / 1000, f[2], levels=levels, cmap="RdBu_r", extend="both")
        ax.contour(f[0] / 1000, f[1] / 1000, f[2], levels=[0.2, 1.0], colors="k", linewidths=0.6)
        ax.set(xlabel="x [km]", title=f"{name}, {res:g} m, t = {t:g} s", xlim=(4, 16), aspect="equal")
    axes[0].set_ylabel("z [km]")
    fig.colorbar(c, ax=axes, label="K", shrink=0.9)
    fig.savefig(os.path.join(out, f"theta_{res:g}m.png"), dpi=110)
    plt.close(fig)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
