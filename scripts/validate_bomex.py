#!/usr/bin/env python3
"""Run a BOMEX configuration and compare it with the intercomparison of Siebesma et al. (2003).

  scripts/validate_bomex.py --config cases/bomex_small.toml --ranks 2 --out validation/bomex_small
  scripts/validate_bomex.py --config cases/bomex.toml --launcher sbatch --ranks 64 --time-limit 12:00:00
  scripts/validate_bomex.py --analyse validation/bomex_small/run      (an existing run, no new run)

Runs the configuration to --end-time (6 h) with a checkpoint every --checkpoint-interval
(continue a stopped run with --resume), then, from its profiles.nc and diagnostics.csv:
  - the hour 3-6 (--window) mean profiles of theta_l, q_t, q_l, cloud fraction, u, v,
    w'w', w'theta_l', w'q_t' against the initial ones (profiles.png);
  - the time series of cloud cover, liquid water path, cloud base and top
    (timeseries.png), and the clouds of the last field file (clouds.png: the liquid
    water path from above, q_l and w in a vertical section);
  - a table of the window means against the values of the intercomparison, with their
    spread and the figure they are read from (results.md, results.csv), and the checks
    the BOMEX case must pass (clouds within the first hour; the cloud layer; theta_l and
    q_t below 1500 m close to the initial profiles; cloud cover and LWP in the spread).
With --launcher sbatch the run is a batch job (scripts/slurm/scaling_point.sbatch.in, or
--sbatch-template) that the script submits and waits for. Plots need python3-matplotlib,
python3-xarray and python3-netcdf4 (Debian, /usr/bin/python3; the script re-runs itself
there). Exit status: 0 when the run reached --end-time and every check passed, 4 when a
check failed, 3 when the run was stopped (continue with --resume), 1 when it failed,
2 on bad arguments.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from validation_runs import (les_main, parse_les_arguments, run_wall_line,  # noqa: E402
                             save_figure, window_mean, window_profiles, write_results)

CLOUD = 1e-5  # q_l of a cloudy point [kg/kg]
# Cloud base and top of the window-mean cloud-fraction profile: the lowest and highest
# level where it exceeds this, as S03 read them where the mean profile leaves and reaches 0.
PROFILE_CLOUD_FRACTION = 1e-3

# The intercomparison's values, (low, high, source): Siebesma et al. (2003), J. Atmos. Sci.
# 60, 1201-1219 (S03). "approx." marks a value read from a figure.
REFERENCE = {
    "cloud_cover": (0.08, 0.17, "hours 3-6: ensemble mean 0.13, models from 0.08 (UCLA) to 0.17 (NCAR) (S03 sec. 2a)"),
    "lwp": (3.5, 10.3, "hours 3-6, g m-2: ensemble mean about 6.9, +-1 sigma 3.4 (S03 Fig. 2b, approx.)"),
    "cloud_base": (400.0, 700.0, "m, of the mean cloud-fraction profile: about 500 m (S03 sec. 2b); 400-700 m accepted"),
    "cloud_top": (1300.0, 2000.0, "m, of the mean cloud-fraction profile: it reaches 0 at about 1900-2000 m "
                                  "(S03 Fig. 6, approx.)"),
}
# Mean profile points with their spread: (z [m], value, sigma).
REFERENCE_PROFILES = {
    # hour 5-6 ensemble mean +- 1 sigma of S03, as MicroHH's Fig. 9 shades it (van Heerwaarden
    # et al. 2017, GMD 10, 3145), approx.
    "theta_li": [(300, 298.92, 0.04), (500, 299.04, 0.06), (1020, 300.54, 0.15), (1500, 302.74, 0.16),
                 (1980, 307.69, 0.24)],
    "qt": [(300, 16.82e-3, 0.08e-3), (500, 16.40e-3, 0.18e-3), (1020, 13.24e-3, 0.23e-3), (1500, 10.26e-3, 0.29e-3),
           (1980, 4.60e-3, 0.25e-3)],
    # hours 3-6: the maximum of the cloud fraction, about 0.06 near cloud base, ~620 m (S03 sec. 2b and
    # Fig. 6, approx.); the mean q_l of hour 5-6, about 0.0062 g/kg at ~700 m (S03 Fig. 3d, approx.).
    "cloud_fraction": [(620, 0.056, 0.008)],
    "ql": [(710, 0.0062e-3, 0.0015e-3)],
}


def parse(argv):
    return parse_les_arguments(argv, __doc__, "bomex_small.toml", "validation/bomex_small", 21600.0, "10800,21600", 3600.0)


def analyse(args, run_dir, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import xarray as xr

    series, ds, mean, first, z = window_profiles(args, run_dir)
    t = ds["time"].values
    lo, hi = args.window

    # Window means of the time series, and the checks.
    times = series["time"]
    cloudy_levels = z[mean["cloud_fraction"].values > PROFILE_CLOUD_FRACTION]
    nan = float("nan")
    values = {
        "cloud_cover": window_mean(times, series["cloud_cover"], args.window),
        "lwp": 1000 * window_mean(times, series["lwp"], args.window),  # g m-2
        "cloud_base": float(cloudy_levels.min()) if cloudy_levels.size else nan,
        "cloud_top": float(cloudy_levels.max()) if cloudy_levels.size else nan,
    }
    first_cloud = next((tt for tt, c in zip(times, series["cloud_cover"]) if c > 0), float("nan"))
    below = z <= 1500
    dtheta = float(abs(mean["theta_li"] - first["theta_li"]).values[below].max())
    dqt = 1000 * float(abs(mean["qt"] - first["qt"]).values[below].max())
    checks = [
        ("clouds form within the first hour", first_cloud <= 3600, f"first cloud at t = {first_cloud:g} s"),
        ("cloud base in 400-700 m", 400 <= values["cloud_base"] <= 700, f"{values['cloud_base']:.0f} m"),
        ("cloud top in 1300-2000 m", 1300 <= values["cloud_top"] <= 2000, f"{values['cloud_top']:.0f} m"),
        ("mean theta_l below 1500 m within 0.5 K of the initial", dtheta <= 0.5, f"max |change| {dtheta:.2f} K"),
        ("mean q_t below 1500 m within 0.5 g/kg of the initial", dqt <= 0.5, f"max |change| {dqt:.2f} g/kg"),
    ]
    for key in ("cloud_cover", "lwp"):
        low, high, _ = REFERENCE[key]
        checks.append((f"{key} in the intercomparison's spread {low:g}-{high:g}", low <= values[key] <= high,
                       f"{values[key]:.3g}"))
    peak = int(mean["cloud_fraction"].argmax())
    # The mean profiles at the reference heights, against the intercomparison's.
    reference_rows = []
    for name, points in REFERENCE_PROFILES.items():
        for zr, vr, er in points:
            reference_rows.append((name, zr, float(mean[name].interp(z=zr)), vr, er))
    # Each sample's lowest and highest cloudy node, averaged over the samples with cloud
    # (a different statistic: a sample with one small cloud counts as much as one with many),
    # and the means of each hour of the window (how much they vary: the sampling spread).
    profile_rows = [
        ("lowest cloudy node [m], mean over the samples", window_mean(times, series["cloud_base"], args.window), ""),
        ("highest cloudy node [m], mean over the samples", window_mean(times, series["cloud_top"], args.window), ""),
    ]
    for start in range(int(lo), int(hi), 3600):
        hour = (start, min(start + 3600, hi))
        label = f"{start / 3600:g}-{hour[1] / 3600:g} h"
        profile_rows.append((f"cloud cover, {label}", window_mean(times, series["cloud_cover"], hour), ""))
        profile_rows.append((f"LWP [g m-2], {label}", 1000 * window_mean(times, series["lwp"], hour), ""))
    profile_rows += [
        ("max cloud fraction (mean profile)", float(mean["cloud_fraction"][peak]), f"at z = {z[peak]:.0f} m"),
        ("max mean q_l [g/kg]", 1000 * float(mean["ql"].max()), f"at z = {z[int(mean['ql'].argmax())]:.0f} m"),
        ("max w'w' [m2 s-2]", float(mean["w_w"].max()), f"at z = {z[int(mean['w_w'].argmax())]:.0f} m"),
    ]

    tables = "\n| mean profile | z [m] | Squall | intercomparison (+- 1 sigma) |\n|---|---|---|---|\n"
    for name, zr, v, vr, er in reference_rows:
        scale, unit = (1000, " g/kg") if name in ("qt", "ql") else (1, " K" if name == "theta_li" else "")
        tables += f"| {name} | {zr:g} | {scale * v:.4g}{unit} | {scale * vr:.4g} +- {scale * er:.2g}{unit} |\n"
    heading = (f"# BOMEX: {os.path.basename(args.config)}, means over {lo / 3600:g}-{hi / 3600:g} h\n\n" +
               run_wall_line(run_dir, t[-1]))
    units = {"lwp": " g m-2", "cloud_base": " m", "cloud_top": " m", "cloud_cover": ""}
    write_results(out, heading, values, REFERENCE, units, profile_rows, checks, tables)

    # Profiles: the window mean against the initial state.
    panels = [("theta_li", "θ_l [K]", 1), ("qt", "q_t [g/kg]", 1000), ("ql", "q_l [g/kg]", 1000),
              ("cloud_fraction", "cloud fraction", 1), ("u", "u [m/s]", 1), ("v", "v [m/s]", 1),
              ("w_w", "w′w′ [m²/s²]", 1), ("w_theta_li", "w′θ_l′ [K m/s]", 1), ("w_qt", "w′q_t′ [g/kg m/s]", 1000)]
    fig, axes = plt.subplots(3, 3, figsize=(11, 11), sharey=True)
    for ax, (name, label, scale) in zip(axes.flat, panels):
        ax.plot(scale * first[name], z, "k--", lw=1, label="t = 0")
        ax.plot(scale * mean[name], z, "C0", lw=2, label=f"{lo / 3600:g}-{hi / 3600:g} h mean")
        if name + "_sgs" in mean:  # the modelled flux beside the resolved one, and their sum
            ax.plot(scale * mean[name + "_sgs"], z, "C1:", lw=1.5, label="subgrid")
            ax.plot(scale * (mean[name] + mean[name + "_sgs"]), z, "C2", lw=1, label="resolved + subgrid")
            ax.legend(fontsize=7)
        if name in REFERENCE_PROFILES:
            zr, vr, er = zip(*REFERENCE_PROFILES[name])
            ax.errorbar([scale * v for v in vr], zr, xerr=[scale * e for e in er], fmt="o", color="C3", ms=4,
                        label="Siebesma et al. (2003)")
        ax.set_xlabel(label)
        ax.grid(alpha=0.3)
    for ax in axes[:, 0]:
        ax.set_ylabel("z [m]")
    save_figure(plt, fig, axes, f"BOMEX ({os.path.basename(args.config)}): mean profiles", os.path.join(out, "profiles.png"))

    # Time series, with the intercomparison's spread over the window.
    hours = [tt / 3600 for tt in times]
    fig, axes = plt.subplots(2, 2, figsize=(11, 7), sharex=True)
    for ax, (key, label, scale) in zip(axes.flat, [("cloud_cover", "cloud cover", 1), ("lwp", "LWP [g m⁻²]", 1000),
                                                  ("cloud_base", "cloud base [m]", 1), ("cloud_top", "cloud top [m]", 1)]):
        ax.plot(hours, [scale * v for v in series[key]], "C0")
        low, high, _ = REFERENCE[key]
        ax.fill_between([lo / 3600, hi / 3600], low, high, color="0.8", label="intercomparison")
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
    for ax in axes[1]:
        ax.set_xlabel("time [h]")
    save_figure(plt, fig, axes, f"BOMEX ({os.path.basename(args.config)}): time series", os.path.join(out, "timeseries.png"))

    # The clouds of the last field file: the liquid water path seen from above, and the
    # liquid water in the x-z plane through its wettest column.
    import glob
    files = sorted(glob.glob(os.path.join(run_dir, "fields_*.nc")))
    if files:
        f = xr.open_dataset(files[-1], decode_times=False).isel(time=0)
        lwp = 1000 * (f["rho"] * f["ql"]).integrate("z")  # g m-2, trapezoids on the output grid
        j = int(lwp.max("x").argmax())
        fig, axes = plt.subplots(1, 2, figsize=(12, 5), gridspec_kw={"width_ratios": [1, 1.3]})
        m = axes[0].pcolormesh(f["x"] / 1000, f["y"] / 1000, lwp, cmap="Blues", shading="auto")
        fig.colorbar(m, ax=axes[0], label="LWP [g m⁻²]")
        axes[0].axhline(float(f["y"][j]) / 1000, color="C3", lw=0.8)
        axes[0].set_xlabel("x [km]")
        axes[0].set_ylabel("y [km]")
        axes[0].set_aspect("equal")
        section = f.isel(y=j)
        m = axes[1].pcolormesh(section["x"] / 1000, section["z"], 1000 * section["ql"], cmap="Blues", shading="auto")
        fig.colorbar(m, ax=axes[1], label="q_l [g/kg]")
        axes[1].contour(section["x"] / 1000, section["z"], section["w"], levels=[-1, 1], colors=["C0", "C3"],
                        linewidths=0.8)
        axes[1].set_xlabel("x [km]")
        axes[1].set_ylabel("z [m]")
        axes[1].set_ylim(0, 2500)
        axes[1].set_title("q_l at the red line; w = ±1 m/s contours", fontsize=9)
        fig.suptitle(f"BOMEX ({os.path.basename(args.config)}): clouds at t = {float(f['time']) / 3600:.1f} h")
        fig.tight_layout()
        fig.savefig(os.path.join(out, "clouds.png"), dpi=110)
        plt.close(fig)

    return all(ok for _, ok, _ in checks)


def main(argv):
    return les_main(argv, "validate_bomex.py", "bomex", parse, analyse)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
