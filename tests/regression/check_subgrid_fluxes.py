#!/usr/bin/python3
"""check_subgrid_fluxes.py MODE PROFILES [ARGS]: the modelled (subgrid) fluxes of
profiles.nc against exact values.

  shear PROFILES NU        shear_wave, u = sin(k z) exp(-nu k^2 t), k = 2 pi / 1000 m:
                           u_w_sgs = -nu du/dz = -nu k cos(k z) exp(-nu k^2 t)
  rest PROFILES KAPPA      rest_atmosphere (isothermal) with heat diffusing down grad theta:
                           w_theta_sgs = -kappa dtheta/dz = -kappa theta g / (c_p T)
  rest_T PROFILES          the same with heat diffusing down grad T: w_theta_sgs = 0
  moist PROFILES           a moist run without molecular viscosity and no cloud yet
                           (bomex, a few steps): the subgrid fluxes are there with units,
                           nu_t >= 0, every flux 0 where nu_t is, and the theta_v flux is
                           the unsaturated A w'theta_li' + B w'q_t' of its two fluxes

Needs python3-xarray and python3-netcdf4."""
import sys

try:
    import numpy as np
    import xarray as xr
except ImportError as e:
    print(f"check_subgrid_fluxes.py needs python3-xarray and python3-netcdf4 (Debian): {e}")
    sys.exit(1)

mode, path = sys.argv[1], sys.argv[2]
ds = xr.open_dataset(path, decode_times=False)
errors = []


def need(*names):
    for name in names:
        if name not in ds:
            errors.append(f"missing {name}")
        elif "units" not in ds[name].attrs or ds[name].dims != ("time", "z"):
            errors.append(f"{name}: dims {ds[name].dims}, attrs {dict(ds[name].attrs)}")
    return not errors


z = ds.z.values
if mode == "shear" and need("u_w_sgs", "nu_t"):
    nu = float(sys.argv[3])
    k = 2 * np.pi / 1000.0
    for i, t in enumerate(ds.time.values):
        exact = -nu * k * np.cos(k * z) * np.exp(-nu * k * k * t)
        got = ds.u_w_sgs.values[i]
        err = np.max(np.abs(got - exact)) / (nu * k)
        print(f"t = {t:g} s: max |u_w_sgs - exact| / (nu k) = {err:.2e}")
        if not err < 2e-2:  # linear between the nodes (N = 3: 1.0e-2)
            errors.append(f"u_w_sgs at t = {t:g} s is off the exact -nu du/dz by {err:.2e} of its amplitude")
    if np.any(ds.nu_t.values != 0):
        errors.append("nu_t is not zero without a closure")
elif mode in ("rest", "rest_T") and need("w_theta_sgs"):
    g, cp = 9.81, 1004.0
    got = ds.w_theta_sgs.values[0]
    if mode == "rest":
        kappa = float(sys.argv[3])
        exact = -kappa * ds.theta.values[0] * g / (cp * ds["T"].values[0])
        err = np.max(np.abs(got / exact - 1))
        print(f"max relative error of w_theta_sgs: {err:.2e} (exact {exact.min():.4e} to {exact.max():.4e} K m/s)")
        if not err < 1e-3:
            errors.append(f"w_theta_sgs is off -kappa dtheta/dz by {err:.2e}")
    else:
        scale = 1e-3 * ds.theta.values[0].max() / 1000  # a flux of kappa = 1 m2/s on 1 K/km
        print(f"max |w_theta_sgs| down grad T: {np.max(np.abs(got)):.2e} K m/s")
        if not np.max(np.abs(got)) < 1e-6 * scale:
            errors.append("w_theta_sgs is not zero in an isothermal atmosphere with heat diffusing down grad T")
elif mode == "moist" and need("nu_t", "u_w_sgs", "v_w_sgs", "w_theta_li_sgs", "w_theta_v_sgs", "w_qt_sgs"):
    # Without molecular viscosity the modelled fluxes are the closure's alone: zero where
    # nu_t is. Before any cloud (q_l = 0) w'theta_v' = (1 + eps_v q_t) w'theta_li' +
    # eps_v theta w'q_t' level by level, to the variation of q_t and theta on a level.
    eps_v = 461.5 / 287.0 - 1
    if not np.all(ds.nu_t.values >= 0):
        errors.append("nu_t is negative somewhere")
    if not np.any(ds.nu_t.values > 0):
        errors.append("nu_t is zero everywhere: the closure is missing")
    off = ds.nu_t.values == 0
    for name in ("u_w_sgs", "v_w_sgs", "w_theta_li_sgs", "w_theta_v_sgs", "w_qt_sgs"):
        if np.any(ds[name].values[off] != 0):
            errors.append(f"{name} is not zero where nu_t is")
    if np.any(ds.ql.values != 0):
        errors.append("there is cloud already: the unsaturated relation does not hold")
    else:
        expected = (1 + eps_v * ds.qt.values) * ds.w_theta_li_sgs.values + eps_v * ds.theta.values * ds.w_qt_sgs.values
        scale = np.max(np.abs(ds.w_theta_v_sgs.values))
        err = np.max(np.abs(ds.w_theta_v_sgs.values - expected)) / scale
        print(f"w_theta_v_sgs against the unsaturated relation: {err:.2e} of its largest value {scale:.3e} K m/s")
        if not err < 1e-2:
            errors.append(f"w_theta_v_sgs is off (1 + eps_v q_t) w_theta_li_sgs + eps_v theta w_qt_sgs by {err:.2e}")
else:
    errors.append(f"unknown mode {mode}" if mode not in ("shear", "rest", "rest_T", "moist") else "")
errors = [e for e in errors if e]
for e in errors:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
