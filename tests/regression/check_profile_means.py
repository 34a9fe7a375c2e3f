#!/usr/bin/python3
"""check_profile_means.py PROFILES MEANS T0 T1: MEANS (profiles_mean.nc) holds, for every
(time, z) variable of PROFILES (profiles.nc), its mean over the records with
T0 <= time <= T1 (each time once, its last record), on z, with cell_methods
"time: mean". Needs python3-xarray and python3-netcdf4."""
import sys

try:
    import numpy as np
    import xarray as xr
except ImportError as e:
    print(f"check_profile_means.py needs python3-xarray and python3-netcdf4 (Debian): {e}")
    sys.exit(1)

profiles, means = xr.open_dataset(sys.argv[1], decode_times=False), xr.open_dataset(sys.argv[2], decode_times=False)
t0, t1 = float(sys.argv[3]), float(sys.argv[4])
times = profiles["time"].values
last = {}
for r, t in enumerate(times):
    if t0 <= t <= t1:
        last[t] = r
records = [last[t] for t in sorted(last)]
errors = []
if len(records) < 2:
    errors.append(f"only {len(records)} record(s) in the window: the test needs at least 2")
if int(means.attrs.get("records", -1)) != len(records):
    errors.append(f"records attribute {means.attrs.get('records')} != {len(records)}")
checked = 0
for name, var in profiles.data_vars.items():
    if var.dims != ("time", "z"):
        continue
    if name not in means:
        errors.append(f"{name} missing")
        continue
    expected = np.zeros(profiles.sizes["z"])
    for r in records:  # the same order of additions as the writer's
        expected = expected + var.values[r]
    expected = expected / len(records)
    got = means[name].values
    if means[name].attrs.get("cell_methods") != "time: mean":
        errors.append(f"{name}: cell_methods {means[name].attrs.get('cell_methods')!r}")
    if not np.array_equal(got, expected):
        errors.append(f"{name}: largest difference {np.max(np.abs(got - expected))!r}")
    checked += 1
if checked < 10:
    errors.append(f"only {checked} variables checked")
print(f"{checked} variables, {len(records)} records in [{t0:g}, {t1:g}] s" if not errors else "\n".join(errors))
sys.exit(1 if errors else 0)
