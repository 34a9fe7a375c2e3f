#!/usr/bin/env python3
"""Validate the mountain-wave cases against linear theory.

  scripts/validate_mountain_waves.py agnesi --resolutions 1500 --end-time 36000 --ranks 2
  scripts/validate_mountain_waves.py schar --resolutions 500 --end-time 18000 --ranks 2

Runs cases/agnesi_hydrostatic.toml or cases/schar_mountain.toml at each horizontal
resolution (element width / N, in m; the element layers scale with it, keeping the case's
aspect), takes w, u and rho of the last field file, interpolates them in each column from
the terrain-following levels to heights (the file's `altitude`), and compares them with
the steady linear solution of scripts/mountain_wave_theory.py on the same x points (the
terrain is periodic with the domain, as the run's is):

  - the vertical flux of horizontal momentum M(z) = integral of rho u' w' dx over the
    region between the lateral sponges, normalised by the hydrostatic value M_H =
    -(pi/4) rho_0 U N h_0^2 (Agnesi; Giraldo & Restelli 2008, Fig. 12, show a normalised
    flux close to 1 below the sponge) or by the linear solution's own flux (Schär);
  - the relative L2 difference of w from the linear w over |x - x_c| <= 4 a (Agnesi) or
    25 km (Schär) and heights from 1 km to the top sponge.

The linear solutions here are anelastic (the amplitude grows as rho^(-1/2), with the
density scale height R_d T_0 / g of the run's surface temperature) and, for Agnesi,
hydrostatic. Linear theory is steady; the run approaches it after the impulsive start
(several hours: Giraldo & Restelli ran to 10 h of simulated time with U = 20 m/s).

Writes to --out: results.csv and results.md (one row per resolution), w_<res>m.png (the
run's w beside the linear one) and flux_<res>m.png (M(z) / reference). Needs numpy,
matplotlib and xarray (Debian's python3-*, /usr/bin/python3; the script re-runs itself
there). Each run checkpoints every --checkpoint-interval simulated seconds and continues
with --resume, as the other validation scripts. Exit status: 0 when every run reached
--end-time, 3 when one was stopped by a signal, 1 when one failed, 2 on bad arguments.
"""
import argparse
import glob
import math
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
from scaling import UsageError, ensure_matplotlib, ensure_module  # noqa: E402
from validation_runs import add_run_arguments, run_case, total_wall_seconds, write_table  # noqa: E402
import mountain_wave_theory as theory  # noqa: E402

# The cases' geometry (cases/*.toml): domain, the default horizontal resolution, the ratio
# of vertical to horizontal node spacing at it, the sponges and the compared window.
CASES = {
    "agnesi": dict(case="agnesi_hydrostatic", x=(-120000.0, 120000.0), top=30000.0, resolution=1500.0,
                   aspect=0.25, side_sponge=40000.0, top_sponge=15000.0, window=40000.0,
                   h0=1.0, a=10000.0, U=20.0, T=250.0),
    "schar": dict(case="schar_mountain", x=(-40000.0, 40000.0), top=21000.0, resolution=500.0,
                  aspect=0.5833333333333334, side_sponge=15000.0, top_sponge=12000.0, window=25000.0,
                  h0=250.0, a=5000.0, wavelength=4000.0, U=10.0, N=0.01, theta0=280.0),
}


def elements(c, order, resolution):
    """nx, nz for a horizontal node spacing `resolution` at order `order`."""
    nx = max(2, round((c["x"][1] - c["x"][0]) / (resolution * order)))
    nz = max(2, round(c["top"] / (resolution * c["aspect"] * order)))
    return nx, nz


def terrain(name, c, x):
    if name == "agnesi":
        return theory.agnesi(x, c["h0"], c["a"])
    return theory.schar(x, c["h0"], c["a"], c["wavelength"])


def linear(name, c, x, z):
    """The linear solution on the run's x points and heights z, and the reference flux."""
    h = terrain(name, c, x)
    if name == "agnesi":
        N, H = theory.isothermal(c["T"])
        rho0 = 1e5 / (theory.R_D * c["T"])
        sol = theory.linear_solution(x, z, h, c["U"], N, scale_height=H, hydrostatic=True, rho0=rho0)
        reference = theory.hydrostatic_agnesi_flux(rho0, c["U"], N, c["h0"])
    else:
        N, H = c["N"], theory.R_D * c["theta0"] / theory.G
        rho0 = 1e5 / (theory.R_D * c["theta0"])
        sol = theory.linear_solution(x, z, h, c["U"], N, scale_height=H, rho0=rho0)
        reference = None
    return sol, reference, h


def analyse(name, c, run_dir):
    """The run's last fields at heights, the linear solution, the fluxes and the L2 error."""
    import numpy as np
    import xarray as xr
    last = sorted(glob.glob(os.path.join(run_dir, "fields_*.nc")))[-1]
    ds = xr.open_dataset(last, decode_times=False)
    x = ds.x.values
    alt = ds.altitude.isel(y=0).values if "altitude" in ds else np.broadcast_to(ds.z.values[:, None], (ds.z.size, x.size))
    z = np.linspace(0.0, c["top"], 121)
    fields = {}
    for v in ("w", "u", "rho"):
        f = ds[v].isel(time=0, y=0).values
        # Below the lowest output point of a column (over the terrain's slope) and above
        # the highest, np.interp holds the end values; the comparison starts at 1 km.
        fields[v] = np.stack([np.interp(z, alt[:, i], f[:, i]) for i in range(x.size)], axis=1)
    sol, reference, h = linear(name, c, x, z)
    inside = (x >= c["x"][0] + c["side_sponge"]) & (x <= c["x"][1] - c["side_sponge"])
    dx = x[1] - x[0]
    flux = np.sum((fields["rho"] * (fields["u"] - c["U"]) * fields["w"])[:, inside], axis=1) * dx
    theory_flux = sol["rho"] * np.sum(((sol["u"]) * sol["w"])[:, inside], axis=1) * dx
    norm = reference if reference is not None else theory_flux
    shown = np.abs(x) <= c["window"]
    rows = (z >= 1000.0) & (z <= c["top_sponge"])
    diff = fields["w"][np.ix_(rows, shown)] - sol["w"][np.ix_(rows, shown)]
    l2 = float(np.sqrt(np.sum(diff ** 2) / np.sum(sol["w"][np.ix_(rows, shown)] ** 2)))
    lower = (z >= 1000.0) & (z <= c["top_sponge"] / 2)
    ratio = flux / norm
    return dict(time=float(ds.time.values[0]), x=x, z=z, h=h, w=fields["w"], w_linear=sol["w"], flux=flux,
                theory_flux=theory_flux, norm=norm, ratio=ratio, l2=l2,
                ratio_lower=(float(ratio[lower].min()), float(ratio[lower].max())), shown=shown)


def plot(name, c, r, res, out):
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    import numpy as np
    keep = r["shown"]
    xs = r["x"][keep] / 1e3
    lim = float(np.abs(r["w_linear"][:, keep]).max()) or 1.0
    fig, axes = plt.subplots(1, 2, figsize=(12, 4.5), sharey=True)
    for ax, w, title in ((axes[0], r["w"], "Squall"), (axes[1], r["w_linear"], "linear theory")):
        pc = ax.pcolormesh(xs, r["z"] / 1e3, w[:, keep], cmap="RdBu_r", vmin=-lim, vmax=lim, shading="auto")
        ax.fill_between(xs, 0, r["h"][keep] / 1e3, color="0.3")
        ax.axhline(c["top_sponge"] / 1e3, color="k", lw=0.6, ls="--")
        ax.set(xlabel="x [km]", title=f"{title}: w, t = {r['time']:g} s" if title == "Squall" else title)
    axes[0].set_ylabel("z [km]")
    fig.colorbar(pc, ax=axes, label="w [m/s]")
    fig.savefig(os.path.join(out, f"w_{res:g}m.png"), dpi=110, bbox_inches="tight")
    plt.close(fig)
    fig, ax = plt.subplots(figsize=(4.5, 5))
    ax.plot(r["ratio"], r["z"] / 1e3, label="Squall")
    ax.plot(r["theory_flux"] / r["norm"], r["z"] / 1e3, "k--", label="linear theory")
    ax.axhline(c["top_sponge"] / 1e3, color="0.5", lw=0.6, ls=":")
    what = "M / M_H" if name == "agnesi" else "M / M_linear"
    ax.set(xlabel=what, ylabel="z [km]", title=f"{name}: momentum flux", xlim=(-0.5, 1.5))
    ax.legend()
    fig.savefig(os.path.join(out, f"flux_{res:g}m.png"), dpi=110, bbox_inches="tight")
    plt.close(fig)


def main(argv):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], epilog=__doc__,
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("which", choices=sorted(CASES), help="agnesi (hydrostatic Witch of Agnesi) or schar")
    add_run_arguments(p, "", 4, 0.0, "", 1800.0)
    args = p.parse_args(argv)
    c = CASES[args.which]
    args.resolutions = args.resolutions or f"{c['resolution']:g}"
    args.end_time = args.end_time or (36000.0 if args.which == "agnesi" else 18000.0)
    args.out = args.out or os.path.join("validation", "mountain_waves", args.which)
    prog = "validate_mountain_waves.py"
    try:
        ensure_module("numpy", "the comparison needs")
        ensure_module("xarray", "reading the fields needs")
        ensure_matplotlib()
        resolutions = [float(v) for v in args.resolutions.split(",")]
        if not all(v > 0 for v in resolutions):
            raise ValueError(f"--resolutions: expected numbers > 0 (m), got '{args.resolutions}'")
    except (UsageError, ValueError) as e:
        print(f"{prog}: error: {e}", file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    rows = []
    for res in resolutions:
        nx, nz = elements(c, args.order, res)
        run_dir = os.path.join(args.out, f"run_{res:g}m")
        status, s = run_case(args, prog, f"{args.which} {res:g} m", c["case"], nx, nz, run_dir)
        if status != 0:
            return status
        r = analyse(args.which, c, run_dir)
        plot(args.which, c, r, res, args.out)
        rows.append({"resolution_m": res, "elements": f"{nx}x1x{nz}", "order": args.order, "time_s": r["time"],
                     "flux_ratio_lower_min": r["ratio_lower"][0], "flux_ratio_lower_max": r["ratio_lower"][1],
                     "w_l2_relative": r["l2"], "wall_seconds": total_wall_seconds(run_dir, s), "ranks": s["ranks"]})
    what = "M / M_H" if args.which == "agnesi" else "M / M_linear"
    lines = [f"# {c['case']} against linear theory", "",
             f"{what} from 1 km to half the height of the top sponge ({c['top_sponge'] / 2e3:g} km), between the "
             "lateral sponges; relative L2 difference of w from the linear w from 1 km to the top sponge.", "",
             f"| resolution | elements | t [s] | {what} (min .. max) | within 10 % | w L2 | wall [s] |",
             "|---|---|---|---|---|---|---|"]
    for r in rows:
        ok = abs(r["flux_ratio_lower_min"] - 1) <= 0.1 and abs(r["flux_ratio_lower_max"] - 1) <= 0.1
        lines.append(f"| {r['resolution_m']:g} m | {r['elements']} | {r['time_s']:g} | "
                     f"{r['flux_ratio_lower_min']:.3f} .. {r['flux_ratio_lower_max']:.3f} | "
                     f"{'yes' if ok else 'no'} | {r['w_l2_relative']:.3f} | {r['wall_seconds']:.0f} |")
    write_table(args.out, rows, lines)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
