#!/usr/bin/env python3
"""Run a DYCOMS-II RF01 configuration and compare it with Stevens et al. (2005).

  scripts/validate_dycoms.py --config cases/dycoms_rf01_small.toml --ranks 2 --out validation/dycoms_small
  scripts/validate_dycoms.py --config cases/dycoms_rf01.toml --launcher sbatch --ranks 64 --time-limit 12:00:00
  scripts/validate_dycoms.py --analyse validation/dycoms_small/run      (an existing run, no new run)

Runs the configuration to --end-time (4 h) with a checkpoint every --checkpoint-interval
(continue a stopped run with --resume), then, from its profiles.nc and diagnostics.csv:
  - the time series of the liquid water path, cloud cover, cloud base and top and the
    inversion height z_i (the mean over columns of the highest height where q_t falls
    through 8 g/kg, interpolated between nodes; older versions wrote the highest node),
    with the entrainment rate w_e = dz_i/dt + D z_i (D = 3.75e-6 1/s) over the window
    (timeseries.png);
  - the hour 3-4 (--window) mean profiles of theta_l, q_t, q_l, cloud fraction, w'w',
    w'w'w', the resolved TKE, w'theta_l' and w'q_t' (with their subgrid parts), u, v and
    the radiation's net flux against the initial ones (profiles.png), and the
    vertically integrated TKE;
  - a table of the window means against the observations and the intercomparison's
    ensemble with the figure or table they come from (results.md, results.csv), and the
    checks the case must pass (a cloud deck: cloud cover > 0.9 over the window; LWP and
    w_e within the ensemble's interquartile range and the paper's sensitivity runs).
With --launcher sbatch the run is a batch job (scripts/slurm/scaling_point.sbatch.in, or
--sbatch-template). Plots need python3-matplotlib, python3-xarray and python3-netcdf4
(Debian, /usr/bin/python3; the script re-runs itself there). Exit status: 0 when the run
reached --end-time and every check passed, 4 when a check failed, 3 when the run was
stopped (continue with --resume), 1 when it failed, 2 on bad arguments.
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
from validation_runs import (les_main, parse_les_arguments, run_wall_line,  # noqa: E402
                             save_figure, window_mean, window_profiles, write_results)

DIVERGENCE = 3.75e-6  # D [1/s]: w_s = -D z

# The intercomparison's values over hours 3-4, (low, high, source), from Stevens et al.
# (2005), Mon. Wea. Rev. 133, 1443-1462 (S05): the statistics of its 16 members as the
# intercomparison distributed them (the ensemble file gcss7.nc, "GCSS 7 (RF01) Step 3
# Ensemble Statistics": time series averaged over hours 3-4 here; IQR: the mean over the
# window of the interquartile range), and the observations (DYCOMS-II RF01). The checks
# use the interquartile ranges: the members at the low end of the full range (IMAU and
# MPI, LWP 5 and 9 g/m2) are the runs that over-mixed at cloud top and lost the deck.
REFERENCE = {
    "lwp": (24.7, 47.7, "g m-2: ensemble mean 34.6 (S05 Table 1: fourth hour), IQR 24.7-47.7, members 5.0-58.6 "
                        "(gcss7.nc)"),
    "entrainment": (3.75, 5.89, "mm/s: S05 Table 2's UCLA sensitivity runs span 3.75-5.89; the ensemble-mean z_i "
                                "of gcss7.nc (839 m at 0 h, 855 m at 3 h, 862 m at 4 h) gives 5.1"),
    "cloud_cover": (0.866, 1.0, "ensemble mean 0.875, IQR 0.866-0.993, members 0.26-1.0 (gcss7.nc); observed: "
                                "a solid deck, above 0.99"),
    "inversion_height": (849.0, 866.0, "m, mean height of the 8 g/kg iso-surface: ensemble mean 858, IQR 849-866 "
                                       "(gcss7.nc)"),
    "cloud_base": (657.0, 707.0, "m: ensemble mean 684, IQR 657-707 (gcss7.nc); observed 580 +- 40"),
    "max_ww": (0.256, 0.409, "m2 s-2, largest layer-averaged w'w': ensemble mean 0.338, IQR 0.256-0.409 (gcss7.nc); "
                             "observed peak about 0.52 at 620 m (S05 Fig. 5, approx.)"),
    "tke_integral": (367.0, 556.0, "m3 s-2, vertically integrated TKE, resolved and subgrid: ensemble mean 449, "
                                   "IQR 367-556 (gcss7.nc); Squall's is the resolved part only"),
}
# The checks the issue sets: a deck over the whole window, LWP and w_e in the ranges above.
CHECKED = ("lwp", "entrainment")


def parse(argv):
    return parse_les_arguments(argv, __doc__, "dycoms_rf01_small.toml", "validation/dycoms_small", 14400.0, "10800,14400", 1800.0)


def entrainment_rate(times, z_i, window):
    """w_e = dz_i/dt + D z_i over the window [m/s]: the growth of z_i from a least-squares
    line through the window's samples, plus D times their mean z_i."""
    points = [(t, z) for t, z in zip(times, z_i) if window[0] <= t <= window[1] and z == z]
    if len(points) < 2:
        return float("nan"), float("nan")
    n = len(points)
    mt = sum(t for t, _ in points) / n
    mz = sum(z for _, z in points) / n
    slope = sum((t - mt) * (z - mz) for t, z in points) / sum((t - mt) ** 2 for t, _ in points)
    return slope + DIVERGENCE * mz, slope


def analyse(args, run_dir, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np

    series, ds, mean, first, z = window_profiles(args, run_dir)
    t = ds["time"].values
    lo, hi = args.window
    tke = 0.5 * (mean["u_u"] + mean["v_v"] + mean["w_w"])

    times = series["time"]
    w_e, growth = entrainment_rate(times, series["inversion_height"], args.window)
    inside_cover = [c for tt, c in zip(times, series["cloud_cover"]) if lo <= tt <= hi]
    values = {
        "lwp": 1000 * window_mean(times, series["lwp"], args.window),  # g m-2
        "entrainment": 1000 * w_e,  # mm/s
        "cloud_cover": window_mean(times, series["cloud_cover"], args.window),
        "inversion_height": window_mean(times, series["inversion_height"], args.window),
        "cloud_base": window_mean(times, series["cloud_base"], args.window),  # lowest cloudy node
        "max_ww": float(mean["w_w"].max()),
        "tke_integral": float(np.trapz(tke.values, z)),
    }
    extra = [
        ("dz_i/dt [mm/s]", 1000 * growth, "least-squares slope over the window"),
        ("cloud top [m]", window_mean(times, series["cloud_top"], args.window), "highest cloudy node, window mean"),
        ("least cloud cover in the window", min(inside_cover) if inside_cover else float("nan"), ""),
        ("height of the largest w'w' [m]", float(z[int(mean["w_w"].argmax())]), ""),
        ("max mean q_l [g/kg]", 1000 * float(mean["ql"].max()), f"at z = {z[int(mean['ql'].argmax())]:.0f} m"),
    ]
    checks = [("cloud cover > 0.9 in every sample of the window", bool(inside_cover) and min(inside_cover) > 0.9,
               f"least {min(inside_cover) if inside_cover else float('nan'):.3g}")]
    for key in CHECKED:
        low, high, _ = REFERENCE[key]
        checks.append((f"{key} in the intercomparison's range {low:g}-{high:g}", low <= values[key] <= high,
                       f"{values[key]:.3g}"))

    heading = (f"# DYCOMS-II RF01: {os.path.basename(args.config)}, means over {lo / 3600:g}-{hi / 3600:g} h\n\n" +
               run_wall_line(run_dir, t[-1]))
    units = {"lwp": " g m-2", "entrainment": " mm/s", "cloud_cover": "", "inversion_height": " m", "cloud_base": " m",
             "max_ww": " m2 s-2", "tke_integral": " m3 s-2"}
    write_results(out, heading, values, REFERENCE, units, extra, checks)

    # Profiles: the window mean against the initial state.
    panels = [("theta_li", "θ_l [K]", 1), ("qt", "q_t [g/kg]", 1000), ("ql", "q_l [g/kg]", 1000),
              ("cloud_fraction", "cloud fraction", 1), ("w_w", "w′w′ [m²/s²]", 1), ("w_w_w", "w′w′w′ [m³/s³]", 1),
              ("tke", "resolved TKE [m²/s²]", 1), ("w_theta_li", "w′θ_l′ [K m/s]", 1),
              ("w_qt", "w′q_t′ [g/kg m/s]", 1000), ("u", "u [m/s]", 1), ("v", "v [m/s]", 1),
              ("F_rad", "net longwave flux F [W m⁻²]", 1)]
    fig, axes = plt.subplots(3, 4, figsize=(14, 11), sharey=True)
    panels = [p for p in panels if p[0] == "tke" or p[0] in mean]  # F_rad: runs since it was added
    for ax, (name, label, scale) in zip(axes.flat, panels):
        now = tke if name == "tke" else mean[name]
        start = 0.5 * (first["u_u"] + first["v_v"] + first["w_w"]) if name == "tke" else first[name]
        ax.plot(scale * start, z, "k--", lw=1, label="t = 0")
        ax.plot(scale * now, z, "C0", lw=2, label=f"{lo / 3600:g}-{hi / 3600:g} h mean")
        if name + "_sgs" in mean:
            ax.plot(scale * mean[name + "_sgs"], z, "C1:", lw=1.5, label="subgrid")
            ax.plot(scale * (mean[name] + mean[name + "_sgs"]), z, "C2", lw=1, label="resolved + subgrid")
            ax.legend(fontsize=7)
        ax.set_xlabel(label)
        ax.set_ylim(0, min(1300, float(z[-1])))
        ax.grid(alpha=0.3)
    for ax in axes[:, 0]:
        ax.set_ylabel("z [m]")
    save_figure(plt, fig, axes, f"DYCOMS-II RF01 ({os.path.basename(args.config)}): mean profiles",
                os.path.join(out, "profiles.png"))

    # Time series, with the observed/intercomparison ranges over the window.
    hours = [tt / 3600 for tt in times]
    fig, axes = plt.subplots(2, 2, figsize=(11, 7), sharex=True)
    axes[0, 0].plot(hours, [1000 * v for v in series["lwp"]], "C0", label="Squall")
    low, high, _ = REFERENCE["lwp"]
    axes[0, 0].fill_between([lo / 3600, hi / 3600], low, high, color="0.8", label="intercomparison")
    axes[0, 0].set_ylabel("LWP [g m⁻²]")
    axes[0, 1].plot(hours, series["cloud_cover"], "C0")
    axes[0, 1].set_ylabel("cloud cover")
    axes[0, 1].set_ylim(0, 1.05)
    axes[1, 0].plot(hours, series["inversion_height"], "C0", label="z_i (q_t = 8 g/kg)")
    axes[1, 0].plot(hours, series["cloud_top"], "C1", lw=1, label="highest cloudy node")
    axes[1, 0].plot(hours, series["cloud_base"], "C2", lw=1, label="lowest cloudy node")
    axes[1, 0].set_ylabel("height [m]")
    axes[1, 0].legend(fontsize=8)
    axes[1, 1].plot(hours, series["max_w"], "C0")
    axes[1, 1].set_ylabel("max w [m/s]")
    for ax in axes.flat:
        ax.grid(alpha=0.3)
    for ax in axes[1]:
        ax.set_xlabel("time [h]")
    save_figure(plt, fig, axes, f"DYCOMS-II RF01 ({os.path.basename(args.config)}): time series",
                os.path.join(out, "timeseries.png"))

    return all(ok for _, ok, _ in checks)


def main(argv):
    return les_main(argv, "validate_dycoms.py", "dycoms", parse, analyse)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
