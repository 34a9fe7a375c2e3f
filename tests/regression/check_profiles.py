#!/usr/bin/python3
"""check_profiles.py FILE [SAME_AS]: profiles.nc opens in xarray with dimensions
(time, z), the means, variances and fluxes with units, sensible values (a mean potential
temperature near 300 K, non-negative variances), and (given SAME_AS, written by another
number of ranks) identical values. Needs python3-xarray and python3-netcdf4."""
import sys

try:
    import numpy as np
    import xarray as xr
except ImportError as e:
    print(f"check_profiles.py needs python3-xarray and python3-netcdf4 (Debian): {e}")
    sys.exit(1)

ds = xr.open_dataset(sys.argv[1], decode_times=False)
errors = []
names = ["u", "v", "w", "theta", "T", "p", "rho", "u_u", "v_v", "w_w", "w_w_w", "theta_theta", "w_theta", "u_w", "v_w"]
for name in names:
    if name not in ds:
        errors.append(f"missing {name}")
    elif ds[name].dims != ("time", "z") or "units" not in ds[name].attrs:
        errors.append(f"{name}: dims {ds[name].dims}, attrs {dict(ds[name].attrs)}")
if not errors:
    if ds.sizes["time"] < 2:
        errors.append(f"only {ds.sizes['time']} time(s)")
    if not np.all(np.abs(ds.theta.values - 300) < 5):
        errors.append("mean theta is not near 300 K")
    for name in ("u_u", "v_v", "w_w", "theta_theta"):
        if not np.all(ds[name].values >= 0):
            errors.append(f"{name} has negative values")
    if not np.any(ds.theta_theta.values > 0):
        errors.append("theta'theta' is zero everywhere: the bubble is missing")
if len(sys.argv) > 2 and not errors:
    other = xr.open_dataset(sys.argv[2], decode_times=False)
    for name in names + ["time", "z"]:
        if not np.array_equal(ds[name].values, other[name].values):
            errors.append(f"{name} differs from {sys.argv[2]}")
print(f"{sys.argv[1]}: {dict(ds.sizes)}")
for e in errors:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
