#!/usr/bin/python3
"""check_terrain_fields.py FIELDS PROFILES H0 A XC TOP [SAME_AS]: the field file of a run over
a Witch of Agnesi hill h(x) = H0 A^2 / ((x - XC)^2 + A^2) with the linear decay to a flat top
at TOP, walls along x (z = zeta + h (1 - zeta / TOP), the domain's bottom at 0) places its points where the
mapping does:

  - `altitude` (z, y, x) is the height of every output point, within 1e-2 m of the mapping
    of (x, y, zeta) (the mesh holds the terrain as a polynomial in each element; a smooth
    hill makes its error small), and increases up every column;
  - `surface_altitude` (y, x) is h(x) within 1e-2 m;
  - every field names `altitude` in its CF `coordinates` attribute, and z is not called
    a height (standard_name absent);
  - PROFILES says in its metadata that its means are along terrain-following levels.

With SAME_AS (the same output of another rank count) altitude and surface_altitude are
bitwise equal. Needs Debian's python3-xarray and python3-netcdf4 (/usr/bin/python3)."""
import sys

try:
    import numpy as np
    import xarray as xr
except ImportError as e:
    print(f"check_terrain_fields.py needs python3-xarray and python3-netcdf4 (Debian): {e}")
    sys.exit(1)

fields, profiles = sys.argv[1], sys.argv[2]
h0, a, xc, top = (float(v) for v in sys.argv[3:7])
ds = xr.open_dataset(fields, decode_times=False)
errors = []
for name in ("altitude", "surface_altitude"):
    if name not in ds.variables:
        errors.append(f"missing variable {name}")
if not errors:
    x, zeta = ds.x.values, ds.z.values
    h = h0 * a * a / ((x - xc) ** 2 + a * a)
    expected = zeta[:, None, None] + h[None, None, :] * (1 - zeta[:, None, None] / top)
    alt = ds.altitude.values
    err = float(np.abs(alt - expected).max())
    if not err <= 1e-2:
        errors.append(f"altitude is {err:.3g} m from the mapping's heights")
    if not np.all(np.diff(alt, axis=0) > 0):
        errors.append("altitude does not increase up every column")
    serr = float(np.abs(ds.surface_altitude.values - h[None, :]).max())
    if not serr <= 1e-2:
        errors.append(f"surface_altitude is {serr:.3g} m from h(x)")
    print(f"{fields}: altitude within {err:.2e} m, surface_altitude within {serr:.2e} m of the mapping")
    for name, v in ds.data_vars.items():
        if name in ("altitude", "surface_altitude"):
            continue
        # xarray takes the CF coordinates attribute into the variable's coordinates.
        if v.dims == ("time", "z", "y", "x") and "altitude" not in v.coords:
            errors.append(f"{name} does not name altitude among its coordinates")
    if "standard_name" in ds.z.attrs:
        errors.append(f"z has standard_name {ds.z.attrs['standard_name']!r}; over terrain it is no height")
    if len(sys.argv) > 7:
        other = xr.open_dataset(sys.argv[7], decode_times=False)
        for name in ("altitude", "surface_altitude"):
            if not np.array_equal(ds[name].values, other[name].values):
                errors.append(f"{name} differs from {sys.argv[7]}")
p = xr.open_dataset(profiles, decode_times=False)
if "terrain-following" not in p.attrs.get("comment", ""):
    errors.append(f"{profiles}: the comment does not say the means are along terrain-following levels")
for e in errors:
    print("FAIL:", e)
sys.exit(1 if errors else 0)
