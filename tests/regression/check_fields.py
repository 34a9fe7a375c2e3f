#!/usr/bin/python3
"""check_fields.py FILE [SAME_AS]: FILE opens in xarray as a CF dataset with the
expected dimensions, coordinates, variables and units, holds physical values, and
(given SAME_AS, e.g. the same output written by another number of ranks) is identical
to SAME_AS. Needs Debian's python3-xarray and python3-netcdf4 (run with /usr/bin/python3)."""
import sys

try:
    import numpy as np
    import xarray as xr
except ImportError as e:
    print(f"check_fields.py needs python3-xarray and python3-netcdf4 (Debian): {e}")
    sys.exit(1)

ds = xr.open_dataset(sys.argv[1], decode_times=False)
errors = []
if ds.attrs.get("Conventions") != "CF-1.8":
    errors.append("Conventions is not CF-1.8")
for dim in ("time", "z", "y", "x"):
    if dim not in ds.dims:
        errors.append(f"missing dimension {dim}")
units = {"rho": "kg m-3", "u": "m s-1", "v": "m s-1", "w": "m s-1", "theta": "K", "p": "Pa", "T": "K",
         "x": "m", "y": "m", "z": "m"}
for name, unit in units.items():
    if name not in ds.variables:
        errors.append(f"missing variable {name}")
    elif ds[name].attrs.get("units") != unit:
        errors.append(f"{name} has units {ds[name].attrs.get('units')!r}, expected {unit!r}")
for name in ("rho", "u", "theta", "p", "T"):
    if name in ds and ds[name].dims != ("time", "z", "y", "x"):
        errors.append(f"{name} has dimensions {ds[name].dims}")
if not errors:
    if not (ds.rho > 0).all() or not np.isfinite(ds.rho).all():
        errors.append("rho is not positive and finite everywhere")
    x = ds.x.values
    if not np.all(np.diff(x) > 0) or not np.allclose(np.diff(x), np.diff(x)[0]):
        errors.append("x is not a uniform increasing grid")
if len(sys.argv) > 2 and not errors:
    other = xr.open_dataset(sys.argv[2], decode_times=False)
    for name in units:
        if not np.array_equal(ds[name].values, other[name].values):
            errors.append(f"{name} differs from {sys.argv[2]}")
print(f"{sys.argv[1]}: dims {dict(ds.sizes)}, variables {sorted(ds.data_vars)}")
for e in errors:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
